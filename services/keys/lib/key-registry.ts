import type {
  KeyRecord,
  KeysCreateParams,
  KeysGetParams,
  KeysListParams,
  KeysListResult,
  KeysLookupResult,
  KeysPolicySessionResult,
  KeysReadParams,
  KeysPreviewParams,
  KeysSaveBasicUserParams,
  KeysSetPoliciesParams,
  KeysUpdateParams,
  KeysUpdateMetaParams,
} from '../../../contracts/keys/actions';
import type { KeysChangedEvent } from '../../../contracts/keys/events';
import type { AccessDefinition, Policy, Session } from '../../../contracts/keys/session';
import { pageCount, pageWindow } from '../../../lib/pagination';
import { hashPassword } from '../../../lib/password';
import { KeysErrors } from '../errors';
import { isGwError } from '../../../lib/errors';
import { applyPolicies } from './apply-policies';
import { assertAllowedUrlsCompile } from './allowed-urls';
import { assertMcpAccessValid } from './mcp-access-checks';
import { assertKeyFits } from './column-limits';
import { basicUserKey, generateKey, hashKey } from './key-hash';
import { findStoredKey, quotaCounters, type KeyLookup } from './key-lookup';
import { hideHmacSecret, type HmacSecrets } from './hmac-secret';
import { boundCertificate, certificateKey, keepCertificate } from './certificate-binding';
import { checkRsaCertificate } from './rsa-certificate';
import type { KeyStore, StoredKey } from './key-store';
import type { PolicyRegistry } from './policy-registry';

export interface KeyRegistryOptions {
  /** store only key hashes (hash_keys) */
  hashKeys: boolean;
  /** let lists return hashes when keys are hashed (enable_hashed_keys_listing) */
  listHashes: boolean;
  pageSize: number;
  /** the API's public id and name, or undefined when it does not exist (in that organisation) */
  findApi(
    apiId: string,
    orgScope: string | undefined,
  ): Promise<{ api_id: string; name: string; org_id: string } | undefined>;
  publish(event: KeysChangedEvent): void;
  /** the live quota of a key from the limiter, when one runs (management nodes may not see one) */
  quotaState?(
    keyHash: string,
    max: number,
    renewalRate: number,
  ): Promise<{ quota_remaining: number; quota_renews: number } | undefined>;
  now?: () => number;
  /** issues, keeps and opens the HMAC secrets of keys with hmac_enabled */
  hmacSecrets: HmacSecrets;
  /** whether the certificate store holds this certificate for the organisation (dynamic mutual TLS) */
  certificateExists(id: string, orgId: string): Promise<boolean>;
  /** the public key type (`rsa`, `ec`, …) of a certificate in the organisation's store; undefined when it is not there */
  certificatePublicKeyType(id: string, orgId: string): Promise<string | undefined>;
}

/**
 * The rules around access keys and basic-auth users: organisation scope, validation of access
 * rights and policies, hashing, and the `keys.changed` broadcast after every write.
 */
export class KeyRegistry {
  private readonly now: () => number;

