import type { CounterStore, QuotaOutcome, WindowOutcome } from '../counter-store';
import { sentinelLogCap } from '../memory-store';
import { SMOOTHING_IDLE_MS } from '../smoothing';
import { LogArena, ringCapacityFor, type Ring } from './log-arena';
import {
  BUCKET,
  BUCKET_UPDATED_AT,
  BUCKET_WINDOW_MS,
  COUNT,
  ENDS_AT,
  LOG,
  LOG_WINDOW_MS,
  QUOTA,
  RING_AT,
  RING_CAPACITY,
  RING_HEAD,
  RING_LENGTH,
  SMOOTHING,
  WINDOW,
  hasRing,
} from './slot-kinds';
import { LAST_SWEEP_FLOAT, SLOT_FLOATS, SLOT_INTS, SharedStoreFull, SharedTable } from './shared-table';

/** What the worker threads of one host share: made once by the main thread, passed in workerData. */
export interface SharedCounterBuffers {
  table: SharedArrayBuffer;
  logs: SharedArrayBuffer;
}

/** share of the buffer given to the slots; the rest holds the logs' timestamps */
const TABLE_SHARE = 0.25;
/** a periodic sweep is skipped when another thread swept this recently */
const SWEEP_EVERY_MS = 60_000;
/** a full table is swept again for a new counter at most this often: a sweep stops every thread */
const FULL_SWEEP_EVERY_MS = 1_000;

/**
 * Buffers for about `bytes` of counters: a quarter for the slots (64 B each, 3/4 usable), the
 * rest for sliding-log timestamps. 64 MB holds about 196k counters and 6M timestamps.
 */
export function createSharedCounterBuffers(bytes: number, slotCount = slotsFor(bytes)): SharedCounterBuffers {
  const tableBytes = SharedTable.bytesFor(slotCount);
  const logBytes = Math.max(64, Math.floor((bytes - tableBytes) / 8) * 8);
  return { table: new SharedArrayBuffer(tableBytes), logs: new SharedArrayBuffer(logBytes) };
}

function slotsFor(bytes: number): number {
  let slots = 16;
  while (slots * 2 * 64 <= bytes * TABLE_SHARE) slots *= 2;
  return slots;
}

/**
 * The counters of every worker thread of a host, in shared memory: answers exactly as
 * `MemoryStore` does, and synchronously (a check holds one counter's lock for well under a
 * microsecond), so N workers allow what one node would. A counter that finds no room even after
 * a sweep throws `SharedStoreFull`, which the limiter answers as `store_unavailable`.
 */
