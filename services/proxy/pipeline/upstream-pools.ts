import { tenantConnector } from '../../../lib/net/tenant-agent';
import { nativeParserDetection, type NativeParserDetection } from './upstream-client/native-parser';
import type { OriginPool, UpstreamPoolOptions } from './upstream-client/origin-pool';
import { Http2Pool } from './upstream-client/http2-pool';
import { UndiciUpstreamPool } from './upstream-client/undici-pool';
import { UpstreamPool } from './upstream-client/upstream-pool';

export interface UpstreamPoolsOptions {
  /** a pool nobody used for this long, with no request in flight, is closed and dropped; @default 60000 */
  idleMs?: number;
  /** above this many pools, the least recently used one with nothing in flight is closed; @default 1000 */
  maxPools?: number;
  now?: () => number;
  /** told once, at start, when the gateway's own client can not be used and undici's Pool is */
  warn?: (message: string) => void;
  /** whether Node's HTTP parser is usable; @default detected once per process (tests force the fallback) */
  nativeParser?: NativeParserDetection;
}

type PoolFactory = (origin: string, options: UpstreamPoolOptions) => OriginPool;

/** How the gateway connects to an HTTPS upstream, when not with the defaults. */
export interface UpstreamTls {
  /** names these options among the pools of one origin (a certificate id, the verification mode) */
  id: string;
  /** a client certificate (PEM) and its private key, for upstreams that require one */
  cert?: string;
  key?: string;
  /** false: the upstream's certificate is not verified (`proxy.transport.ssl_insecure_skip_verify`) */
  rejectUnauthorized: boolean;
}

interface Entry {
  pool: OriginPool;
  usedAt: number;
}

/**
 * One keep-alive connection pool per upstream origin, shared by every API that targets it.
 * Like undici's Agent, a pool that has gone idle is closed and forgotten, so a node that has
 * talked to many origins (definitions come and go, URL rewrites reach other hosts) does not
 * keep a pool and its sockets for each of them. The pool is looked up per request, so a request
 * never holds a pool that the sweep could close under it; one with a request in flight is kept.
 * A burst of new origins is capped too (least recently used first): each pool holds memory.
 */
export class UpstreamPools {
  private readonly pools = new Map<string, Entry>();
  /** the most recently used pool's name: using it again needs no reordering (one upstream, per request) */
  private newest: string | undefined;
  private readonly idleMs: number;
  private readonly maxPools: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private readonly createPool: PoolFactory;

  constructor(options: UpstreamPoolsOptions = {}) {
    this.idleMs = options.idleMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.maxPools = options.maxPools ?? 1000;
    this.createPool = poolFactory(options.nativeParser ?? nativeParserDetection(), options.warn);
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(this.idleMs, 30_000)));
    this.sweeper.unref();
  }

  /**
   * The pool of an origin; one per TLS setting when `tls` is given (a client certificate is part of
   * the connection). An `h2c://` origin is HTTP/2 in cleartext; an https:// one is HTTP/2 when
   * `http2` asks for it (an upstream that does not offer h2 is then served over HTTP/1.1).
   */
  get(origin: string, tls?: UpstreamTls, http2 = false): OriginPool {
    const now = this.now();
    const h2 = origin.startsWith('h2c:') ? 'h2c' : http2 && origin.startsWith('https:') ? 'h2' : undefined;
    let name = tls ? `${origin}\u0000${tls.id}` : origin;
    if (h2 === 'h2') name += '\u0000h2';
    let entry = this.pools.get(name);
    if (!entry) {
      // An API's upstream is a tenant's URL: never a cloud-metadata address nor this node's own
      // ports (judged on the address each connection reaches, once per connection, not per request).
      const tlsOptions = tls ? { cert: tls.cert, key: tls.key, rejectUnauthorized: tls.rejectUnauthorized } : undefined;
      const connect = tenantConnector({ tls: tlsOptions, allowH2: h2 === 'h2' });
      const options = { maxConnections: 256, keepAliveMaxMs: 30_000, connect };
      const pool = h2
        ? new Http2Pool(origin, {
            ...options,
            fallback: () => this.createPool(origin, { ...options, connect: tenantConnector({ tls: tlsOptions }) }),
          })
        : this.createPool(origin, options);
      entry = { pool, usedAt: now };
      this.pools.set(name, entry);
      if (this.pools.size > this.maxPools) this.evictOne(name);
    } else if (name !== this.newest) {
      // Keep the map in least-recently-used order (two hash operations).
      this.pools.delete(name);
      this.pools.set(name, entry);
    }
    this.newest = name;
    entry.usedAt = now;
    return entry.pool;
  }

  /** how many pools are open */
  get size(): number {
    return this.pools.size;
  }

  /** Closes the pools idle for `idleMs` that have nothing in flight, and the other pools' connections idle past their reuse. */
  sweep(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [origin, entry] of this.pools) {
      if (entry.usedAt > cutoff || entry.pool.busy) {
        entry.pool.closeExpired();
        continue;
      }
      this.forget(origin);
      void entry.pool.close();
    }
  }

  /** Closes the least recently used pool with nothing in flight (never `keep`). */
  private evictOne(keep: string): void {
    for (const [origin, entry] of this.pools) {
      if (origin === keep || entry.pool.busy) continue;
      this.forget(origin);
      void entry.pool.close();
      return;
    }
  }

  private forget(name: string): void {
    this.pools.delete(name);
    if (name === this.newest) this.newest = undefined;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const pools = [...this.pools.values()].map((entry) => entry.pool);
    this.pools.clear();
    this.newest = undefined;
    await Promise.all(pools.map((pool) => pool.close()));
  }
}

/**
 * The gateway's own client where Node's HTTP parser is as it expects, undici's Pool elsewhere
 * (the own client rests on Node internals that a Node line may lack or change).
 */
function poolFactory(nativeParser: NativeParserDetection, warn?: (message: string) => void): PoolFactory {
  if ('parser' in nativeParser) return (origin, options) => new UpstreamPool(origin, options);
  const why = nativeParser.unusable;
  warn?.(`upstream HTTP/1.1 goes through undici's Pool: Node's own HTTP parser is not usable (${why})`);
  return (origin, options) => new UndiciUpstreamPool(origin, options);
}
