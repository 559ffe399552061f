import { sessionRule } from './actions';
import type { Session } from './session';

/**
 * Organisation sessions: one session object per organisation, keyed by its id, whose rate limit
 * and quota every key of the organisation shares and whose `is_inactive` cuts the whole
 * organisation off (docs/limits.md#organisation-quotas). The `keys` service stores them; gateway
 * nodes hold all of them in memory and follow `keys.orgSessions.changed`.
 */

/** The fields the gateway enforces; any other session field is kept as sent and shown back. */
export interface OrgSession extends Session {
  rate?: number;
  per?: number;
  quota_max?: number;
  quota_renewal_rate?: number;
  is_inactive?: boolean;
  last_updated?: string;
}

/** One organisation's session as the store holds it. */
export interface OrgSessionRecord {
  org_id: string;
  session: OrgSession;
  /**
   * Names the organisation's counters: `reset_quota` starts a new epoch, so every gateway node
   * counts afresh in new counters, whichever counter store (memory, shared memory, Redis) it uses.
   */
  quota_epoch: number;
}

const finite = { type: 'number', optional: true, finite: true };
const orgId = { type: 'string', empty: false, max: 64 };

/** A session as clients send it, with the limits the gateway reads checked as numbers. */
export const orgSessionRule = {
  ...sessionRule,
  props: {
    ...sessionRule.props,
    rate: { ...finite, min: 0 },
    per: { ...finite, min: 0 },
    quota_max: finite,
    quota_renewal_rate: finite,
    is_inactive: { type: 'boolean', optional: true },
  },
} as const;

export const orgSessionsActionParams = {
  get: { org_id: orgId },
  save: {
    org_id: orgId,
    session: orgSessionRule,
    reset_quota: { type: 'boolean', optional: true },
  },
  remove: { org_id: orgId },
  list: { filter: { type: 'string', optional: true, max: 64 } },
  snapshot: {},
  currentRevision: {},
} as const;

export interface OrgSessionsGetParams {
  org_id: string;
}
export interface OrgSessionsSaveParams {
  org_id: string;
  session: OrgSession;
  /** start the organisation's rate and quota counters afresh */
  reset_quota?: boolean;
}
export interface OrgSessionsListParams {
  /** only the ids that start with it (a trailing `*` is allowed, as the reference's `filter`) */
  filter?: string;
}
export interface OrgSessionsSnapshotResult {
  records: OrgSessionRecord[];
  revision: number;
}

/** The `keys.orgSessions.*` actions (see contracts/actions.ts). */
export interface OrgSessionsActions {
  'keys.orgSessions.get': { params: OrgSessionsGetParams; result: OrgSession };
  'keys.orgSessions.save': { params: OrgSessionsSaveParams; result: { org_id: string; created: boolean } };
  'keys.orgSessions.remove': { params: OrgSessionsGetParams; result: { org_id: string } };
  'keys.orgSessions.list': { params: OrgSessionsListParams; result: { keys: string[] } };
  'keys.orgSessions.snapshot': { params: Record<string, never>; result: OrgSessionsSnapshotResult };
  'keys.orgSessions.currentRevision': { params: Record<string, never>; result: { revision: number } };
}

/**
 * Broadcast after an organisation session is saved or removed (`record` null). `revision` is
 * the organisation sessions' own store revision, one more than the previous change's: a gateway
 * node that sees a gap loads the snapshot again.
 */
export const ORG_SESSIONS_CHANGED = 'keys.orgSessions.changed';
export interface OrgSessionsChangedEvent {
  org_id: string;
  record: OrgSessionRecord | null;
  revision: number;
}

/** Broadcast by a node running `keys` when the nodes it sees change: the current revision, for nodes that missed changes. */
export const ORG_SESSIONS_REVISION = 'keys.orgSessions.revision';
export interface OrgSessionsRevisionEvent {
  revision: number;
}