  constructor(
    private readonly store: KeyStore,
    private readonly policies: PolicyRegistry,
    private readonly options: KeyRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async create(params: KeysCreateParams): Promise<KeyRecord> {
    const orgId = this.orgFor(params.org_scope, params.session.org_id);
    const hmac = this.options.hmacSecrets.issue(await this.validSession(params.session, orgId, params.org_scope, true));
    const session = hmac.stored;
    const certificate = await boundCertificate(session, orgId, this.options.certificateExists);
    await checkRsaCertificate(session, undefined, orgId, this.options.certificatePublicKeyType);
    const imported = params.custom_key_hash;
    if (imported !== undefined && certificate !== undefined)
      throw KeysErrors.invalid('A key bound to a certificate is named by it; it can not be imported by a hash');
    const key =
      certificate !== undefined ? certificateKey(orgId, certificate) : (params.custom_key ?? generateKey(orgId));
    assertKeyFits({ key, org_id: orgId });
    const keyHash = imported ?? hashKey(key);
    if (await this.store.find(keyHash)) throw KeysErrors.taken();
    const now = this.now();
    const revision = await this.store.insert({
      key_hash: keyHash,
      key_id: this.options.hashKeys || imported !== undefined ? null : key,
      org_id: orgId,
      kind: 'key',
      username: null,
      session,
      password_hash: '',
      created_at: now,
      updated_at: now,
    });
    this.options.publish({ action: 'created', key_hash: keyHash, revision });
    return {
      key_id: imported ?? key,
      key_hash: keyHash,
      data: hideHmacSecret(publicSession(session), hmac.shown),
    };
  }

  async saveBasicUser(params: KeysSaveBasicUserParams): Promise<KeyRecord> {
    const orgId = this.orgFor(params.org_scope, params.session.org_id);
    assertKeyFits({ username: params.username, org_id: orgId });
    const keyHash = hashKey(basicUserKey(orgId, params.username));
    const existing = await this.store.find(keyHash);
    if (params.mode === 'create' && existing) throw KeysErrors.basicUserTaken(params.username);
    if (params.mode === 'update' && !existing) throw KeysErrors.notFound(params.username);
    const password = params.session.basic_auth_data?.password;
    if (!password && !existing)
      throw KeysErrors.invalid('basic_auth_data.password is required to create a basic auth user');
    const session = await this.validSession(params.session, orgId, params.org_scope, !existing);
    const now = this.now();
    const stored: StoredKey = {
      key_hash: keyHash,
      key_id: this.options.hashKeys ? null : params.username,
      org_id: orgId,
      kind: 'basic',
      username: params.username,
      session: { ...session, basic_auth_data: { password: '', hash_type: 'scrypt' } },
      password_hash: password ? await hashPassword(password) : existing!.password_hash,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    const revision = existing ? await this.store.update(stored) : await this.store.insert(stored);
    this.options.publish({ action: existing ? 'updated' : 'created', key_hash: keyHash, revision });
    return { key_id: params.username, key_hash: keyHash, data: publicSession(stored.session) };
  }

  async get(params: KeysReadParams): Promise<KeyRecord> {
    if (params.hashed && !this.options.hashKeys) throw KeysErrors.hashedLookupWithoutHashing();
    const found = await this.find(params);
    const shown = params.effective ? await this.effectiveSession(found.session) : found.session;
    const session = await this.withLiveQuota(found.key_hash, shown);
    return {
      key_id: found.username ?? found.key_id ?? params.key,
      key_hash: found.key_hash,
      data: hideHmacSecret(publicSession(session), undefined),
    };
  }

  /** The session with its policies applied; as stored when one of them has been deleted. */
  private async effectiveSession(session: Session): Promise<Session> {
    try {
      return applyPolicies(session, await this.policies.getMany(session.apply_policies ?? []));
    } catch (err) {
      if (isGwError(err, 'GW_ERR_KEYS_INVALID')) return session;
      throw err;
    }
  }

  /** quota_remaining and quota_renews as the limiter counts them now. */
  private async withLiveQuota(keyHash: string, session: Session): Promise<Session> {
    const max = session.quota_max;
    if (!this.options.quotaState || typeof max !== 'number' || max < 0) return session;
    const live = await this.options.quotaState(keyHash, max, session.quota_renewal_rate ?? -1).catch(() => undefined);
    return live ? { ...session, ...live } : session;
  }

  async update(params: KeysUpdateParams): Promise<KeyRecord> {
    const found = await this.find(params);
    const orgId = this.orgFor(params.org_scope ?? found.org_id, params.session.org_id ?? found.org_id);
    assertKeyFits({ org_id: orgId });
    const hmac = this.options.hmacSecrets.carry(
      keepCertificate(await this.validSession(params.session, orgId, params.org_scope, false), found.session),
      found.session,
    );
    const session = hmac.stored;
    await checkRsaCertificate(
      session,
      found.org_id === orgId ? found.session : undefined,
      orgId,
      this.options.certificatePublicKeyType,
    );
    const updated: StoredKey = {
      ...found,
      org_id: orgId,
      session: found.kind === 'basic' ? { ...session, basic_auth_data: found.session.basic_auth_data } : session,
      updated_at: this.now(),
    };
    const revision = await this.store.update(updated);
    this.options.publish({
      action: 'updated',
      key_hash: found.key_hash,
      revision,
      ...(params.reset_quota ? { reset_quotas: quotaCounters(found.key_hash, found.session, updated.session) } : {}),
    });
    return {
      key_id: found.username ?? found.key_id ?? params.key,
      key_hash: found.key_hash,
      data: hideHmacSecret(publicSession(updated.session), hmac.shown),
    };
  }

  /**
   * Replaces only the key's `meta_data` (a virtual endpoint's returned session metadata), by its
   * hash: the rest of the stored session (policies, quota, secrets) is left as stored.
   */
  async updateMeta(params: KeysUpdateMetaParams): Promise<{ key_hash: string }> {
    const found = await this.store.find(params.key_hash);
    if (!found) throw KeysErrors.notFound(params.key_hash);
    const revision = await this.store.update({
      ...found,
      session: { ...found.session, meta_data: params.meta_data },
      updated_at: this.now(),
    });
    this.options.publish({ action: 'updated', key_hash: found.key_hash, revision });
    return { key_hash: found.key_hash };
  }

  /** A deleted key's quota goes with it: a key made again under the same name starts afresh. */
  async remove(params: KeysGetParams): Promise<{ key_hash: string }> {
    const found = await this.find(params);
    const revision = await this.store.delete(found.key_hash);
    this.options.publish({
      action: 'deleted',
      key_hash: found.key_hash,
      revision,
      reset_quotas: quotaCounters(found.key_hash, found.session),
    });
    return { key_hash: found.key_hash };
  }

  /** The session a key would have: checked as a creation is, policies applied; nothing is stored. */
  async preview(params: KeysPreviewParams): Promise<Session> {
    const orgId = this.orgFor(params.org_scope, params.session.org_id);
    const session = await this.validSession(params.session, orgId, params.org_scope, true);
    const policies = await this.policies.getMany(session.apply_policies ?? []);
    const { hmac_string: _secret, ...shown } = publicSession(applyPolicies(session, policies));
    return shown;
  }

  /**
   * Replaces the policies a key applies and nothing else; the policies must exist and belong to
   * the key's organisation (or to none).
   */
  async setPolicies(params: KeysSetPoliciesParams): Promise<{ key_hash: string }> {
    const found = await this.find(params);
    const policyIds = [...new Set(params.apply_policies)];
    for (const policy of await this.policies.getMany(policyIds)) {
      if (policy.org_id !== '' && found.org_id !== '' && policy.org_id !== found.org_id)
        throw KeysErrors.invalid(`policy ${policy.id} belongs to another organisation`);
    }
    const revision = await this.store.update({
      ...found,
      session: { ...found.session, apply_policies: policyIds },
      updated_at: this.now(),
    });
    this.options.publish({ action: 'updated', key_hash: found.key_hash, revision });
    return { key_hash: found.key_hash };
  }

  async list(params: KeysListParams): Promise<KeysListResult> {
    if (this.options.hashKeys && !this.options.listHashes) throw KeysErrors.listingDisabled();
    // Hashed keys are not named by what they begin with (the reference ignores the filter too).
    const prefix = this.options.hashKeys ? undefined : params.filter || undefined;
    const { keys, total } = await this.store.list(
      { apiId: params.api_id, orgScope: params.org_scope, prefix },
      pageWindow(params.page ?? 1, this.options.pageSize),
    );
    return {
      keys: keys.map((key) => (params.hashes ? key.key_hash : (key.key_id ?? key.key_hash))),
      pages: pageCount(total, this.options.pageSize),
    };
  }

  /** Every key of a deleted organisation; each is announced, so gateways drop it at once. */
  async removeOrganisation(orgId: string): Promise<number> {
    const hashes = await this.store.hashesOfOrganisation(orgId);
    for (const keyHash of hashes) {
      const revision = await this.store.delete(keyHash);
      this.options.publish({ action: 'deleted', key_hash: keyHash, revision });
    }
    return hashes.length;
  }

  /** The latest key/policy revision, for gateway nodes checking that they missed nothing. */
  async currentRevision(): Promise<{ revision: number }> {
    return { revision: await this.store.revision() };
  }

  /** For the auth service: the effective session (policies applied), or null for an unknown key. */
  async lookup(keyHash: string): Promise<KeysLookupResult | null> {
    const found = await this.store.find(keyHash);
    if (!found) return null;
    let session: Session;
    try {
      session = applyPolicies(found.session, await this.policies.getMany(found.session.apply_policies ?? []));
    } catch (err) {
      // A policy the key names has been deleted: the key must not keep the access it gave.
      // Anything else (the store failing) is not an answer about the key: the caller gets a 503.
      if (!isGwError(err, 'GW_ERR_KEYS_INVALID')) throw err;
      session = { ...found.session, is_inactive: true };
    }
    return {
      key_hash: keyHash,
      session: this.options.hmacSecrets.open(session),
      password_hash: found.kind === 'basic' ? found.password_hash : undefined,
    };
  }

  /**
   * The session of a client known by its verified token (a JWT): a blank session of the
   * organisation with the policies applied, or null when one of them is unknown or belongs to
   * another organisation (a token must not borrow another tenant's policy).
   */
  async policySession(orgId: string, policyIds: string[]): Promise<KeysPolicySessionResult | null> {
    const ids = [...new Set(policyIds)];
    let found: Policy[];
    try {
      found = await this.policies.getMany(ids);
    } catch (err) {
      if (isGwError(err, 'GW_ERR_KEYS_INVALID')) return null;
      throw err;
    }
    if (found.some((policy) => (policy.org_id ?? '') !== orgId)) return null;
    const blank: Session = { org_id: orgId, apply_policies: ids, rate: 0, per: 0, quota_max: -1, expires: 0 };
    return { session: applyPolicies(blank, found) };
  }

  /** How many keys name this API in their own access rights, and how many policies do. */
  async apiUsage(apiId: string): Promise<{ keys: number; policies: number }> {
    return { keys: await this.store.countForApi(apiId), policies: await this.policies.countForApi(apiId) };
  }

  private find(params: KeyLookup): Promise<StoredKey> {
    return findStoredKey(this.store, params, this.options);
  }

  private orgFor(scope: string | undefined, requested: string | undefined): string {
    if (scope === undefined) return requested ?? '';
    if (requested !== undefined && requested !== '' && requested !== scope) throw KeysErrors.wrongOrg(requested);
    return scope;
  }

  /** Checks access rights and policies, and fills the defaults of a new session. */
  private async validSession(
    input: Session,
    orgId: string,
    orgScope: string | undefined,
    creating: boolean,
  ): Promise<Session> {
    if (creating && (input.access_rights === undefined || input.access_rights === null)) {
      throw KeysErrors.invalid('access_rights is required when creating a key, even when apply_policies is set');
    }
    const accessRights: Record<string, AccessDefinition> = {};
    for (const [apiId, access] of Object.entries(input.access_rights ?? {})) {
      if (access.api_id !== undefined && access.api_id !== apiId)
        throw KeysErrors.invalid(`access_rights.${apiId}.api_id must be ${apiId}`);
      assertAllowedUrlsCompile(apiId, access);
      assertMcpAccessValid(apiId, access);
      const api = await this.options.findApi(apiId, orgScope);
      if (!api) throw KeysErrors.invalid(`access_rights names an API that does not exist: ${apiId}`);
      accessRights[apiId] = {
        ...access,
        api_id: apiId,
        api_name: access.api_name ?? api.name,
        versions: access.versions ?? [],
      };
    }
    let forcedExpiry: number | undefined;
    for (const policy of await this.policies.getMany(input.apply_policies ?? [])) {
      if (policy.org_id !== '' && orgId !== '' && policy.org_id !== orgId)
        throw KeysErrors.invalid(`policy ${policy.id} belongs to another organisation`);
      // A policy's key_expires_in dates a new key from its creation (the last such policy wins).
      if (creating && typeof policy.key_expires_in === 'number' && policy.key_expires_in > 0)
        forcedExpiry = Math.floor(this.now() / 1000) + policy.key_expires_in;
    }
    const rate = input.rate ?? 0;
    const session: Session = {
      allowance: rate,
      rate,
      per: 0,
      expires: 0,
      quota_max: -1,
      quota_renews: 0,
      quota_remaining: input.quota_max ?? -1,
      quota_renewal_rate: -1,
      throttle_interval: -1,
      throttle_retry_limit: -1,
      max_query_depth: -1,
      apply_policies: [],
      tags: [],
      meta_data: {},
      is_inactive: false,
      ...input,
      access_rights: accessRights,
      org_id: orgId,
    };
    if (forcedExpiry !== undefined) session.expires = forcedExpiry;
    return session;
  }
}

/** A session as the management APIs show it: the password is write-only. */
function publicSession(session: Session): Session {
  return session.basic_auth_data
    ? { ...session, basic_auth_data: { ...session.basic_auth_data, password: '' } }
    : session;
}
