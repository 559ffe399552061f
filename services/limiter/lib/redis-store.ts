import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { CounterStore, QuotaOutcome, WindowOutcome } from './counter-store';

const PREFIX = 'gw:limiter:';

/** Trims the log, counts, logs this request when allowed (or always, for the sentinel), in one step. */
const SLIDING_LOG = `
local key, now, window, limit, log_blocked, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then allowed = 1 end
if allowed == 1 or log_blocked == '1' then
  redis.call('ZADD', key, now, member)
  count = count + 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local first = now
if oldest[2] then first = tonumber(oldest[2]) end
return {allowed, count, first + window}
`;

const FIXED_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

/** Spends one unit of quota unless it is used up; the period starts with its first request. */
const QUOTA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if used >= tonumber(ARGV[1]) then return {0, used, ttl} end
used = redis.call('INCR', KEYS[1])
if used == 1 and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, used, redis.call('PTTL', KEYS[1])}
`;

type Outcome = [number, number, number];

/**
 * Counters in Redis, shared by every gateway node. Each check is one Lua script (atomic, no
 * read-modify-write race); with `nonTransactional` the sliding log is a plain pipeline instead,
 * faster but open to races between nodes. A Redis that can not be reached fails the check
 * rather than letting requests through.
 */
export class RedisStore implements CounterStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly nonTransactional: boolean,
  ) {
    // Commands wait for a (re)connection, but never long: an unreachable Redis fails the check.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 });
    // Connection errors surface on the commands that fail; the client keeps reconnecting.
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('gwSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
    this.redis.defineCommand('gwFixedWindow', { numberOfKeys: 1, lua: FIXED_WINDOW });
    this.redis.defineCommand('gwQuota', { numberOfKeys: 1, lua: QUOTA });
  }

  async slidingLog(
    counter: string,
    limit: number,
    windowMs: number,
    now: number,
    logBlocked: boolean,
  ): Promise<WindowOutcome> {
    const key = `${PREFIX}log:${counter}`;
    const member = `${now}-${randomBytes(6).toString('hex')}`;
    if (this.nonTransactional) return this.pipelinedLog(key, limit, windowMs, now, logBlocked, member);
    const [allowed, count, resetAt] = (await this.command(
      'gwSlidingLog',
      key,
      now,
      windowMs,
      limit,
      logBlocked ? '1' : '0',
      member,
    )) as Outcome;
    return { allowed: allowed === 1, count, resetAt };
  }

  async fixedWindow(counter: string, limit: number, windowMs: number, now: number): Promise<WindowOutcome> {
    const [count, ttl] = (await this.command('gwFixedWindow', `${PREFIX}window:${counter}`, windowMs)) as [
      number,
      number,
    ];
    return { allowed: count <= limit, count, resetAt: now + Math.max(ttl, 0) };
  }

  async quota(counter: string, max: number, renewalMs: number, now: number): Promise<QuotaOutcome> {
    const [allowed, used, ttl] = (await this.command(
      'gwQuota',
      `${PREFIX}quota:${counter}`,
      max,
      renewalMs,
    )) as Outcome;
    return { allowed: allowed === 1, used, renewsAt: ttl > 0 ? now + ttl : 0 };
  }

  async quotaState(counter: string, now: number): Promise<{ used: number; renewsAt: number }> {
    const key = `${PREFIX}quota:${counter}`;
    const [used, ttl] = settled(await this.redis.multi().get(key).pttl(key).exec()) as [string | null, number];
    return { used: Number(used ?? 0), renewsAt: ttl > 0 ? now + ttl : 0 };
  }

  async resetQuota(counter: string): Promise<void> {
    await this.redis.del(`${PREFIX}quota:${counter}`);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private async pipelinedLog(
    key: string,
    limit: number,
    windowMs: number,
    now: number,
    logBlocked: boolean,
    member: string,
  ): Promise<WindowOutcome> {
    const results = settled(
      await this.redis
        .pipeline()
        .zremrangebyscore(key, '-inf', now - windowMs)
        .zcard(key)
        .zrange(key, 0, 0, 'WITHSCORES')
        .exec(),
    );
    const count = Number(results[1] ?? 0);
    const oldest = results[2] as string[] | undefined;
    const allowed = count < limit;
    if (allowed || logBlocked)
      settled(await this.redis.pipeline().zadd(key, now, member).pexpire(key, windowMs).exec());
    return {
      allowed,
      count: allowed || logBlocked ? count + 1 : count,
      resetAt: (oldest?.[1] ? Number(oldest[1]) : now) + windowMs,
    };
  }

  private command(name: string, ...args: Array<string | number>): Promise<unknown> {
    return (this.redis as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name](...args);
  }
}

/**
 * The replies of a pipeline, or the first command's error: a pipeline resolves even when its
 * commands failed (timed out, connection lost), and a failed count must not read as zero.
 */
function settled(results: Array<[Error | null, unknown]> | null): unknown[] {
  if (!results) throw new Error('Redis pipeline was not executed');
  for (const [err] of results) if (err) throw err;
  return results.map(([, reply]) => reply);
}
