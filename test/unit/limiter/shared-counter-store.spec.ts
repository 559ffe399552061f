import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LimiterCheckParams } from '../../../contracts/limiter/actions';
import { DrlShare } from '../../../services/limiter/lib/drl-share';
import { MemoryStore } from '../../../services/limiter/lib/memory-store';
import { RateLimiter } from '../../../services/limiter/lib/rate-limiter';
import {
  SharedCounterStore,
  createSharedCounterBuffers,
  type SharedCounterBuffers,
} from '../../../services/limiter/lib/shared/shared-counter-store';
import { Smoother } from '../../../services/limiter/lib/smoothing';
import { TokenBuckets } from '../../../services/limiter/lib/token-buckets';

const WORKER = join(__dirname, '..', '..', 'support', 'processes', 'shared-counter-worker.js');
const T0 = 1_700_000_000_000;

/** mulberry32: the same sequence for the same seed, so a failure can be replayed */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('limiter: the shared counter store answers as the memory store', () => {
  const scenarios = [
    { name: 'a few counters', seed: 1, counters: 6, slots: 64 },
    { name: 'many counters in a small table (collisions, removals, compaction)', seed: 2, counters: 300, slots: 2048 },
    { name: 'another seed', seed: 3, counters: 40, slots: 256 },
  ];
  for (const scenario of scenarios) {
    it(`${scenario.name}: identical answers over 20,000 random steps`, async () => {
      const random = prng(scenario.seed);
      const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
      const clock = { now: T0 };
      const memory = new MemoryStore(() => clock.now);
      const shared = new SharedCounterStore(createSharedCounterBuffers(4 << 20, scenario.slots), () => clock.now);
      // Each counter keeps its settings mostly, as a policy does, but limits sometimes change (smoothing).
      const settings = Array.from({ length: scenario.counters }, () => ({
        limit: pick([1, 2, 3, 5, 10, 40]),
        windowMs: pick([1_000, 5_000, 60_000, 600_000]),
        renewalMs: pick([0, 3_000, 60_000]),
      }));
      let refused = 0;
      let longestLog = 0;
      for (let step = 0; step < 20_000; step++) {
        clock.now += random() < 0.002 ? Math.floor(random() * 120_000) : Math.floor(random() * 20);
        // Counter 0 is a hot sentinel log with a 10-minute window: it fills past its 1,024-entry cap.
        const hot = random() < 0.25;
        const index = hot ? 0 : Math.floor(random() * scenario.counters);
        const counter = `counter-${index}`;
        const { renewalMs } = settings[index];
        const windowMs = index === 0 ? 600_000 : settings[index].windowMs;
        const limit = random() < 0.05 ? pick([1, 4, 20]) : settings[index].limit;
        const op = hot ? 1 : Math.floor(random() * 6);
        const at = `step ${step}, op ${op}, ${counter}`;
        if (op === 0 || op === 1) {
          const expected = memory.slidingLog(counter, limit, windowMs, clock.now, op === 1);
          assert.deepEqual(shared.slidingLog(counter, limit, windowMs, clock.now, op === 1), expected, at);
          if (!expected.allowed) refused++;
          longestLog = Math.max(longestLog, expected.count);
        } else if (op === 2) {
          assert.deepEqual(
            shared.fixedWindow(counter, limit, windowMs, clock.now),
            memory.fixedWindow(counter, limit, windowMs, clock.now),
            at,
          );
        } else if (op === 3) {
          assert.deepEqual(
            shared.quota(counter, limit, renewalMs, clock.now),
            memory.quota(counter, limit, renewalMs, clock.now),
            at,
          );
        } else if (op === 4) {
          assert.deepEqual(
            await shared.quotaState(counter, clock.now),
            await memory.quotaState(counter, clock.now),
            at,
          );
        } else if (random() < 0.05) {
          memory.sweep();
          shared.sweep();
          assert.equal(shared.size, memory.size, `${at}: the same counters survive a sweep`);
        }
      }
      assert.ok(refused > 1000, `the sequence exercised refusals (${refused})`);
      assert.equal(longestLog, 1024, 'a sentinel log reached its cap, max(2 × limit, 1024)');
      await memory.close();
      await shared.close();
    });
  }
});

