interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface BucketOutcome {
  allowed: boolean;
  /** whole tokens left */
  remaining: number;
  /** when the next token is there (epoch ms) */
  resetAt: number;
}

/** Where the distributed rate limiter's buckets live: this node's memory, or the host's (shared-token-buckets.ts). */
export interface TokenBucketStore {
  /** Takes a token from the bucket of `counter` (`capacity` tokens, refilled over `windowMs`; starts full). */
  take(counter: string, capacity: number, windowMs: number, now: number): BucketOutcome;
  /** Drops buckets idle for `maxWindowMs` (a store that sweeps itself may do nothing). */
  sweep(now: number, maxWindowMs: number): void;
}

/**
 * Token buckets of this node, for the distributed rate limiter: each bucket holds this node's
 * share of an allowance and refills at its share of the rate. A bucket starts full.
 */
export class TokenBuckets implements TokenBucketStore {
  private readonly buckets = new Map<string, Bucket>();

  take(counter: string, capacity: number, windowMs: number, now: number): BucketOutcome {
    const refillPerMs = capacity / windowMs;
    let bucket = this.buckets.get(counter);
    if (!bucket) this.buckets.set(counter, (bucket = { tokens: capacity, updatedAt: now }));
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.updatedAt) * refillPerMs);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const resetAt = now + Math.ceil(Math.max(0, 1 - bucket.tokens) / refillPerMs);
    return { allowed, remaining: Math.floor(bucket.tokens), resetAt };
  }

  /** Drops buckets that have refilled completely: they hold no information. */
  sweep(now: number, maxWindowMs: number): void {
    for (const [counter, bucket] of this.buckets)
      if (now - bucket.updatedAt > maxWindowMs) this.buckets.delete(counter);
  }
}
