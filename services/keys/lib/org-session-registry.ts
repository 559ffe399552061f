import type {
  OrgSession,
  OrgSessionRecord,
  OrgSessionsChangedEvent,
  OrgSessionsSaveParams,
  OrgSessionsSnapshotResult,
} from '../../../contracts/keys/org-sessions';
import { KeysErrors } from '../errors';
import type { OrgSessionStore } from './org-session-store';

/** How large one organisation session may be, as stored JSON: it sits in every gateway node's memory. */
export const MAX_ORG_SESSION_CHARS = 64 * 1024;

export interface OrgSessionRegistryOptions {
  publish(event: OrgSessionsChangedEvent): void;
  /** the live quota of an organisation's counter from the limiter, when one runs */
  quotaState?(
    record: OrgSessionRecord,
    max: number,
    renewalRate: number,
  ): Promise<{ quota_remaining: number; quota_renews: number } | undefined>;
  now?: () => number;
}

/**
 * The rules around organisation sessions: what is stored (the session as sent, with
 * `last_updated`; the live quota is read, never stored), the `keys.orgSessions.changed`
 * broadcast after every write, and the live quota in what is shown.
 */
export class OrgSessionRegistry {
  private readonly now: () => number;

  constructor(
    private readonly store: OrgSessionStore,
    private readonly options: OrgSessionRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async get(orgId: string): Promise<OrgSession> {
    const record = await this.store.find(orgId);
    if (!record) throw KeysErrors.orgSessionNotFound(orgId);
    const max = record.session.quota_max;
    if (!this.options.quotaState || typeof max !== 'number' || max <= 0) return record.session;
    const live = await this.options
      .quotaState(record, max, record.session.quota_renewal_rate ?? -1)
      .catch(() => undefined);
    return live ? { ...record.session, ...live } : record.session;
  }

  async save(params: OrgSessionsSaveParams): Promise<{ org_id: string; created: boolean }> {
    const now = this.now();
    // What the counters say is not part of the session: a client's copy would go stale at once.
    const { quota_remaining: _remaining, quota_renews: _renews, ...sent } = params.session;
    const session: OrgSession = { ...sent, last_updated: String(Math.floor(now / 1000)) };
    if (JSON.stringify(session).length > MAX_ORG_SESSION_CHARS)
      throw KeysErrors.invalid(`An organisation session may hold at most ${MAX_ORG_SESSION_CHARS} characters of JSON`);
    const { record, created, revision } = await this.store.save(
      params.org_id,
      session,
      params.reset_quota === true,
      now,
    );
    this.options.publish({ org_id: params.org_id, record, revision });
    return { org_id: params.org_id, created };
  }

  async remove(orgId: string): Promise<{ org_id: string }> {
    const revision = await this.store.remove(orgId);
    if (revision === undefined) throw KeysErrors.orgSessionNotFound(orgId);
    this.options.publish({ org_id: orgId, record: null, revision });
    return { org_id: orgId };
  }

  /** An organisation was deleted: its session goes with it (none is not an error). */
  async removeOrganisation(orgId: string): Promise<boolean> {
    const revision = await this.store.remove(orgId);
    if (revision === undefined) return false;
    this.options.publish({ org_id: orgId, record: null, revision });
    return true;
  }

  /** The organisation ids with a session; `filter` is a prefix, with or without a trailing `*`. */
  async list(filter: string | undefined): Promise<{ keys: string[] }> {
    return { keys: await this.store.orgIds((filter ?? '').replace(/\*$/, '')) };
  }

  snapshot(): Promise<OrgSessionsSnapshotResult> {
    return this.store.snapshot();
  }

  async currentRevision(): Promise<{ revision: number }> {
    return { revision: await this.store.revision() };
  }
}
