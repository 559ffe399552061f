/**
 * Broadcast after an organisation is deleted. Each service removes what it holds for it:
 * users and user groups (users), API definitions (apis), keys and policies (keys).
 */
export const ORGS_DELETED = 'orgs.deleted';
export interface OrgsDeletedEvent {
  org_id: string;
}

/**
 * Validator rule of the payload: every handler removes records scoped by `org_id`, so a payload
 * without one must never reach a handler (an unscoped removal would wipe every organisation).
 */
export const orgsDeletedEventParams = { org_id: { type: 'string', empty: false } } as const;
