import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusalReason, refusedAddressError, type OutboundAddressRefused } from './outbound-address';
import { currentOutboundPolicy, type OutboundPolicy } from './outbound-policy';

/** How long a save waits for a name to resolve before leaving the judgement to the connection. */
const LOOKUP_TIMEOUT_MS = 2000;
const NOT_CALLED = 'which gw does not call';

export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: ResolveAll = (hostname) => lookup(hostname, { all: true });

/**
 * Why an address a tenant saves (an upstream, a webhook, a connector's broker) is refused, if it
 * is, so the save fails with a clear 400 instead of every later call failing. An IP literal is
 * judged by itself; under `deny-private` a name is resolved and judged by its addresses too. A
 * name that does not resolve now is left to the connection, which judges the address it reaches
 * whatever the name resolved to at save time.
 */
export async function hostSaveRefusal(
  host: string,
  policy: OutboundPolicy = currentOutboundPolicy(),
  resolve: ResolveAll = systemResolve,
): Promise<string | undefined> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '') return undefined;
  if (isIP(bare) !== 0) {
    const refusal = refusedAddressError(bare, bare, policy);
    return refusal ? `names ${refusalReason(refusal)}, ${NOT_CALLED}` : undefined;
  }
  if (policy.mode === 'allow') return undefined;
  const addresses = await withTimeout(resolve(bare)).catch(() => [] as LookupAddress[]);
  const refusal = addresses
    .map((entry) => refusedAddressError(bare, entry.address, policy))
    .find((found): found is OutboundAddressRefused => found !== undefined);
  if (!refusal) return undefined;
  return `names ${bare}, which resolves to ${refusal.address}, ${refusalReason(refusal)}, ${NOT_CALLED}`;
}

/** `hostSaveRefusal` for a URL's host, as a message naming `field`: "target_path: 'http://…' names …". */
export async function urlSaveProblem(
  field: string,
  raw: string,
  policy?: OutboundPolicy,
  resolve?: ResolveAll,
): Promise<string | undefined> {
  let host: string;
  try {
    host = new URL(raw).hostname;
  } catch {
    return undefined; // the field's own validation reports a URL that does not parse
  }
  const refusal = await hostSaveRefusal(host, policy, resolve);
  return refusal ? `${field}: '${raw}' ${refusal}` : undefined;
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
