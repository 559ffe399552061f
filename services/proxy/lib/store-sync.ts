import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApisSnapshotResult } from '../../../contracts/apis/actions';
import type { ApisChangedEvent } from '../../../contracts/apis/events';
import type { DefinitionChange } from './definition-registry';

/** What a gateway node's sync works on: the store (through actions) and its own registry. */
export interface StoreSyncTarget {
  snapshot(): Promise<ApisSnapshotResult>;
  currentRevision(): Promise<number>;
  replaceStore(definitions: ApiDefinition[]): void;
  apply(change: DefinitionChange): void;
  /** the registry changed: rebuild the routing table */
  changed(): void;
  logger: { info(message: string): void; warn(message: string): void };
  now?(): number;
}

/** A write this node made through /gw, applied before its broadcast arrives. */
export type LocalChange = DefinitionChange;

/**
 * Keeps a gateway node's store definitions convergent with the store. Every change carries the
 * store revision; a change that follows on (last + 1) is applied, an older one ignored, and a
 * gap (or an announced/checked revision that differs) starts a sync: snapshot, then replay of
 * what arrived meanwhile. Syncs are serialised: one runs, and any number of requests made while
 * it runs share one more run after it, so every caller sees a sync that started after its call.
 */
export class StoreSync {
  /** the store revision the registry reflects; undefined before the first sync */
  revision: number | undefined;
  syncedAt: number | undefined;
  private pending: ApisChangedEvent[] | undefined;
  private pendingLocal: LocalChange[] = [];
  private announcedDuringSync: number | undefined;
  private queued: Promise<void> | undefined;
  private tail: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly target: StoreSyncTarget) {}

  /** An `apis.changed` broadcast. */
  onChange(change: ApisChangedEvent): void {
    if (!change || typeof change !== 'object') return; // a bus message of the wrong shape
    if (this.pending) {
      this.pending.push(change);
      return;
    }
    const revision = change.revision;
    if (this.revision !== undefined && typeof revision === 'number' && revision <= this.revision) return;
    // Newer than anything this node knows either way, so serve it at once.
    this.target.apply(change);
    this.target.changed();
    if (this.revision !== undefined && revision === this.revision + 1) this.revision = revision;
    else void this.sync();
  }

  /** A store node announced its revision (`apis.revision`), e.g. after it saw this node (re)appear. */
  onAnnounced(revision: number): void {
    if (this.pending) this.announcedDuringSync = revision;
    else if (revision !== this.revision) void this.sync();
  }

  /** Asks the store for its revision (cheap) and syncs when it differs. */
  async check(): Promise<void> {
    if (this.pending) return;
    try {
      if ((await this.target.currentRevision()) !== this.revision) await this.sync();
    } catch (err) {
      this.target.logger.warn(`could not check the API revision of the store: ${(err as Error).message}`);
    }
  }

  /** A write this node made: served now, confirmed by a sync that starts after it. */
  applyLocal(change: LocalChange): Promise<void> {
    this.target.apply(change);
    this.target.changed();
    if (this.pending) this.pendingLocal.push(change);
    return this.sync();
  }

  /** Snapshot and replay, after any sync already running; concurrent requests share one run. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.tail.then(() => {
      this.queued = undefined;
      return this.runOnce();
    });
    this.queued = run;
    this.tail = run.catch(() => undefined);
    return run;
  }

  stop(): void {
    this.stopped = true;
  }

  private async runOnce(): Promise<void> {
    if (this.stopped) return;
    this.pending = [];
    this.announcedDuringSync = undefined;
    let again = false;
    try {
      const snapshot = await this.target.snapshot();
      if (this.stopped) return;
      this.target.replaceStore(snapshot.apis);
      this.revision = snapshot.revision;
      again = this.replay(this.pending);
      for (const change of this.pendingLocal) this.target.apply(change);
      const announced = this.announcedDuringSync;
      if (announced !== undefined && announced > this.revision) again = true;
      this.syncedAt = (this.target.now ?? Date.now)();
      this.target.changed();
      this.target.logger.info(
        `loaded ${snapshot.apis.length} API definitions from the store (revision ${snapshot.revision})`,
      );
    } catch (err) {
      this.target.logger.warn(`could not load API definitions from the store: ${(err as Error).message}`);
    } finally {
      this.pending = undefined;
      this.pendingLocal = [];
    }
    if (again) void this.sync();
  }

  /** Applies the changes newer than the snapshot; true when some are missing in between. */
  private replay(changes: ApisChangedEvent[]): boolean {
    let gap = false;
    for (const change of [...changes].sort((a, b) => a.revision - b.revision)) {
      if (typeof change.revision !== 'number' || change.revision <= this.revision!) continue;
      this.target.apply(change);
      if (change.revision === this.revision! + 1 && !gap) this.revision = change.revision;
      else gap = true;
    }
    return gap;
  }
}
