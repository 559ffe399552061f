/**
 * Broadcast after an organisation is deleted. Each service removes what it holds for it:
 * users and user groups (users), API definitions (apis), keys and policies (keys).
 */
export const ORGS_DELETED = 'orgs.deleted';
export interface OrgsDeletedEvent {
  org_id: string;
}
