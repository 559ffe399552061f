/**
 * Broadcast after a key is created, changed or deleted: gateway nodes drop their cached copy.
 * Keys and policies share one store revision (`revision`), one more than the previous change's.
 */
export const KEYS_CHANGED = 'keys.changed';
export interface KeysChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  key_hash: string;
  revision: number;
  /** quota counters (contracts/limiter quotaCounter) that start afresh: limiters forget them */
  reset_quotas?: string[];
}

/** Broadcast after a policy changes: every session that applies it must be recomputed. */
export const POLICIES_CHANGED = 'policies.changed';
export interface PoliciesChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  policy_id: string;
  revision: number;
}

/**
 * Broadcast by a node running `keys` whenever the nodes or services it sees change: the current
 * key/policy revision, so a gateway node that missed changes drops its cached sessions.
 */
export const KEYS_REVISION = 'keys.revision';
export interface KeysRevisionEvent {
  revision: number;
}
