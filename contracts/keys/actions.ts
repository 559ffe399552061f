import type { Policy, Session } from './session';

/**
 * `keys.*` and `policies.*` actions. `org_scope` limits an action to one organisation (the
 * dashboard passes the caller's); without it the action sees every organisation (the gateway
 * management API, guarded by the gateway secret).
 */

const optionalNumber = { type: 'number', optional: true };
/** A limit: finite, and not below `min` (-1 = unlimited where the field allows it). */
const limit = (min: number) => ({ type: 'number', optional: true, finite: true, min });

/** An access right's own limits (`access_rights[api].limit`): numbers where the gateway reads numbers. */
const accessLimitRule = {
  type: 'object',
  optional: true,
  nullable: true,
  props: {
    rate: limit(0),
    per: limit(0),
    quota_max: limit(-1),
    quota_renewal_rate: optionalNumber,
    throttle_interval: optionalNumber,
    throttle_retry_limit: optionalNumber,
    max_query_depth: optionalNumber,
  },
};

const accessRule = {
  type: 'object',
  props: {
    api_id: { type: 'string', optional: true },
    api_name: { type: 'string', optional: true },
    versions: { type: 'array', items: 'string', optional: true },
    allowed_urls: {
      type: 'array',
      optional: true,
      items: {
        type: 'object',
        props: { url: { type: 'string', empty: false }, methods: { type: 'array', items: 'string', optional: true } },
      },
    },
    limit: accessLimitRule,
  },
};

/** Validator rule of a session object as clients send it (fastest-validator syntax). */
export const sessionRule = {
  type: 'object',
  props: {
    rate: optionalNumber,
    per: optionalNumber,
    allowance: optionalNumber,
    expires: optionalNumber,
    quota_max: optionalNumber,
    quota_renews: optionalNumber,
    quota_remaining: optionalNumber,
    quota_renewal_rate: optionalNumber,
    throttle_interval: optionalNumber,
    throttle_retry_limit: optionalNumber,
    max_query_depth: optionalNumber,
    access_rights: { type: 'record', optional: true, key: { type: 'string', empty: false }, value: accessRule },
    apply_policies: { type: 'array', items: 'string', optional: true },
    org_id: { type: 'string', optional: true },
    basic_auth_data: { type: 'object', optional: true, props: { password: { type: 'string', optional: true } } },
    is_inactive: { type: 'boolean', optional: true },
    tags: { type: 'array', items: 'string', optional: true },
    meta_data: { type: 'object', optional: true },
    alias: { type: 'string', optional: true },
    certificate: { type: 'string', optional: true, max: 200 },
    rsa_certificate_id: { type: 'string', optional: true, max: 200 },
    enable_http_signature_validation: { type: 'boolean', optional: true },
    // JWT one-to-one mode: the HMAC secret or PEM public key that verifies the key's tokens
    jwt_data: { type: 'object', optional: true, props: { secret: { type: 'string', optional: true, max: 16384 } } },
  },
} as const;

const optionalBoolean = { type: 'boolean', optional: true };

/** Validator rule of a policy object. */
export const policyRule = {
  type: 'object',
  props: {
    id: {
      type: 'string',
      optional: true,
      pattern: /^[A-Za-z0-9._-]{1,64}$/,
      messages: { stringPattern: "The '{field}' field may only hold letters, digits, '.', '_' and '-' (at most 64)." },
    },
    name: { type: 'string', empty: false, trim: true },
    org_id: { type: 'string', optional: true, max: 64 },
    rate: limit(0),
    per: limit(0),
    quota_max: limit(-1),
    is_inactive: optionalBoolean,
    hmac_enabled: optionalBoolean,
    enable_http_signature_validation: optionalBoolean,
    partitions: { type: 'object', optional: true },
    meta_data: { type: 'object', optional: true },
    // The reference gateway accepts `expires: -1` on a policy; any number is kept as sent.
    expires: optionalNumber,
    quota_renewal_rate: optionalNumber,
    throttle_interval: optionalNumber,
    throttle_retry_limit: optionalNumber,
    max_query_depth: optionalNumber,
    key_expires_in: optionalNumber,
    access_rights: { type: 'record', optional: true, key: { type: 'string', empty: false }, value: accessRule },
    active: { type: 'boolean', optional: true },
    tags: { type: 'array', items: 'string', optional: true },
  },
} as const;