describe('limiter: the shared counter store is exact across worker threads', function () {
  this.timeout(60_000);

  async function hammer(
    buffers: SharedCounterBuffers,
    work: { algorithm: string; counters: string[]; attemptsPerThread: number; limit: number; sweepEvery?: number },
  ): Promise<{ allowed: number; cpuMicros: number }> {
    const startLine = new SharedArrayBuffer(4);
    const workers = Array.from(
      { length: 4 },
      () =>
        new Worker(WORKER, {
          workerData: { buffers, startLine, windowMs: 60_000, ...work, attempts: work.attemptsPerThread },
        }),
    );
    const results = workers.map(
      (worker) =>
        new Promise<{ allowed: number; cpuMicros: number }>((resolve, reject) => {
          worker.on('message', (message) => {
            if (!message.ready) resolve(message);
          });
          worker.on('error', reject);
        }),
    );
    // Every thread waits at the start line, so the checks really run at once.
    await Promise.all(workers.map((worker) => once(worker, 'message')));
    Atomics.store(new Int32Array(startLine), 0, 1);
    Atomics.notify(new Int32Array(startLine), 0);
    const reports = await Promise.all(results);
    await Promise.all(workers.map((worker) => worker.terminate()));
    return {
      allowed: reports.reduce((sum, report) => sum + report.allowed, 0),
      cpuMicros: reports.reduce((sum, report) => sum + report.cpuMicros, 0),
    };
  }

  for (const algorithm of ['sliding log', 'sentinel', 'fixed window', 'quota']) {
    it(`${algorithm}: 4 threads, 400 attempts on a 100 per 60 s counter, exactly 100 allowed`, async () => {
      const buffers = createSharedCounterBuffers(1 << 20);
      const { allowed } = await hammer(buffers, { algorithm, counters: ['one'], attemptsPerThread: 100, limit: 100 });
      assert.equal(allowed, 100);
      if (algorithm === 'quota') {
        const store = new SharedCounterStore(buffers);
        assert.equal((await store.quotaState('one', Date.now())).used, 100);
        await store.close();
      }
    });

    it(`${algorithm}: 4 threads × 50,000 attempts over 10 counters with sweeps running, exactly 10 × 2,000 allowed`, async () => {
      const counters = Array.from({ length: 10 }, (_, i) => `hot-${i}`);
      const { allowed, cpuMicros } = await hammer(createSharedCounterBuffers(4 << 20), {
        algorithm,
        counters,
        attemptsPerThread: 50_000,
        limit: 2_000,
        sweepEvery: 5_000,
      });
      assert.equal(allowed, 20_000);
      console.log(
        `      ${algorithm}: ${((cpuMicros * 1000) / 200_000).toFixed(0)} ns CPU per check, 4 threads contending`,
      );
    });
  }

  it('4 threads adding the same 2,000 new counters at once make one counter of each', async () => {
    const buffers = createSharedCounterBuffers(1 << 20);
    const counters = Array.from({ length: 2_000 }, (_, i) => `new-${i}`);
    const { allowed } = await hammer(buffers, { algorithm: 'quota', counters, attemptsPerThread: 2_000, limit: 1 });
    assert.equal(allowed, 2_000, 'each counter allowed its one request once');
    const store = new SharedCounterStore(buffers);
    assert.equal(store.size, 2_000);
    await store.close();
  });
});

describe('limiter: the shared counter store is bounded', () => {
  const clock = { now: T0 };
  const quotaCheck = (counter: string): LimiterCheckParams => ({
    api_id: 'api',
    org_id: 'org',
    key_hash: 'k',
    quota: { counter, max: 5, renewal_rate: 60 },
  });
  const limiterOn = (store: SharedCounterStore) =>
    new RateLimiter({
      algorithm: 'sentinel',
      drlThreshold: 5,
      store,
      buckets: new TokenBuckets(),
      drl: new DrlShare('node-a', () => clock.now),
      smoother: new Smoother(),
      now: () => clock.now,
      emit: () => undefined,
    });

  it('a full table answers store_unavailable (never a pass) until its counters expire', async () => {
    const store = new SharedCounterStore(createSharedCounterBuffers(1 << 16, 16), () => clock.now);
    const limiter = limiterOn(store);
    // 16 slots hold 12 counters.
    for (let i = 0; i < 12; i++) assert.equal((await limiter.check(quotaCheck(`live-${i}`))).ok, true);
    const refused = await limiter.check(quotaCheck('one-too-many'));
    assert.deepEqual(
      { ok: refused.ok, reason: (refused as { reason: string }).reason },
      { ok: false, reason: 'store_unavailable' },
    );
    assert.equal((await limiter.check(quotaCheck('live-3'))).ok, true, 'the counters held still answer');
    clock.now += 60_001;
    assert.equal((await limiter.check(quotaCheck('one-too-many'))).ok, true, 'a sweep made room');
    assert.equal(store.size, 1);
    await store.close();
  });

  it('a full log arena answers store_unavailable until its logs expire', async () => {
    // 16 KB of timestamps: about 2,000 entries, so 100-entry logs fill it quickly.
    const buffers = { ...createSharedCounterBuffers(1 << 16), logs: new SharedArrayBuffer(16 << 10) };
    const store = new SharedCounterStore(buffers, () => clock.now);
    const fill = (counter: string, now: number) => {
      for (let n = 0; n < 100; n++) assert.equal(store.slidingLog(counter, 100, 10_000, now, false).allowed, true);
    };
    assert.throws(() => {
      for (let i = 0; i < 100; i++) fill(`log-${i}`, T0);
    }, /shared log arena is full/);
    assert.throws(() => fill('after', T0), /shared log arena is full/, 'still full: nothing had expired');
    fill('after', T0 + 10_001);
    assert.equal(store.size, 1, 'the sweep dropped the expired logs, and the half-made one');
    await store.close();
  });

  it('a long run of 100,000 distinct keys keeps only the live counters and their logs', async function () {
    // 300,000 new counters through a table of 3,072: about 7 s on an idle core, more on a busy CI machine
    this.timeout(60_000);
    const now = { value: T0 };
    const store = new SharedCounterStore(createSharedCounterBuffers(1 << 20, 4096), () => now.value);
    // 200 new keys a second, each with a 1 s log, window and quota: about 600 live counters, while
    // the table holds 3,072. Sweeps run when it fills (and would every minute, on the timer).
    for (let key = 0; key < 100_000; key++) {
      now.value += 5;
      assert.equal(store.slidingLog(`log-${key}`, 10, 1_000, now.value, true).allowed, true);
      assert.equal(store.fixedWindow(`window-${key}`, 10, 1_000, now.value).allowed, true);
      assert.equal(store.quota(`quota-${key}`, 10, 1_000, now.value).allowed, true);
    }
    store.sweep();
    // The keys of the last 995 ms: 200 of each kind, each log one smallest ring (4) after the header (1).
    assert.equal(store.size, 600);
    assert.equal(store.logEntriesUsed, 1 + 200 * 4);
    await store.close();
  });
});
