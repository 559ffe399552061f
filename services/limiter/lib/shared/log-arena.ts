/**
 * Ring buffers of timestamps (float64) for the sliding logs, in a second SharedArrayBuffer.
 * A ring's capacity is a power of two, so a position wraps with a mask. Rings are cut from the
 * top of the arena (one compare-and-swap); a ring that grew or whose counter was swept is left
 * behind until the next sweep compacts the live rings to the bottom. That keeps allocation to a
 * few instructions and the arena free of fragments, at the price of a sweep when it fills.
 */

/** the arena starts with one float64 holding nothing but its top, as an int32 */
const HEADER_FLOATS = 1;
const TOP = 0;
export const SMALLEST_RING = 4;

export interface Ring {
  /** first float64 of the ring */
  at: number;
  capacity: number;
  /** position of the oldest entry */
  head: number;
  length: number;
}

export class LogArena {
  readonly entries: Float64Array;
  private readonly top: Int32Array;
  /** reused by `compact`, which copies one ring at a time */
  private scratch = new Float64Array(0);

  constructor(buffer: SharedArrayBuffer) {
    this.top = new Int32Array(buffer, 0, 1);
    this.entries = new Float64Array(buffer);
    if (this.entries.length >= 2 ** 31) throw new Error('log arena: at most 16 GB');
    if (Atomics.load(this.top, TOP) === 0) Atomics.compareExchange(this.top, TOP, 0, HEADER_FLOATS);
  }

  /** float64 slots in use, left-behind rings included */
  get used(): number {
    return Atomics.load(this.top, TOP);
  }

  /** where a new ring of `capacity` entries starts, or -1 when the arena is full */
  allocate(capacity: number): number {
    for (;;) {
      const at = Atomics.load(this.top, TOP);
      if (at + capacity > this.entries.length) return -1;
      if (Atomics.compareExchange(this.top, TOP, at, at + capacity) === at) return at;
    }
  }

  /**
   * Moves the given live rings down to the bottom, oldest entry first, each in the smallest
   * power of two that holds it, and rewrites them in place. No thread may use the arena meanwhile.
   */
  compact(rings: Ring[]): void {
    rings.sort((x, y) => x.at - y.at);
    let top = HEADER_FLOATS;
    for (const ring of rings) {
      if (this.scratch.length < ring.length) this.scratch = new Float64Array(ring.capacity);
      const mask = ring.capacity - 1;
      for (let i = 0; i < ring.length; i++) this.scratch[i] = this.entries[ring.at + ((ring.head + i) & mask)];
      ring.capacity = ringCapacityFor(ring.length);
      ring.at = top;
      ring.head = 0;
      this.entries.set(this.scratch.subarray(0, ring.length), top);
      top += ring.capacity;
    }
    Atomics.store(this.top, TOP, top);
  }
}

export function ringCapacityFor(entries: number): number {
  let capacity = SMALLEST_RING;
  while (capacity < entries) capacity *= 2;
  return capacity;
}
