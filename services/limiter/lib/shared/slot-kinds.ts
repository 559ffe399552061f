import { KIND_FLOATS, KIND_INTS } from './shared-table';

/**
 * What a slot of the shared table holds (its kind, int32 1) and where each kind keeps its fields.
 * A slot's kind fields are int32 5..11 and float64 3..7 (bytes 20..63); the two overlap, so a
 * kind with a log ring (int32 5..8, bytes 20..35) keeps its numbers in float64 5..7.
 */
export const LOG = 1;
export const WINDOW = 2;
export const QUOTA = 3;
/** a token bucket of the distributed rate limiter, host-wide */
export const BUCKET = 4;
/** a smoothed allowance, with the log of the requests that measure its rate */
export const SMOOTHING = 5;

/** whether slots of this kind own a ring in the log arena */
export function hasRing(kind: number): boolean {
  return kind === LOG || kind === SMOOTHING;
}

// LOG and SMOOTHING: the ring (int32) and the log's window (float64).
export const RING_AT = KIND_INTS;
export const RING_CAPACITY = KIND_INTS + 1;
export const RING_HEAD = KIND_INTS + 2;
export const RING_LENGTH = KIND_INTS + 3;
export const LOG_WINDOW_MS = KIND_FLOATS;

// WINDOW: count and end; QUOTA: used and renewal.
export const COUNT = KIND_FLOATS;
export const ENDS_AT = KIND_FLOATS + 1;

// BUCKET: no ring, so float64 3..5.
export const BUCKET_TOKENS = 3;
export const BUCKET_UPDATED_AT = 4;
export const BUCKET_WINDOW_MS = 5;

// SMOOTHING: beside its ring.
export const SMOOTHING_CHANGED_AT = 5;
export const SMOOTHING_ALLOWANCE = KIND_FLOATS + 1;
