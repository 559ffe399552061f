import { strict as assert } from 'node:assert';
import type { GatewayEventName } from '../../../contracts/events';
import type { LimiterCheckParams, LimiterCheckResult, RateSpec } from '../../../contracts/limiter/actions';
import type { CounterStore } from '../../../services/limiter/lib/counter-store';
import { DrlShare } from '../../../services/limiter/lib/drl-share';
import { MemoryStore } from '../../../services/limiter/lib/memory-store';
import { RateLimiter, type Algorithm } from '../../../services/limiter/lib/rate-limiter';
import { RedisStore } from '../../../services/limiter/lib/redis-store';
import {
  SharedCounterStore,
  createSharedCounterBuffers,
} from '../../../services/limiter/lib/shared/shared-counter-store';
import { SharedSmoother } from '../../../services/limiter/lib/shared/shared-smoother';
import { SharedTokenBuckets } from '../../../services/limiter/lib/shared/shared-token-buckets';
import { Smoother } from '../../../services/limiter/lib/smoothing';
import { TokenBuckets } from '../../../services/limiter/lib/token-buckets';

interface Harness {
  limiter: RateLimiter;
  events: Array<{ event: GatewayEventName; at: number; meta?: Record<string, unknown> }>;
  clock: { now: number };
  store: CounterStore;
}

let counterSeq = 0;
const uniqueCounter = (name: string) => `${name}-${process.pid}-${Date.now()}-${counterSeq++}`;

function harness(
  algorithm: Algorithm,
  store: CounterStore,
  options: { drlThreshold?: number; liveNodes?: string[] } = {},
): Harness {
  const clock = { now: 1_700_000_000_000 };
  const events: Harness['events'] = [];
  const drl = new DrlShare('node-a', () => clock.now);
  if (options.liveNodes) drl.setLiveNodes(options.liveNodes);
  // Gateway workers keep their buckets and smoothing beside their shared counters, as limiter.service does.
  const shared = store instanceof SharedCounterStore;
  const limiter = new RateLimiter({
    algorithm,
    drlThreshold: options.drlThreshold ?? 5,
    store,
    buckets: shared ? new SharedTokenBuckets(store) : new TokenBuckets(),
    drl,
    smoother: shared ? new SharedSmoother(store) : new Smoother(),
    now: () => clock.now,
    emit: (event, _params, _message, meta) => events.push({ event, at: clock.now, meta }),
  });
  return { limiter, events, clock, store };
}

async function run(h: Harness, params: LimiterCheckParams, times: number): Promise<LimiterCheckResult[]> {
  const results: LimiterCheckResult[] = [];
  for (let i = 0; i < times; i++) results.push(await h.limiter.check(params));
  return results;
}

const passed = (results: LimiterCheckResult[]) => results.filter((r) => r.ok).length;
const keyLimit = (counter: string, rate: number, per: number, extra: Partial<RateSpec> = {}): LimiterCheckParams => ({
  api_id: 'api',
  org_id: 'org',
  key_hash: 'k',
  key_limit: { counter, rate, per, ...extra },
});

/** `followsClock`: the store expires counters by the checks' (fake) time, not in real time as Redis does */
const stores: Array<{
  name: string;
  enabled: boolean;
  followsClock: boolean;
  make(nonTransactional?: boolean): CounterStore;
}> = [
  { name: 'memory', enabled: true, followsClock: true, make: () => new MemoryStore() },
  {
    name: 'shared memory',
    enabled: true,
    followsClock: true,
    make: () => new SharedCounterStore(createSharedCounterBuffers(1 << 20)),
  },
  {
    name: 'Redis',
    enabled: Boolean(process.env.GW_TEST_REDIS),
    followsClock: false,
    make: (nonTransactional = false) => new RedisStore(process.env.GW_TEST_REDIS!, nonTransactional),
  },
];

