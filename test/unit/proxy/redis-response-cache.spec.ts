import { strict as assert } from 'node:assert';
import type { LoggerInstance } from 'moleculer';
import { RedisResponseCache } from '../../../services/proxy/pipeline/cache/response-cache';

/** A Redis failure while dropping an API's entries is logged and reported, never thrown. */
describe('RedisResponseCache.invalidate when Redis fails', () => {
  it('resolves false and logs the failure with a closed client', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) } as unknown as LoggerInstance;
    const cache = new RedisResponseCache('redis://127.0.0.1:1', logger);
    await cache.close();
    assert.equal(await cache.invalidate('api-1'), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /could not drop the cached responses of API api-1/);
  });
});

describe('RedisResponseCache.invalidate with Redis (GW_TEST_REDIS)', function () {
  const redisUrl = process.env.GW_TEST_REDIS;
  const logger = { warn: () => undefined } as unknown as LoggerInstance;
  const response = (text: string) => ({ status: 200, headers: {}, body: Buffer.from(text) });
  // ids unique to this run: the Redis is shared
  const run = `rc-${process.pid}-${Date.now()}`;
  let cache: RedisResponseCache;
  before(function () {
    if (!redisUrl) return this.skip();
    cache = new RedisResponseCache(redisUrl, logger);
  });
  after(() => cache?.close());

  it("drops one API's entries only, not those of an API whose id starts with it and a ':' or a '*'", async () => {
    const ids = [run, `${run}:v2`, `${run}*`, `${run}%3Av2`];
    for (const id of ids) await cache.set(id, 'GET /pets', response(id), 60);
    assert.equal(await cache.invalidate(run), true);
    assert.equal(await cache.get(run, 'GET /pets'), undefined);
    for (const id of ids.slice(1)) assert.equal((await cache.get(id, 'GET /pets'))?.body.toString(), id, id);
    for (const id of ids.slice(1)) await cache.invalidate(id);
    for (const id of ids) assert.equal(await cache.get(id, 'GET /pets'), undefined, id);
  });
});
