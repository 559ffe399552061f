import { strict as assert } from 'node:assert';
import { RedisStore } from '../../../services/limiter/lib/redis-store';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis';

/** How long a store call may take when Redis answers nothing: its 1 s command timeout, with slack for a busy machine. */
const BOUND_MS = 4000;

/** The outcome of `work`, or 'pending' when it has not settled within BOUND_MS. */
async function settleWithin<T>(work: Promise<T>): Promise<{ value?: T; error?: Error } | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), BOUND_MS)));
  try {
    return await Promise.race([
      work.then(
        (value) => ({ value }),
        (error: Error) => ({ error }),
      ),
      pending,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('limiter: a Redis that stops answering (SIGSTOP, connection still open)', function () {
  this.timeout(30_000);
  let redis: PrivateRedis;
  const stores: RedisStore[] = [];
  const store = (nonTransactional: boolean) => {
    const made = new RedisStore(redis.url, nonTransactional);
    stores.push(made);
    return made;
  };

  beforeEach(async () => {
    redis = await startPrivateRedis();
  });
  afterEach(async () => {
    for (const made of stores.splice(0)) await made.close();
    await redis.stop();
  });

  // [name, the call; each first succeeds while Redis answers]
  const calls: Array<[string, (s: () => RedisStore) => (now: number) => Promise<unknown>]> = [
    [
      'the sliding log (Lua script)',
      (s) => {
        const st = s();
        return (now) => st.slidingLog('c', 10, 60_000, now, false);
      },
    ],
    [
      'the sliding log, non-transactional (pipelines)',
      (s) => {
        const st = s();
        return (now) => st.slidingLog('c', 10, 60_000, now, false);
      },
    ],
    [
      'the fixed window',
      (s) => {
        const st = s();
        return (now) => st.fixedWindow('c', 10, 60_000, now);
      },
    ],
    [
      'the quota',
      (s) => {
        const st = s();
        return (now) => st.quota('c', 10, 60_000, now);
      },
    ],
    [
      'the quota state (MULTI)',
      (s) => {
        const st = s();
        return (now) => st.quotaState('c', now);
      },
    ],
  ];
  for (const [name, make] of calls) {
    it(`${name} fails within ${BOUND_MS} ms, never answering as if the request were allowed`, async () => {
      const call = make(() => store(name.includes('non-transactional')));
      await call(Date.now());
      redis.pause();
      const outcome = await settleWithin(call(Date.now()));
      redis.resume();
      assert.notEqual(outcome, 'pending', 'still waiting for Redis');
      assert.ok(outcome !== 'pending' && outcome.error, `answered ${JSON.stringify(outcome)}`);
    });
  }
});
