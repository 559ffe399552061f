import { createHash } from 'node:crypto';
/**
 * An open-addressing hash table in a SharedArrayBuffer, read and written by every worker thread
 * of a host. A slot is one 64-byte cache line, so two counters' locks never share a line:
 *
 *   int32 0 lock (0 free, 1 held, 2 held with sleepers)   int32 1 kind (0 = empty)
 *   int32 2..4 the counter's 96-bit hash                  bytes 20..63 the kind's (slot-kinds.ts):
 *   int32 5..11 and float64 3..7 overlap there, e.g. a log ring in int32 5..8, times in float64 5..7
 *
 * A check holds the table's gate shared and one slot's lock; a sweep holds the gate exclusive,
 * since removing a slot moves others (linear probing keeps no tombstones). Slots only go from
 * empty to claimed under a shared gate, so two threads that add one counter at once find the
 * same slot: the first empty slot of its probe run, claimed under that slot's lock.
 */

export const SLOT_BYTES = 64;
export const SLOT_INTS = SLOT_BYTES / 4;
export const SLOT_FLOATS = SLOT_BYTES / 8;
/** the table buffer starts with one line of shared bookkeeping */
export const HEADER_BYTES = 64;

const LOCK = 0;
const KIND = 1;
const HASH = 2;
/** first int32 a kind may use (up to SLOT_INTS - 4; the floats start at int32 12) */
export const KIND_INTS = 5;
/** first float64 a kind may use (two of them) */
export const KIND_FLOATS = 6;

// Header words.
const GATE = 0;
const OCCUPIED = 1;
/** float64 index in the header: when the last sweep ran, so threads do not all sweep at once */
export const LAST_SWEEP_FLOAT = 4;

const WRITER = 1 << 30;
/** spins before sleeping on a held lock: a check holds it for well under a microsecond */
const SPINS = 64;
/** at most this share of slots is used, which keeps probe runs short */
const MAX_LOAD = 0.75;

/** The table (or its log arena) has no room, even after a sweep: the check must fail, not pass. */
export class SharedStoreFull extends Error {
  constructor(what: string) {
    super(`the limiter's shared ${what} is full`);
    this.name = 'SharedStoreFull';
  }
}

export type Hash96 = Int32Array;

export class SharedTable {
  readonly ints: Int32Array;
  readonly floats: Float64Array;
  readonly slotCount: number;
  private readonly mask: number;
  private readonly maxOccupied: number;
  private readonly header: Int32Array;
  readonly headerFloats: Float64Array;
  /** hashes of the counters seen lately: most checks repeat a few thousand counters */
  private readonly hashes = new Map<string, Hash96>();
  /** set by `acquire`: whether the slot was claimed just now (its fields are zero) */
  claimed = false;

  constructor(buffer: SharedArrayBuffer) {
    this.slotCount = (buffer.byteLength - HEADER_BYTES) / SLOT_BYTES;
    if (!Number.isInteger(this.slotCount) || (this.slotCount & (this.slotCount - 1)) !== 0 || this.slotCount < 2)
      throw new Error('shared table: the slots must be a power of two');
    this.mask = this.slotCount - 1;
    this.maxOccupied = Math.floor(this.slotCount * MAX_LOAD);
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.headerFloats = new Float64Array(buffer, 0, HEADER_BYTES / 8);
    this.ints = new Int32Array(buffer, HEADER_BYTES);
    this.floats = new Float64Array(buffer, HEADER_BYTES);
  }

  static bytesFor(slotCount: number): number {
    return HEADER_BYTES + slotCount * SLOT_BYTES;
  }

  get occupied(): number {
    return Atomics.load(this.header, OCCUPIED);
  }

  hashOf(counter: string): Hash96 {
    let hash = this.hashes.get(counter);
    if (hash) return hash;
    // A plain bound: a flood of distinct counters costs rehashing, never memory.
    if (this.hashes.size >= 50_000) this.hashes.clear();
    hash = hash96(counter);
    this.hashes.set(counter, hash);
    return hash;
  }

