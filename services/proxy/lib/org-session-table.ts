import type {
  OrgSessionRecord,
  OrgSessionsChangedEvent,
  OrgSessionsSnapshotResult,
} from '../../../contracts/keys/org-sessions';
import type { OrgSessionLookup } from '../pipeline/steps/org-limits';

export interface OrgSessionTableSource {
  snapshot(): Promise<OrgSessionsSnapshotResult>;
  currentRevision(): Promise<number>;
  logger: { info(message: string): void; warn(message: string): void };
}

/**
 * Every organisation session, in the memory of a gateway node, so the organisation monitor asks
 * nothing over the bus per request. It follows `keys.orgSessions.changed`: a change that follows
 * on (last + 1) is applied; an older one is ignored; a gap, or an announced or checked revision
 * that differs, loads the snapshot again (changes that arrive meanwhile are replayed after it).
 * Only administrators write organisation sessions, one per organisation: the table holds at most
 * as many entries as there are organisations with one.
 */
export class OrgSessionTable implements OrgSessionLookup {
  /** the store revision the table reflects; undefined before the first load */
  revision: number | undefined;
  private sessions = new Map<string, OrgSessionRecord>();
  /** changes that arrived while a snapshot was loading */
  private pending: OrgSessionsChangedEvent[] | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly source: OrgSessionTableSource) {}

  get(orgId: string): OrgSessionRecord | undefined {
    return this.sessions.get(orgId);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** A `keys.orgSessions.changed` broadcast. */
  onChange(change: OrgSessionsChangedEvent): void {
    if (!change || typeof change.org_id !== 'string' || typeof change.revision !== 'number') return;
    if (this.pending) {
      this.pending.push(change);
      return;
    }
    if (this.revision !== undefined && change.revision <= this.revision) return;
    // Newer than anything this node knows either way, so enforce it at once.
    this.apply(change);
    if (this.revision !== undefined && change.revision === this.revision + 1) this.revision = change.revision;
    else void this.load();
  }

  /** A store node announced its revision (`keys.orgSessions.revision`). */
  onAnnounced(revision: number): void {
    if (revision !== this.revision) void this.load();
  }

  /** Asks the store for its revision (cheap) and loads the snapshot when it differs. */
  async check(): Promise<void> {
    if (this.pending) return;
    try {
      if ((await this.source.currentRevision()) !== this.revision) await this.load();
    } catch (err) {
      this.source.logger.warn(`could not check the organisation sessions' revision: ${(err as Error).message}`);
    }
  }

  /** Loads the snapshot; a call while one loads makes one more load after it. */
  load(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loadOnce().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.load();
      }
    });
    return this.running;
  }

  stop(): void {
    this.stopped = true;
  }

  private async loadOnce(): Promise<void> {
    if (this.stopped) return;
    this.pending = [];
    try {
      const snapshot = await this.source.snapshot();
      this.sessions = new Map(snapshot.records.map((record) => [record.org_id, record]));
      this.revision = snapshot.revision;
      const arrived = [...this.pending].sort((a, b) => a.revision - b.revision);
      for (const change of arrived) {
        if (change.revision <= this.revision) continue;
        this.apply(change);
        if (change.revision === this.revision + 1) this.revision = change.revision;
        else this.again = true;
      }
      this.source.logger.info(
        `loaded ${this.sessions.size} organisation sessions from the store (revision ${this.revision})`,
      );
    } catch (err) {
      this.source.logger.warn(`could not load organisation sessions from the store: ${(err as Error).message}`);
    } finally {
      this.pending = undefined;
    }
  }

  private apply(change: OrgSessionsChangedEvent): void {
    if (change.record) this.sessions.set(change.org_id, change.record);
    else this.sessions.delete(change.org_id);
  }
}