export class SharedCounterStore implements CounterStore {
  private readonly table: SharedTable;
  private readonly arena: LogArena;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    buffers: SharedCounterBuffers,
    private readonly now: () => number = Date.now,
  ) {
    this.table = new SharedTable(buffers.table);
    this.arena = new LogArena(buffers.logs);
    this.sweeper = setInterval(() => this.sweepIfDue(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  slidingLog(counter: string, limit: number, windowMs: number, now: number, logBlocked: boolean): WindowOutcome {
    return this.withRoom(now, () =>
      this.withSlot(LOG, counter, (slot) => this.log(slot, limit, windowMs, now, logBlocked)),
    );
  }

  fixedWindow(counter: string, limit: number, windowMs: number, now: number): WindowOutcome {
    return this.withRoom(now, () =>
      this.withSlot(WINDOW, counter, (slot) => {
        const floats = this.table.floats;
        const at = slot * SLOT_FLOATS;
        if (this.table.claimed || floats[at + ENDS_AT] <= now) {
          floats[at + COUNT] = 0;
          floats[at + ENDS_AT] = now + windowMs;
        }
        const count = ++floats[at + COUNT];
        return { allowed: count <= limit, count, resetAt: floats[at + ENDS_AT] };
      }),
    );
  }

  quota(counter: string, max: number, renewalMs: number, now: number): QuotaOutcome {
    return this.withRoom(now, () =>
      this.withSlot(QUOTA, counter, (slot) => {
        const floats = this.table.floats;
        const at = slot * SLOT_FLOATS;
        const renewsAt = floats[at + ENDS_AT];
        if (this.table.claimed || (renewsAt > 0 && renewsAt <= now)) {
          floats[at + COUNT] = 0;
          floats[at + ENDS_AT] = renewalMs > 0 ? now + renewalMs : 0;
        }
        const used = floats[at + COUNT];
        if (used >= max) return { allowed: false, used, renewsAt: floats[at + ENDS_AT] };
        floats[at + COUNT] = used + 1;
        return { allowed: true, used: used + 1, renewsAt: floats[at + ENDS_AT] };
      }),
    );
  }

  async quotaState(counter: string, now: number): Promise<{ used: number; renewsAt: number }> {
    const table = this.table;
    table.enterShared();
    try {
      const slot = table.acquire(QUOTA, table.hashOf(counter), false);
      if (slot < 0) return { used: 0, renewsAt: 0 };
      try {
        const at = slot * SLOT_FLOATS;
        const used = table.floats[at + COUNT];
        const renewsAt = table.floats[at + ENDS_AT];
        return renewsAt > 0 && renewsAt <= now ? { used: 0, renewsAt: 0 } : { used, renewsAt };
      } finally {
        table.unlock(slot);
      }
    } finally {
      table.leaveShared();
    }
  }

  /** A renewal time in the past: the next request starts a new period at zero (quota() above). */
  resetQuota(counter: string): void {
    const table = this.table;
    table.enterShared();
    try {
      const slot = table.acquire(QUOTA, table.hashOf(counter), false);
      if (slot < 0) return;
      try {
        table.floats[slot * SLOT_FLOATS + COUNT] = 0;
        table.floats[slot * SLOT_FLOATS + ENDS_AT] = 1;
      } finally {
        table.unlock(slot);
      }
    } finally {
      table.leaveShared();
    }
  }

  /**
   * Runs `check` on the locked slot of (kind, counter), made when absent (`fresh`: its fields are
   * zero); when the table is full, sweeps and tries once more. For the host's token buckets and
   * smoother (shared-token-buckets.ts, shared-smoother.ts), which keep their state in this table.
   */
  update<T>(kind: number, counter: string, now: number, check: (slot: number, fresh: boolean) => T): T {
    return this.withRoom(now, () => this.withSlot(kind, counter, (slot) => check(slot, this.table.claimed)));
  }

  /** Inside `update` on a slot with a ring: logs a request at `now` and answers how many are in the window. */
  logRequest(slot: number, windowMs: number, now: number): number {
    return this.log(slot, Infinity, windowMs, now, false).count;
  }

  /** the table's float64 fields (slot × SLOT_FLOATS + field), to read and write inside `update` */
  get floats(): Float64Array {
    return this.table.floats;
  }

  /** how many counters are held, by every thread */
  get size(): number {
    return this.table.occupied;
  }

  /** float64 slots of the log arena in use (left-behind rings included until a sweep) */
  get logEntriesUsed(): number {
    return this.arena.used;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  /** Drops what no check can see any more (as `MemoryStore.sweep` does), and compacts the logs. */
  sweep(now = this.now()): void {
    const { table, arena } = this;
    table.exclusive(() => {
      table.headerFloats[LAST_SWEEP_FLOAT] = now;
      table.removeWhere((slot) => this.isGarbage(slot, now));
      const rings: Array<Ring & { slot: number }> = [];
      for (let slot = 0; slot < table.slotCount; slot++)
        if (hasRing(table.kindOf(slot)) && table.ints[slot * SLOT_INTS + RING_CAPACITY] > 0)
          rings.push({ slot, ...this.ringOf(slot) });
      arena.compact(rings);
      for (const ring of rings) this.storeRing(ring.slot, ring);
    });
  }

  private sweepIfDue(): void {
    const now = this.now();
    if (this.table.headerFloats[LAST_SWEEP_FLOAT] <= now - SWEEP_EVERY_MS / 2) this.sweep(now);
  }

  /** Runs `check`; when the table or arena is full, sweeps (unless a sweep just ran) and tries once more. */
  private withRoom<T>(now: number, check: () => T): T {
    try {
      return check();
    } catch (err) {
      if (!(err instanceof SharedStoreFull)) throw err;
      // Not atomic: two threads may both sweep, which is merely wasted work.
      if (this.table.headerFloats[LAST_SWEEP_FLOAT] > now - FULL_SWEEP_EVERY_MS) throw err;
      this.sweep(now);
      return check();
    }
  }

  private withSlot<T>(kind: number, counter: string, check: (slot: number) => T): T {
    const table = this.table;
    table.enterShared();
    try {
      const slot = table.acquire(kind, table.hashOf(counter), true);
      try {
        return check(slot);
      } finally {
        table.unlock(slot);
      }
    } finally {
      table.leaveShared();
    }
  }

  private log(slot: number, limit: number, windowMs: number, now: number, logBlocked: boolean): WindowOutcome {
    const entries = this.arena.entries;
    const ring = this.ringOf(slot);
    this.table.floats[slot * SLOT_FLOATS + LOG_WINDOW_MS] = windowMs;
    const cutoff = now - windowMs;
    // Entries are in arrival order: drop the expired ones from the oldest end.
    while (ring.length > 0 && entries[ring.at + ring.head] <= cutoff) dropOldest(ring);
    const allowed = ring.length < limit;
    if (allowed || logBlocked) {
      if (logBlocked) while (ring.length >= sentinelLogCap(limit)) dropOldest(ring);
      if (ring.length === ring.capacity) this.grow(ring);
      entries[ring.at + ((ring.head + ring.length) & (ring.capacity - 1))] = now;
      ring.length++;
    }
    this.storeRing(slot, ring);
    return { allowed, count: ring.length, resetAt: (ring.length > 0 ? entries[ring.at + ring.head] : now) + windowMs };
  }

  /** Moves the ring into one twice as large; throws SharedStoreFull (ring unchanged) when there is no room. */
  private grow(ring: Ring): void {
    const capacity = ringCapacityFor(ring.capacity * 2);
    const at = this.arena.allocate(capacity);
    if (at < 0) throw new SharedStoreFull('log arena');
    const entries = this.arena.entries;
    for (let i = 0; i < ring.length; i++) entries[at + i] = entries[ring.at + ((ring.head + i) & (ring.capacity - 1))];
    ring.at = at;
    ring.capacity = capacity;
    ring.head = 0;
  }

  private ringOf(slot: number): Ring {
    const ints = this.table.ints;
    const base = slot * SLOT_INTS;
    return {
      at: ints[base + RING_AT],
      capacity: ints[base + RING_CAPACITY],
      head: ints[base + RING_HEAD],
      length: ints[base + RING_LENGTH],
    };
  }

  private storeRing(slot: number, ring: Ring): void {
    const ints = this.table.ints;
    const base = slot * SLOT_INTS;
    ints[base + RING_AT] = ring.at;
    ints[base + RING_CAPACITY] = ring.capacity;
    ints[base + RING_HEAD] = ring.head;
    ints[base + RING_LENGTH] = ring.length;
  }

  /** the same rules as `MemoryStore.sweep` (and the in-memory buckets' and smoother's): state that would start afresh the same way */
  private isGarbage(slot: number, now: number): boolean {
    const floats = this.table.floats;
    const at = slot * SLOT_FLOATS;
    switch (this.table.kindOf(slot)) {
      case WINDOW:
        return floats[at + ENDS_AT] <= now;
      case QUOTA:
        return floats[at + ENDS_AT] > 0 && floats[at + ENDS_AT] <= now;
      case BUCKET:
        // Refilled to capacity: a new bucket starts full.
        return now - floats[at + BUCKET_UPDATED_AT] >= floats[at + BUCKET_WINDOW_MS];
      case SMOOTHING:
        return now - this.newestEntry(slot) > Math.max(SMOOTHING_IDLE_MS, floats[at + LOG_WINDOW_MS]);
      default:
        return this.newestEntry(slot) <= now - floats[at + LOG_WINDOW_MS];
    }
  }

  /** the newest timestamp of a slot's ring; -Infinity when it is empty */
  private newestEntry(slot: number): number {
    const ring = this.ringOf(slot);
    if (ring.length === 0) return -Infinity;
    return this.arena.entries[ring.at + ((ring.head + ring.length - 1) & (ring.capacity - 1))];
  }
}

function dropOldest(ring: Ring): void {
  ring.head = (ring.head + 1) & (ring.capacity - 1);
  ring.length--;
}