const keyParam = { type: 'string', empty: false };
const scope = { type: 'string', optional: true };

export const keysActionParams = {
  create: {
    session: sessionRule,
    custom_key: { type: 'string', optional: true, empty: false },
    custom_key_hash: { type: 'string', optional: true, pattern: /^[0-9a-f]{64}$/ },
    org_scope: scope,
  },
  saveBasicUser: {
    username: keyParam,
    session: sessionRule,
    mode: { type: 'enum', values: ['create', 'update'] },
    org_scope: scope,
  },
  get: {
    key: keyParam,
    org_scope: scope,
    api_id: scope,
    hashed: { type: 'boolean', optional: true },
    effective: { type: 'boolean', optional: true },
  },
  update: {
    key: keyParam,
    session: sessionRule,
    org_scope: scope,
    api_id: scope,
    hashed: { type: 'boolean', optional: true },
    reset_quota: { type: 'boolean', optional: true },
  },
  remove: { key: keyParam, org_scope: scope, api_id: scope, hashed: { type: 'boolean', optional: true } },
  preview: { session: sessionRule, org_scope: scope },
  setPolicies: {
    key: keyParam,
    apply_policies: { type: 'array', items: keyParam, max: 100 },
    hashed: { type: 'boolean', optional: true },
  },
  list: {
    api_id: { type: 'string', optional: true },
    filter: { type: 'string', optional: true, max: 255 },
    org_scope: scope,
    page: { type: 'number', integer: true, optional: true },
    hashes: { type: 'boolean', optional: true },
  },
  lookup: { key_hash: keyParam },
  policySession: {
    org_id: { type: 'string' },
    policy_ids: { type: 'array', items: keyParam, min: 1, max: 100 },
  },
  updateMeta: { key_hash: keyParam, meta_data: { type: 'object' } },
  apiUsage: { api_id: keyParam },
  currentRevision: {},
};

export const policiesActionParams = {
  create: { policy: policyRule, org_scope: scope },
  get: { id: keyParam, org_scope: scope },
  update: { id: keyParam, policy: policyRule, org_scope: scope },
  remove: { id: keyParam, org_scope: scope },
  list: { org_scope: scope, page: { type: 'number', integer: true, optional: true } },
};

export interface KeysCreateParams {
  session: Session;
  /** the key the client will send; generated when absent */
  custom_key?: string;
  /**
   * an existing key imported by its hash (SHA-256, hex) rather than by the key itself: the
   * gateway never learns the key, and the answer carries no key
   */
  custom_key_hash?: string;
  org_scope?: string;
}
export interface KeysSaveBasicUserParams {
  username: string;
  session: Session;
  mode: 'create' | 'update';
  org_scope?: string;
}
export interface KeysGetParams {
  /** the key, its hash, or a basic-auth username */
  key: string;
  org_scope?: string;
  /** an API whose organisation the key is looked up in (the gateway API's `?api_id=`) */
  api_id?: string;
  /**
   * `key` is the key as stored: its hash when keys are hashed (the gateway API's `?hashed=true`).
   * Reading by hash needs hashed keys.
   */
  hashed?: boolean;
}
/** `keys.get`: a lookup, and whether to show the session its policies make (the gateway API's view). */
export interface KeysReadParams extends KeysGetParams {
  /** the session with its policies applied, as the gateway enforces it, live quota included */
  effective?: boolean;
}
export interface KeysUpdateParams extends KeysGetParams {
  session: Session;
  /** the key's quota starts afresh (the gateway API's default; `suppress_reset=1` keeps it) */
  reset_quota?: boolean;
}
/** `keys.preview`: the session a key would have, checked and with its policies applied; nothing is stored. */
export interface KeysPreviewParams {
  session: Session;
  org_scope?: string;
}
/** `keys.setPolicies`: replaces the policies a key applies, nothing else (the reference's /keys/policy). */
export interface KeysSetPoliciesParams {
  /** the key or its hash */
  key: string;
  apply_policies: string[];
  /** `key` is the key as stored (its hash when keys are hashed) */
  hashed?: boolean;
}
export type KeysRemoveParams = KeysGetParams;
export interface KeysListParams {
  api_id?: string;
  /** keys that begin with this (organisation ids begin generated keys); not applied to hashed keys */
  filter?: string;
  org_scope?: string;
  page?: number;
  /** list key hashes even where keys are stored in the clear (the dashboard GraphQL API) */
  hashes?: boolean;
}