  /**
   * The slot of (kind, hash), locked; -1 when absent and `create` is false. Call under `enterShared`.
   * Throws SharedStoreFull when a new slot would exceed the load bound.
   */
  acquire(kind: number, hash: Hash96, create: boolean): number {
    const ints = this.ints;
    this.claimed = false;
    let slot = hash[0] & this.mask;
    for (let probes = 0; probes <= this.slotCount;) {
      const base = slot * SLOT_INTS;
      const found = Atomics.load(ints, base + KIND);
      if (found === 0) {
        if (!create) return -1;
        this.lock(slot);
        if (Atomics.load(ints, base + KIND) !== 0) {
          // Claimed while we waited, maybe for this very counter: look at it again.
          this.unlock(slot);
          continue;
        }
        if (Atomics.add(this.header, OCCUPIED, 1) >= this.maxOccupied) {
          Atomics.sub(this.header, OCCUPIED, 1);
          this.unlock(slot);
          throw new SharedStoreFull('counter table');
        }
        ints.fill(0, base + HASH + 3, base + SLOT_INTS);
        ints[base + HASH] = hash[0];
        ints[base + HASH + 1] = hash[1];
        ints[base + HASH + 2] = hash[2];
        // Published last: a thread that reads the kind also sees the hash (sequentially consistent).
        Atomics.store(ints, base + KIND, kind);
        this.claimed = true;
        return slot;
      }
      // The hash and kind of a claimed slot do not change under a shared gate.
      if (
        found === kind &&
        ints[base + HASH] === hash[0] &&
        ints[base + HASH + 1] === hash[1] &&
        ints[base + HASH + 2] === hash[2]
      ) {
        this.lock(slot);
        return slot;
      }
      slot = (slot + 1) & this.mask;
      probes++;
    }
    throw new SharedStoreFull('counter table');
  }

  kindOf(slot: number): number {
    return this.ints[slot * SLOT_INTS + KIND];
  }

  lock(slot: number): void {
    const at = slot * SLOT_INTS + LOCK;
    const ints = this.ints;
    if (Atomics.compareExchange(ints, at, 0, 1) === 0) return;
    for (let spin = 0; spin < SPINS; spin++)
      if (Atomics.load(ints, at) === 0 && Atomics.compareExchange(ints, at, 0, 1) === 0) return;
    // Mark the lock contended (2) and sleep until the holder hands it over (Drepper's futex mutex).
    while (Atomics.exchange(ints, at, 2) !== 0) Atomics.wait(ints, at, 2);
  }

  unlock(slot: number): void {
    const at = slot * SLOT_INTS + LOCK;
    if (Atomics.sub(this.ints, at, 1) !== 1) {
      Atomics.store(this.ints, at, 0);
      Atomics.notify(this.ints, at, 1);
    }
  }

  enterShared(): void {
    const header = this.header;
    for (;;) {
      const before = Atomics.add(header, GATE, 1);
      if ((before & WRITER) === 0) return;
      // A sweep holds the table: step back and sleep until it lets go.
      const after = Atomics.sub(header, GATE, 1) - 1;
      if (after === WRITER) Atomics.notify(header, GATE);
      Atomics.wait(header, GATE, after);
    }
  }

  leaveShared(): void {
    if (Atomics.sub(this.header, GATE, 1) - 1 === WRITER) Atomics.notify(this.header, GATE);
  }

  /** Runs `work` with no check in progress on any thread (a sweep moves slots). */
  exclusive<T>(work: () => T): T {
    const header = this.header;
    for (;;) {
      const gate = Atomics.load(header, GATE);
      if (gate & WRITER) Atomics.wait(header, GATE, gate);
      else if (Atomics.compareExchange(header, GATE, gate, gate | WRITER) === gate) break;
    }
    for (let gate = Atomics.load(header, GATE); gate !== WRITER; gate = Atomics.load(header, GATE))
      Atomics.wait(header, GATE, gate);
    try {
      return work();
    } finally {
      Atomics.and(header, GATE, ~WRITER);
      Atomics.notify(header, GATE);
    }
  }

  /**
   * Empties every slot `isGarbage` picks. Call inside `exclusive`. Removal shifts the later
   * slots of the probe run back (so lookups need no tombstones); a slot shifted into place is
   * looked at again.
   */
  removeWhere(isGarbage: (slot: number) => boolean): void {
    const ints = this.ints;
    for (let slot = 0; slot < this.slotCount; slot++)
      while (ints[slot * SLOT_INTS + KIND] !== 0 && isGarbage(slot)) this.remove(slot);
  }

  private remove(slot: number): void {
    const ints = this.ints;
    let hole = slot;
    for (let next = (hole + 1) & this.mask; ints[next * SLOT_INTS + KIND] !== 0; next = (next + 1) & this.mask) {
      const home = ints[next * SLOT_INTS + HASH] & this.mask;
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (stays) continue;
      ints.copyWithin(hole * SLOT_INTS, next * SLOT_INTS, (next + 1) * SLOT_INTS);
      hole = next;
    }
    ints.fill(0, hole * SLOT_INTS, (hole + 1) * SLOT_INTS);
    Atomics.sub(this.header, OCCUPIED, 1);
  }
}

/**
 * The first 96 bits of the counter's SHA-256. Two counters that share a slot share their count,
 * and counter names carry client-chosen parts (keys, addresses): with a cryptographic hash no
 * client can name a counter that lands on another tenant's (that takes a second preimage), and
 * 96 bits make an accidental collision negligible. Hashes are cached per counter (`hashOf`), so
 * the ~1 µs is paid once per counter, not per check.
 */
export function hash96(text: string): Hash96 {
  const digest = createHash('sha256').update(text).digest();
  return Int32Array.of(digest.readInt32LE(0), digest.readInt32LE(4), digest.readInt32LE(8));
}
