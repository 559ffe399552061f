import type { KeysGetParams } from '../../../contracts/keys/actions';
import type { Session } from '../../../contracts/keys/session';
import { quotaCounter } from '../../../contracts/limiter/actions';
import { KeysErrors } from '../errors';
import { basicUserKey, hashKey } from './key-hash';
import type { KeyStore, StoredKey } from './key-store';
import type { KeyRegistryOptions } from './key-registry';

export type KeyLookup = Pick<KeysGetParams, 'key' | 'org_scope' | 'api_id' | 'hashed'>;

/**
 * A stored key by the key, its hash, or (within an organisation) a basic-auth username; with
 * `hashed` and hashed keys, by the hash only. An `api_id` naming an API looks in that API's
 * organisation (the reference scopes a lookup by the API's org the same way); an unknown one
 * narrows nothing.
 */
export async function findStoredKey(
  store: KeyStore,
  params: KeyLookup,
  options: Pick<KeyRegistryOptions, 'hashKeys' | 'findApi'>,
): Promise<StoredKey> {
  const { key } = params;
  let orgScope = params.org_scope;
  if (params.api_id !== undefined && params.api_id !== '' && orgScope === undefined)
    orgScope = (await options.findApi(params.api_id, undefined))?.org_id;
  const byHashOnly = params.hashed === true && options.hashKeys;
  const candidates = byHashOnly ? [] : [hashKey(key)];
  if (/^[0-9a-f]{64}$/.test(key)) candidates.push(key);
  if (orgScope !== undefined && !byHashOnly) candidates.push(hashKey(basicUserKey(orgScope, key)));
  for (const candidate of candidates) {
    const found = await store.find(candidate);
    if (found && (orgScope === undefined || found.org_id === orgScope)) return found;
  }
  throw KeysErrors.notFound(key);
}

/** The quota counters of a key: its own, and one per API it had or has access to (an API's own limit). */
export function quotaCounters(keyHash: string, ...sessions: Session[]): string[] {
  const apis = new Set(sessions.flatMap((session) => Object.keys(session.access_rights ?? {})));
  return [quotaCounter(keyHash), ...[...apis].map((apiId) => quotaCounter(keyHash, apiId))];
}