for (const backing of stores) {
  describe(`limiter: accuracy with a fake clock (${backing.name} store)`, function () {
    const opened: CounterStore[] = [];
    const open = (nonTransactional?: boolean) => {
      const store = backing.make(nonTransactional);
      opened.push(store);
      return store;
    };
    before(function () {
      // The Redis cases need GW_TEST_REDIS; .ci/run sets it.
      if (!backing.enabled) this.skip();
    });
    after(async () => {
      for (const store of opened) await store.close();
    });

    const exactCases: Array<[string, Algorithm, boolean]> = [
      ['sliding log (sentinel)', 'sentinel', false],
      ['sliding log, non-transactional', 'sentinel', true],
      ['fixed window', 'fixed-window', false],
      ['distributed rate limiter on one node', 'drl', false],
    ];
    for (const [name, algorithm, nonTransactional] of exactCases) {
      it(`${name}: rate 100 per 10 s, 150 requests → exactly 100 pass`, async () => {
        const h = harness(algorithm, open(nonTransactional));
        const results = await run(h, keyLimit(uniqueCounter(algorithm), 100, 10), 150);
        assert.equal(passed(results), 100);
        assert.ok(results.slice(100).every((r) => !r.ok && r.reason === 'key_rate'));
        assert.equal(h.events.filter((e) => e.event === 'RatelimitExceeded').length, 50);
      });
    }

    it('sliding log (sentinel) keeps blocking while traffic continues, and frees up once it stops', async () => {
      const h = harness('sentinel', open());
      const params = keyLimit(uniqueCounter('spike'), 10, 10);
      assert.equal(passed(await run(h, params, 10)), 10);
      for (let second = 0; second < 20; second++) {
        h.clock.now += 1000;
        assert.equal(
          passed(await run(h, params, 2)),
          0,
          `second ${second}: blocked requests are logged too, so the log stays full`,
        );
      }
      h.clock.now += 10_001;
      assert.equal(passed(await run(h, params, 1)), 1);
    });

    it('fixed window blocks for the rest of the window, then starts again', async () => {
      const h = harness('fixed-window', open());
      const params = keyLimit(uniqueCounter('fixed'), 5, 10);
      assert.equal(passed(await run(h, params, 8)), 5);
      h.clock.now += 9_000;
      assert.equal(passed(await run(h, params, 1)), 0);
      // Redis expires the window in real time; the fake clock only moves the reported reset.
      if (backing.followsClock) {
        h.clock.now += 1_001;
        assert.equal(passed(await run(h, params, 6)), 5);
      }
    });

    it('quota: spends only on allowed requests, refuses with QuotaExceeded, renews after the period', async () => {
      const h = harness('sentinel', open());
      const counter = uniqueCounter('quota');
      const params: LimiterCheckParams = {
        api_id: 'api',
        org_id: 'org',
        key_hash: 'k',
        quota: { counter, max: 3, renewal_rate: 3600 },
      };
      const results = await run(h, params, 5);
      assert.deepEqual(
        results.map((r) => r.ok),
        [true, true, true, false, false],
      );
      assert.equal((results[3] as { reason: string }).reason, 'quota');
      assert.deepEqual(
        results[2].ok && results[2].quota && [results[2].quota.limit, results[2].quota.remaining],
        [3, 0],
      );
      assert.equal(h.events.filter((e) => e.event === 'QuotaExceeded').length, 2);
      assert.equal((await h.store.quotaState(counter, h.clock.now)).used, 3);
      if (backing.followsClock) {
        h.clock.now += 3_600_001;
        assert.equal((await h.limiter.check(params)).ok, true);
      }
    });

    it('resetQuota: a spent quota starts afresh with a full period; other counters keep theirs', async () => {
      const h = harness('sentinel', open());
      const counter = uniqueCounter('quota-reset');
      const other = uniqueCounter('quota-kept');
      const quota = (c: string): LimiterCheckParams => ({
        api_id: 'api',
        org_id: 'org',
        key_hash: 'k',
        quota: { counter: c, max: 2, renewal_rate: 3600 },
      });
      await run(h, quota(counter), 3);
      await run(h, quota(other), 3);
      assert.equal((await h.limiter.check(quota(counter))).ok, false);

      await h.store.resetQuota(counter);
      await h.store.resetQuota(uniqueCounter('never-used'));
      assert.deepEqual(await h.store.quotaState(counter, h.clock.now), { used: 0, renewsAt: 0 });
      const again = await run(h, quota(counter), 3);
      assert.deepEqual(
        again.map((r) => r.ok),
        [true, true, false],
      );
      const state = await h.store.quotaState(counter, h.clock.now);
      assert.equal(state.used, 2);
      assert.ok(state.renewsAt > h.clock.now, 'the new period has its renewal time');
      assert.equal((await h.limiter.check(quota(other))).ok, false, 'another counter is untouched');
    });

    it('does not spend quota on a request a rate limit refused', async () => {
      const h = harness('sentinel', open());
      const counter = uniqueCounter('quota-rate');
      const params: LimiterCheckParams = {
        ...keyLimit(uniqueCounter('rate'), 1, 60),
        quota: { counter, max: 10, renewal_rate: -1 },
      };
      await run(h, params, 4);
      assert.equal((await h.store.quotaState(counter, h.clock.now)).used, 1);
    });

    it('checks the API limit first: it takes precedence over the key limit', async () => {
      const h = harness('sentinel', open());
      const params: LimiterCheckParams = {
        ...keyLimit(uniqueCounter('key'), 100, 60),
        api_limit: { counter: uniqueCounter('api'), rate: 2, per: 60 },
      };
      const results = await run(h, params, 3);
      assert.deepEqual(
        results.map((r) => (r.ok ? 'ok' : r.reason)),
        ['ok', 'ok', 'api_rate'],
      );
    });
  });
}

