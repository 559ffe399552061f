/** Broadcast after a key is created, changed or deleted: gateway nodes drop their cached copy. */
export const KEYS_CHANGED = 'keys.changed';
export interface KeysChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  key_hash: string;
}

/** Broadcast after a policy changes: every session that applies it must be recomputed. */
export const POLICIES_CHANGED = 'policies.changed';
export interface PoliciesChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  policy_id: string;
}
