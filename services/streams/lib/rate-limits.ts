import { parseDuration } from '../../../lib/streams/duration';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A stream's `rate_limit_resources` entry of kind `local` (Bento's): at most `count` accesses
 * per `interval`. Connectors naming it in `rate_limit` wait for their turn.
 */
export class LocalRateLimit {
  private windowStart = 0;
  private used = 0;
  private readonly intervalMs: number;

  constructor(
    private readonly count: number,
    interval: string,
  ) {
    this.intervalMs = parseDuration(interval) ?? 1000;
  }

  /** Takes one access if the window has one left (an HTTP input answers 429 otherwise). */
  tryAccess(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= this.intervalMs) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used >= this.count) return false;
    this.used++;
    return true;
  }

  /** Resolves when one more access is allowed; rejects with the signal's reason when aborted. */
  async access(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = Date.now();
      if (now - this.windowStart >= this.intervalMs) {
        this.windowStart = now;
        this.used = 0;
      }
      if (this.used < this.count) {
        this.used++;
        return;
      }
      await sleep(this.windowStart + this.intervalMs - now, undefined, { signal });
    }
  }
}

export type RateLimits = Map<string, LocalRateLimit>;

export function buildRateLimits(resources: unknown): RateLimits {
  const limits: RateLimits = new Map();
  for (const resource of Array.isArray(resources) ? resources : []) {
    const local = (resource as { local?: { count?: number; interval?: string } }).local ?? {};
    limits.set(
      String((resource as { label: string }).label),
      new LocalRateLimit(local.count ?? 1000, local.interval ?? '1s'),
    );
  }
  return limits;
}
