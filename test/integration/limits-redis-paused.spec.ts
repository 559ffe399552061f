import { strict as assert } from 'node:assert';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis';

/** The longest a request may wait on a Redis that answers nothing: a few 1 s command timeouts, with slack. */
const BOUND_MS = 6000;

/** `work`, or a failure naming what was still waiting after BOUND_MS. */
async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${BOUND_MS} ms`)), BOUND_MS)),
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

for (const nonTransactional of [false, true]) {
  describe(`request path: a Redis that stops answering (SIGSTOP), ${nonTransactional ? 'non-transactional' : 'transactional'} rate limiter`, function () {
    this.timeout(30_000);
    let redis: PrivateRedis;
    let gw: GatewayFixture;

    before(async () => {
      redis = await startPrivateRedis();
      gw = await startGatewayFixture({ redisUrl: redis.url, enableNonTransactionalRateLimiter: nonTransactional });
      // 2 per minute is below drl_threshold × 1 gateway: the limit is counted in Redis.
      await gw.addApi(
        apiDefinition('paused-limited', '/paused-limited', gw.upstream.url, {
          global_rate_limit: { rate: 2, per: 60 },
        }),
      );
      await gw.addApi(
        apiDefinition('paused-cached', '/paused-cached', gw.upstream.url, {
          cache_options: { enable_cache: true, cache_timeout: 60, cache_all_safe_requests: true },
        }),
      );
      assert.equal((await gw.call('/paused-limited/a')).status, 200);
      assert.equal((await gw.call('/paused-cached/a')).status, 200);
      redis.pause();
    });
    after(async () => {
      redis?.resume();
      await gw?.stop();
      await redis?.stop();
    });

    it(`a rate-limited API answers 503 within ${BOUND_MS} ms and the upstream sees nothing`, async () => {
      const upstreamBefore = gw.upstream.received.length;
      const res = await within('GET /paused-limited/b', gw.call('/paused-limited/b'));
      assert.equal(res.status, 503, res.text);
      assert.deepEqual(res.json, { error: 'The rate limiter store is not reachable, please try again later' });
      assert.equal(gw.upstream.received.length, upstreamBefore);
    });

    it(`a cached API answers from the upstream within ${BOUND_MS} ms`, async () => {
      const res = await within('GET /paused-cached/b', gw.call('/paused-cached/b'));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('x-gw-cached-response'), null);
    });
  });
}
