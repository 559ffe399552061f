import type { BucketOutcome, TokenBucketStore } from '../token-buckets';
import type { SharedCounterStore } from './shared-counter-store';
import { BUCKET, BUCKET_TOKENS, BUCKET_UPDATED_AT, BUCKET_WINDOW_MS } from './slot-kinds';
import { SLOT_FLOATS } from './shared-table';

/**
 * The distributed rate limiter's token buckets of a whole host, in the table of its shared
 * counter store: the host's workers take from one bucket per counter, holding the host's share,
 * so N workers answer as one node's `TokenBuckets` would. A full table answers
 * `SharedStoreFull` (the limiter's `store_unavailable`).
 */
export class SharedTokenBuckets implements TokenBucketStore {
  constructor(private readonly store: SharedCounterStore) {}

  take(counter: string, capacity: number, windowMs: number, now: number): BucketOutcome {
    return this.store.update(BUCKET, counter, now, (slot, fresh) => {
      const floats = this.store.floats;
      const at = slot * SLOT_FLOATS;
      const refillPerMs = capacity / windowMs;
      if (fresh) {
        floats[at + BUCKET_TOKENS] = capacity;
        floats[at + BUCKET_UPDATED_AT] = now;
      }
      // Another thread's clock may lag this one's by a little: time never runs backwards for a bucket.
      const updatedAt = floats[at + BUCKET_UPDATED_AT];
      let tokens = Math.min(capacity, floats[at + BUCKET_TOKENS] + Math.max(0, now - updatedAt) * refillPerMs);
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      floats[at + BUCKET_TOKENS] = tokens;
      floats[at + BUCKET_UPDATED_AT] = Math.max(now, updatedAt);
      floats[at + BUCKET_WINDOW_MS] = windowMs;
      const resetAt = now + Math.ceil(Math.max(0, 1 - tokens) / refillPerMs);
      return { allowed, remaining: Math.floor(tokens), resetAt };
    });
  }

  /** Nothing to do: the table's sweep drops buckets that have refilled. */
  sweep(): void {}
}