describe('limiter: answers at once with counters in memory', () => {
  for (const algorithm of ['drl', 'sentinel', 'fixed-window'] as const) {
    it(`${algorithm}: an API limit, a key limit and a quota are decided without a promise (the gateway of the node asks on every request)`, () => {
      const h = harness(algorithm, new MemoryStore());
      const params: LimiterCheckParams = {
        ...keyLimit(uniqueCounter(algorithm), 2, 60),
        api_limit: { counter: uniqueCounter('api'), rate: 100, per: 60 },
        quota: { counter: uniqueCounter('quota'), max: 10, renewal_rate: 3600 },
      };
      const first = h.limiter.check(params);
      assert.ok(!(first instanceof Promise));
      assert.equal(first.ok, true);
      assert.deepEqual(first.quota, { limit: 10, remaining: 9, reset: Math.ceil((h.clock.now + 3600_000) / 1000) });
      assert.ok(!(h.limiter.check(params) instanceof Promise));
      const third = h.limiter.check(params);
      assert.ok(!(third instanceof Promise));
      assert.equal(third.ok ? 'passed' : third.reason, 'key_rate');
    });
  }
});

describe('limiter: distributed rate limiter shares', () => {
  it('splits an allowance between the live gateway nodes by their load', () => {
    let now = 0;
    const share = new DrlShare('a', () => now);
    share.setLiveNodes(['a', 'b']);
    assert.deepEqual(share.share(), { fraction: 0.5, gateways: 2 }, 'a node that has not reported counts as idle');
    for (let i = 0; i < 30; i++) share.recordRequest();
    share.tick();
    share.receive({ node_id: 'b', load: 45 });
    assert.equal(share.share().fraction, 15 / 60);
    now += 10_000;
    assert.equal(share.share().fraction, 15 / 16, 'a peer silent for too long counts as idle');
  });

  it('counts the nodes it is told about, and forgets the load of a node that left', () => {
    const share = new DrlShare('a', () => 0);
    assert.deepEqual(share.share(), { fraction: 1, gateways: 1 }, 'alone, it enforces the whole allowance');
    share.setLiveNodes(['a', 'b']);
    share.receive({ node_id: 'b', load: 3 });
    assert.deepEqual(share.share(), { fraction: 0.25, gateways: 2 });
    share.setLiveNodes(['a']);
    assert.deepEqual(share.share(), { fraction: 1, gateways: 1 });
    share.setLiveNodes(['a', 'b']);
    assert.deepEqual(share.share(), { fraction: 0.5, gateways: 2 }, 'b rejoined and has not reported yet: idle');
  });

  it('ignores a load report of the wrong shape from the bus', () => {
    const share = new DrlShare('a', () => 0);
    share.setLiveNodes(['a', 'b']);
    for (const bad of [
      null,
      'x',
      { node_id: 'b', load: 'lots' },
      { node_id: 'b', load: Number.NaN },
      { node_id: 'b', load: -5 },
      { load: 7 },
    ])
      share.receive(bad as never);
    assert.deepEqual(share.share(), { fraction: 0.5, gateways: 2 });
  });

  it('with two nodes sharing evenly, 150 requests split between them let about 100 through', async () => {
    const store = new MemoryStore();
    const nodes = ['a', 'b'].map(() => harness('drl', store, { liveNodes: ['node-a', 'node-b'] }));
    const counter = uniqueCounter('drl-two');
    let total = 0;
    for (let i = 0; i < 150; i++) if ((await nodes[i % 2].limiter.check(keyLimit(counter, 100, 10))).ok) total++;
    assert.ok(Math.abs(total - 100) <= 10, `${total} passed`);
    await store.close();
  });

  it('below drl_threshold × gateways requests per second, uses the shared sliding log', async () => {
    const store = new MemoryStore();
    const nodes = ['a', 'b'].map(() => harness('drl', store, { drlThreshold: 5, liveNodes: ['node-a', 'node-b'] }));
    const counter = uniqueCounter('drl-low');
    let total = 0;
    // 9 per second is below 5 × 2 gateways: both nodes count in the one shared log.
    for (let i = 0; i < 20; i++) if ((await nodes[i % 2].limiter.check(keyLimit(counter, 90, 10))).ok) total++;
    assert.equal(total, 20);
    for (let i = 0; i < 100; i++) if ((await nodes[i % 2].limiter.check(keyLimit(counter, 90, 10))).ok) total++;
    assert.equal(total, 90);
    await store.close();
  });
});

