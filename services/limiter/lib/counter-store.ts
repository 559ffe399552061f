/** What a window-based check answers. Times are epoch milliseconds. */
export interface WindowOutcome {
  allowed: boolean;
  /** requests in the window, this one included when it was counted */
  count: number;
  /** when the window frees up (oldest entry leaves, or the fixed window ends) */
  resetAt: number;
}

export interface QuotaOutcome {
  allowed: boolean;
  /** requests counted in this quota period, this one included when allowed */
  used: number;
  /** when the quota renews; 0 = never */
  renewsAt: number;
}

/**
 * Shared counters of the rate limiters and quotas: in memory for a single node, in Redis when
 * several gateway nodes must agree. Every operation is atomic per counter. The memory store
 * answers at once (no promise), Redis with a promise.
 */
export interface CounterStore {
  /** sliding log: allowed while fewer than `limit` entries are younger than `windowMs`; `logBlocked` also logs refused requests */
  slidingLog(
    counter: string,
    limit: number,
    windowMs: number,
    now: number,
    logBlocked: boolean,
  ): WindowOutcome | Promise<WindowOutcome>;
  /** fixed window: one counter that starts with the first request and expires after `windowMs` */
  fixedWindow(counter: string, limit: number, windowMs: number, now: number): WindowOutcome | Promise<WindowOutcome>;
  /** a quota period of `renewalMs` (0 = never renews); a refused request does not spend quota */
  quota(counter: string, max: number, renewalMs: number, now: number): QuotaOutcome | Promise<QuotaOutcome>;
  /** the quota state without spending any */
  quotaState(counter: string, now: number): Promise<{ used: number; renewsAt: number }>;
  /** forgets what a quota has counted: its next request starts a new period */
  resetQuota(counter: string): void | Promise<void>;
  close(): Promise<void>;
}
