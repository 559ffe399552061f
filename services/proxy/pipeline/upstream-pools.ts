import { Pool } from 'undici';

export interface UpstreamPoolsOptions {
  /** a pool nobody used for this long, with no request in flight, is closed and dropped; @default 60000 */
  idleMs?: number;
  /** above this many pools, the least recently used one with nothing in flight is closed; @default 1000 */
  maxPools?: number;
  now?: () => number;
}

interface Entry {
  pool: Pool;
  usedAt: number;
}

/**
 * One keep-alive connection pool per upstream origin, shared by every API that targets it.
 * Like undici's Agent, a pool that has gone idle is closed and forgotten, so a node that has
 * talked to many origins (definitions come and go, URL rewrites reach other hosts) does not
 * keep a pool and its sockets for each of them. The pool is looked up per request, so a request
 * never holds a pool that the sweep could close under it; one with a request in flight is kept.
 * A burst of new origins is capped too (least recently used first): each pool costs ~20 KB.
 */
export class UpstreamPools {
  private readonly pools = new Map<string, Entry>();
  private readonly idleMs: number;
  private readonly maxPools: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: UpstreamPoolsOptions = {}) {
    this.idleMs = options.idleMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.maxPools = options.maxPools ?? 1000;
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(this.idleMs, 30_000)));
    this.sweeper.unref();
  }

  get(origin: string): Pool {
    const now = this.now();
    let entry = this.pools.get(origin);
    if (!entry) {
      entry = { pool: new Pool(origin, { connections: 256, keepAliveTimeout: 30_000, pipelining: 1 }), usedAt: now };
      this.pools.set(origin, entry);
      if (this.pools.size > this.maxPools) this.evictOne(origin);
    } else {
      // Keep the map in least-recently-used order (two hash operations).
      this.pools.delete(origin);
      this.pools.set(origin, entry);
    }
    entry.usedAt = now;
    return entry.pool;
  }

  /** how many pools are open */
  get size(): number {
    return this.pools.size;
  }

  /** Closes the pools idle for `idleMs` that have nothing in flight. */
  sweep(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [origin, entry] of this.pools) {
      if (entry.usedAt > cutoff || busy(entry.pool)) continue;
      this.pools.delete(origin);
      entry.pool.close().catch(() => entry.pool.destroy());
    }
  }

  /** Closes the least recently used pool with nothing in flight (never `keep`). */
  private evictOne(keep: string): void {
    for (const [origin, entry] of this.pools) {
      if (origin === keep || busy(entry.pool)) continue;
      this.pools.delete(origin);
      entry.pool.close().catch(() => entry.pool.destroy());
      return;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const pools = [...this.pools.values()].map((entry) => entry.pool);
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => pool.destroy())));
  }
}

function busy(pool: Pool): boolean {
  const stats = pool.stats;
  return stats.running > 0 || stats.pending > 0 || stats.queued > 0;
}