const smoothingStores: Array<[string, () => CounterStore]> = [
  ['memory', () => new MemoryStore()],
  ['shared memory', () => new SharedCounterStore(createSharedCounterBuffers(1 << 20))],
];
for (const [storeName, makeStore] of smoothingStores)
  describe(`limiter: smoothing (${storeName})`, () => {
    it('steps the allowance up and down with the request rate, at most once per delay, within threshold and rate', async () => {
      const h = harness('sentinel', makeStore());
      const counter = uniqueCounter('smooth');
      const params = keyLimit(counter, 30, 1, {
        smoothing: { enabled: true, threshold: 10, step: 5, trigger: 0.5, delay: 2 },
      });
      // Ramp up: 12 requests per second for 4 seconds.
      for (let second = 0; second < 4; second++) {
        for (let i = 0; i < 12; i++) {
          await h.limiter.check(params);
          h.clock.now += 1000 / 12;
        }
      }
      const ups = h.events.filter((e) => e.event === 'RateLimitSmoothingUp');
      assert.ok(ups.length >= 1, 'the allowance rose');
      assert.deepEqual(ups[0].meta && [ups[0].meta.from, ups[0].meta.to], [10, 15]);
      for (let i = 1; i < ups.length; i++)
        assert.ok(ups[i].at - ups[i - 1].at >= 2000, 'no two changes within the delay');
      // Quiet: 1 request per second for 10 seconds.
      for (let second = 0; second < 10; second++) {
        await h.limiter.check(params);
        h.clock.now += 1000;
      }
      const downs = h.events.filter((e) => e.event === 'RateLimitSmoothingDown');
      assert.ok(downs.length >= 1, 'the allowance fell');
      assert.equal(downs.at(-1)!.meta!.to, 10, 'never below the threshold');
    });

    it('refuses requests over the current allowance', async () => {
      const h = harness('sentinel', makeStore());
      const params = keyLimit(uniqueCounter('smooth-cap'), 100, 10, {
        smoothing: { enabled: true, threshold: 5, step: 5, trigger: 0.5, delay: 3600 },
      });
      const results = await run(h, params, 20);
      // The first request may step the allowance once (to 10); no further change for an hour.
      assert.equal(passed(results), 10);
    });
  });

describe('limiter: an unreachable Redis', () => {
  it('fails the check with store_unavailable, never a pass or a refusal', async () => {
    const store = new RedisStore('redis://127.0.0.1:1', false);
    const h = harness('sentinel', store);
    const result = await h.limiter.check(keyLimit('x', 10, 1));
    assert.equal(result.ok, false);
    assert.equal((result as { reason: string }).reason, 'store_unavailable');
    await store.close();
  });
});

describe('limiter: refusal events handed back to the caller (events: returned)', () => {
  it('returns the event of a rate or quota refusal instead of emitting it, and still emits for other callers', async () => {
    const h = harness('sentinel', new MemoryStore());
    const rate = { ...keyLimit(uniqueCounter('returned'), 1, 60), events: 'returned' as const };
    const [, refused] = await run(h, rate, 2);
    assert.deepEqual(refused, {
      ok: false,
      reason: 'key_rate',
      rate: (refused as { rate?: unknown }).rate,
      event: {
        event: 'RatelimitExceeded',
        message: 'Key Rate Limit Exceeded',
        meta: { counter: rate.key_limit!.counter },
      },
    });
    const quota: LimiterCheckParams = {
      api_id: 'api',
      org_id: 'org',
      scope: 'org',
      events: 'returned',
      quota: { counter: uniqueCounter('org-quota'), max: 1, renewal_rate: 3600 },
    };
    const [, over] = await run(h, quota, 2);
    assert.ok(!over.ok && over.reason === 'quota');
    assert.deepEqual(over.event?.event, 'OrgQuotaExceeded');
    assert.equal(over.event?.meta.quota_max, 1);
    assert.equal(h.events.length, 0, 'nothing emitted by the limiter');
    // a caller that did not ask gets the event emitted, and none in the result
    const [, emitted] = await run(h, keyLimit(uniqueCounter('emitted'), 1, 60), 2);
    assert.ok(!emitted.ok && emitted.reason === 'key_rate' && emitted.event === undefined);
    assert.deepEqual(
      h.events.map((e) => e.event),
      ['RatelimitExceeded'],
    );
  });
});
