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

/**
 * Broadcast after an organisation's policy rules, or the organisation itself, changed or was
 * deleted: dashboard nodes drop their compiled copy. `revision` is the organisations' settings
 * revision, one more than the previous change's; a node that sees a gap drops every copy.
 */
export const ORGS_SETTINGS_CHANGED = 'orgs.settings.changed';
export interface OrgsSettingsChangedEvent {
  org_id: string;
  revision: number;
}

/**
 * Broadcast by a node running `orgs` whenever the nodes or services it sees change: the current
 * settings revision, so a dashboard node that missed changes (it joined while one was broadcast)
 * drops its compiled rules.
 */
export const ORGS_SETTINGS_REVISION = 'orgs.settings.revision';
export interface OrgsSettingsRevisionEvent {
  revision: number;
}