/** A key as the management APIs return it. The key itself is only in the creation result. */
export interface KeyRecord {
  key_id: string;
  key_hash: string;
  data: Session;
}
export interface KeysListResult {
  keys: string[];
  pages: number;
}

/** `keys.apiUsage`: how many keys (own access rights) and policies grant access to an API. */
export interface KeysApiUsageParams {
  api_id: string;
}
export interface KeysApiUsageResult {
  keys: number;
  policies: number;
}

/** `keys.lookup` (for the auth service): the effective session, policies applied. */
export interface KeysLookupResult {
  key_hash: string;
  session: Session;
  /** basic-auth users: the stored password hash, never sent over HTTP */
  password_hash?: string;
}

/**
 * `keys.policySession` (for the auth service): the session a set of policies gives, for a client
 * the gateway knows by a token it verified itself (a JWT) rather than by a stored key. Null when a
 * policy does not exist or belongs to another organisation: such a token gets no access.
 */
export interface KeysPolicySessionParams {
  org_id: string;
  policy_ids: string[];
}
export interface KeysPolicySessionResult {
  session: Session;
}

/** `keys.currentRevision`: the latest key/policy revision of the store, a cheap check. */
export interface KeysRevisionResult {
  revision: number;
}

export interface PoliciesCreateParams {
  policy: Partial<Policy>;
  org_scope?: string;
}
export interface PoliciesGetParams {
  id: string;
  org_scope?: string;
}
export interface PoliciesUpdateParams extends PoliciesGetParams {
  policy: Partial<Policy>;
}
export interface PoliciesListResult {
  policies: Policy[];
  pages: number;
}

/** `keys.remove`: the hash of the key that was deleted. */
export interface KeysRemoveResult {
  key_hash: string;
}
/** `keys.updateMeta` (for the gateway): replaces only a key's `meta_data`, by its hash. */
export interface KeysUpdateMetaParams {
  key_hash: string;
  meta_data: Record<string, unknown>;
}
export interface KeysLookupParams {
  key_hash: string;
}
export interface PoliciesListParams {
  org_scope?: string;
  /** page number; 0 or lower = all */
  page?: number;
}
export type PoliciesRemoveParams = PoliciesGetParams;

/** The `keys.*` actions, policies included: params and result of each (see contracts/actions.ts). */
export interface KeysActions {
  'keys.create': { params: KeysCreateParams; result: KeyRecord };
  'keys.saveBasicUser': { params: KeysSaveBasicUserParams; result: KeyRecord };
  'keys.get': { params: KeysReadParams; result: KeyRecord };
  'keys.update': { params: KeysUpdateParams; result: KeyRecord };
  'keys.remove': { params: KeysRemoveParams; result: KeysRemoveResult };
  'keys.list': { params: KeysListParams; result: KeysListResult };
  'keys.preview': { params: KeysPreviewParams; result: Session };
  'keys.setPolicies': { params: KeysSetPoliciesParams; result: { key_hash: string } };
  'keys.lookup': { params: KeysLookupParams; result: KeysLookupResult | null };
  'keys.policySession': { params: KeysPolicySessionParams; result: KeysPolicySessionResult | null };
  'keys.updateMeta': { params: KeysUpdateMetaParams; result: { key_hash: string } };
  'keys.apiUsage': { params: KeysApiUsageParams; result: KeysApiUsageResult };
  'keys.currentRevision': { params: Record<string, never>; result: KeysRevisionResult };
  'keys.policies.create': { params: PoliciesCreateParams; result: Policy };
  'keys.policies.get': { params: PoliciesGetParams; result: Policy };
  'keys.policies.update': { params: PoliciesUpdateParams; result: Policy };
  'keys.policies.remove': { params: PoliciesRemoveParams; result: { id: string } };
  'keys.policies.list': { params: PoliciesListParams; result: PoliciesListResult };
}
