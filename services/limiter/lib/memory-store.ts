import type { CounterStore, QuotaOutcome, WindowOutcome } from './counter-store';

interface Log {
  entries: number[];
  windowMs: number;
}

/**
 * How many entries a log that also records refused requests (the sentinel) keeps: enough that a
 * key over its limit stays blocked, while one that keeps calling can not grow its log without
 * bound. The shared store keeps the same cap, so one worker and many answer alike.
 */
export function sentinelLogCap(limit: number): number {
  return Math.max(2 * limit, 1024);
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * Counters of one node, in memory. Entries that can no longer matter (a log whose entries all
 * left their window, a window that ended, a quota period that renewed) are swept every minute,
 * so counters of keys that stopped calling do not pile up.
 */
export class MemoryStore implements CounterStore {
  private readonly logs = new Map<string, Log>();
  private readonly windows = new Map<string, Window>();
  private readonly quotas = new Map<string, { used: number; renewsAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  slidingLog(counter: string, limit: number, windowMs: number, now: number, logBlocked: boolean): WindowOutcome {
    let entry = this.logs.get(counter);
    if (!entry) this.logs.set(counter, (entry = { entries: [], windowMs }));
    entry.windowMs = windowMs;
    const log = entry.entries;
    const cutoff = now - windowMs;
    let expired = 0;
    while (expired < log.length && log[expired] <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    const allowed = log.length < limit;
    if (allowed || logBlocked) log.push(now);
    if (logBlocked && log.length > sentinelLogCap(limit)) log.splice(0, log.length - sentinelLogCap(limit));
    return { allowed, count: log.length, resetAt: (log[0] ?? now) + windowMs };
  }

  fixedWindow(counter: string, limit: number, windowMs: number, now: number): WindowOutcome {
    let window = this.windows.get(counter);
    if (!window || window.endsAt <= now) this.windows.set(counter, (window = { count: 0, endsAt: now + windowMs }));
    window.count++;
    return { allowed: window.count <= limit, count: window.count, resetAt: window.endsAt };
  }

  quota(counter: string, max: number, renewalMs: number, now: number): QuotaOutcome {
    const state = this.current(counter, renewalMs, now);
    if (state.used >= max) return { allowed: false, used: state.used, renewsAt: state.renewsAt };
    state.used++;
    return { allowed: true, used: state.used, renewsAt: state.renewsAt };
  }

  async quotaState(counter: string, now: number): Promise<{ used: number; renewsAt: number }> {
    const state = this.quotas.get(counter);
    if (!state || (state.renewsAt > 0 && state.renewsAt <= now)) return { used: 0, renewsAt: 0 };
    return { ...state };
  }

  resetQuota(counter: string): void {
    this.quotas.delete(counter);
  }

  /** how many counters are held */
  get size(): number {
    return this.logs.size + this.windows.size + this.quotas.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private current(counter: string, renewalMs: number, now: number): { used: number; renewsAt: number } {
    let state = this.quotas.get(counter);
    if (!state || (state.renewsAt > 0 && state.renewsAt <= now)) {
      state = { used: 0, renewsAt: renewalMs > 0 ? now + renewalMs : 0 };
      this.quotas.set(counter, state);
    }
    return state;
  }

  /** Drops what no check can see any more: it would start afresh the same way. */
  sweep(): void {
    const now = this.now();
    for (const [counter, window] of this.windows) if (window.endsAt <= now) this.windows.delete(counter);
    for (const [counter, log] of this.logs)
      if (log.entries.length === 0 || log.entries[log.entries.length - 1] <= now - log.windowMs)
        this.logs.delete(counter);
    for (const [counter, quota] of this.quotas)
      if (quota.renewsAt > 0 && quota.renewsAt <= now) this.quotas.delete(counter);
  }
}
