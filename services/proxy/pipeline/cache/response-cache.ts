import Redis from 'ioredis';
import type { LoggerInstance } from 'moleculer';
import type { HeaderMap } from '../forward-headers';

export interface CachedResponse {
  status: number;
  headers: HeaderMap;
  body: Buffer;
}

/**
 * Where a gateway node keeps cached upstream responses (cache_options). Keys are
 * `<api_id>:<hash>` (in Redis with the id URI-encoded), so one API's entries can be dropped
 * together and no entry of one API is ever found under another's key. Lookups that fail (Redis
 * down) are misses, never errors.
 */
export interface ResponseCache {
  get(apiId: string, key: string): Promise<CachedResponse | undefined>;
  set(apiId: string, key: string, response: CachedResponse, ttlSeconds: number): Promise<void>;
  /** drops every entry of the API (DELETE /gw/cache/{api_id}); false when the store failed (logged), never a rejection */
  invalidate(apiId: string): Promise<boolean>;
  close(): Promise<void>;
}

interface MemoryEntry {
  apiId: string;
  response: CachedResponse;
  expiresAt: number;
  bytes: number;
}

/** One node's cache, bounded by bytes: the least recently used entries go first. */
export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, MemoryEntry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(apiId: string, key: string): Promise<CachedResponse | undefined> {
    const id = `${apiId}:${key}`;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    if (entry.expiresAt <= this.now()) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(id, entry);
    return entry.response;
  }

  async set(apiId: string, key: string, response: CachedResponse, ttlSeconds: number): Promise<void> {
    const bytes = response.body.length + JSON.stringify(response.headers).length + key.length + 64;
    if (bytes > this.maxBytes) return;
    const id = `${apiId}:${key}`;
    this.remove(id);
    this.entries.set(id, { apiId, response, expiresAt: this.now() + ttlSeconds * 1000, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  async invalidate(apiId: string): Promise<boolean> {
    for (const [id, entry] of this.entries) if (entry.apiId === apiId) this.remove(id);
    return true;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.bytes;
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}

const PREFIX = 'gw-cache:';

/** The cache in Redis (GW_REDIS_URL): every gateway node sees the same entries. */
export class RedisResponseCache implements ResponseCache {
  private readonly redis: Redis;
  private warned = false;

  constructor(
    url: string,
    private readonly logger: LoggerInstance,
  ) {
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      commandTimeout: 1000,
      lazyConnect: true,
    });
    this.redis.on('error', () => undefined);
  }

  async get(apiId: string, key: string): Promise<CachedResponse | undefined> {
    try {
      const raw = await this.redis.getBuffer(keyOf(apiId, key));
      return raw ? decode(raw) : undefined;
    } catch (err) {
      this.warn(err);
      return undefined;
    }
  }

  async set(apiId: string, key: string, response: CachedResponse, ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(keyOf(apiId, key), encode(response), 'EX', Math.max(1, Math.round(ttlSeconds)));
    } catch (err) {
      this.warn(err);
    }
  }

  async invalidate(apiId: string): Promise<boolean> {
    // the id is encoded (no ':' left in it) and its glob characters escaped: `x` matches none of `x:y`'s keys
    const pattern = `${PREFIX}${encodeURIComponent(apiId).replace(/[*?[\]\\]/g, '\\$&')}:*`;
    let cursor = '0';
    try {
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        if (keys.length > 0) await this.redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      return true;
    } catch (err) {
      // Called from an HTTP route and from a broadcast event: a rejection there would go unhandled.
      this.logger.warn(
        `response cache: could not drop the cached responses of API ${apiId} (${(err as Error).message})`,
      );
      return false;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private warn(err: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.logger.warn(`response cache: Redis unreachable, requests go upstream (${(err as Error).message})`);
  }
}

/** `gw-cache:<api id, URI-encoded>:<key>`: an API id may hold ':', which would make one API's keys look like another's. */
function keyOf(apiId: string, key: string): string {
  return `${PREFIX}${encodeURIComponent(apiId)}:${key}`;
}

/** `<header JSON>\n<body bytes>`: the body stays binary. */
function encode(response: CachedResponse): Buffer {
  return Buffer.concat([
    Buffer.from(`${JSON.stringify({ status: response.status, headers: response.headers })}\n`),
    response.body,
  ]);
}

function decode(raw: Buffer): CachedResponse {
  const newline = raw.indexOf(0x0a);
  const head = JSON.parse(raw.subarray(0, newline).toString('utf8')) as { status: number; headers: HeaderMap };
  return { status: head.status, headers: head.headers, body: raw.subarray(newline + 1) };
}
