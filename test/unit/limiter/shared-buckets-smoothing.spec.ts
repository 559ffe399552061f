import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SmoothingSpec } from '../../../contracts/limiter/actions';
import {
  SharedCounterStore,
  createSharedCounterBuffers,
} from '../../../services/limiter/lib/shared/shared-counter-store';
import { SharedSmoother } from '../../../services/limiter/lib/shared/shared-smoother';
import { SharedTokenBuckets } from '../../../services/limiter/lib/shared/shared-token-buckets';
import { Smoother } from '../../../services/limiter/lib/smoothing';
import { TokenBuckets } from '../../../services/limiter/lib/token-buckets';

const WORKER = join(__dirname, '..', '..', 'support', 'processes', 'shared-limiter-worker.js');
const T0 = 1_700_000_000_000;
const THREADS = 4;

/** mulberry32: the same sequence for the same seed, so a failure can be replayed */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('limiter: the shared token buckets and smoother answer as the in-memory ones', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: identical answers over 20,000 random steps, sweeps included`, () => {
      const random = prng(seed);
      const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
      const clock = { now: T0 };
      const shared = new SharedCounterStore(createSharedCounterBuffers(4 << 20, 1024), () => clock.now);
      const pairs = {
        buckets: [new TokenBuckets(), new SharedTokenBuckets(shared)] as const,
        smoothers: [new Smoother(), new SharedSmoother(shared)] as const,
      };
      const settings = Array.from({ length: 30 }, () => ({
        capacity: pick([1, 2.5, 10, 40]),
        // The in-memory buckets are swept after an hour idle: longer windows would not be full by then.
        windowMs: pick([1_000, 10_000, 60_000, 3600_000]),
        rate: pick([20, 50, 100]),
        spec: { enabled: true, threshold: pick([5, 10]), step: pick([1, 5]), trigger: 0.5, delay: pick([0, 1, 5]) },
      }));
      const seen = { refused: 0, ups: 0, downs: 0 };
      for (let step = 0; step < 20_000; step++) {
        clock.now += random() < 0.002 ? Math.floor(random() * 4000_000) : Math.floor(random() * 40);
        const index = random() < 0.3 ? 0 : Math.floor(random() * settings.length);
        const counter = `counter-${index}`;
        const { windowMs, rate, spec } = settings[index];
        // The DRL share, and so the capacity, moves now and then.
        const capacity = random() < 0.05 ? pick([1, 3, 20]) : settings[index].capacity;
        const at = `step ${step}, ${counter}`;
        const op = random();
        if (op < 0.5) {
          const expected = pairs.buckets[0].take(counter, capacity, windowMs, clock.now);
          assert.deepEqual(pairs.buckets[1].take(counter, capacity, windowMs, clock.now), expected, at);
          if (!expected.allowed) seen.refused++;
        } else if (op < 0.995) {
          const expected = pairs.smoothers[0].allowance(counter, spec, rate, windowMs, clock.now);
          assert.deepEqual(pairs.smoothers[1].allowance(counter, spec, rate, windowMs, clock.now), expected, at);
          if (expected.change?.direction === 'up') seen.ups++;
          if (expected.change?.direction === 'down') seen.downs++;
        } else {
          pairs.buckets[0].sweep(clock.now, 3600_000);
          pairs.smoothers[0].sweep(clock.now);
          shared.sweep(clock.now);
        }
      }
      assert.ok(seen.refused > 1000 && seen.ups > 100 && seen.downs > 100, `exercised: ${JSON.stringify(seen)}`);
      void shared.close();
    });
  }

  it('forgets a smoothing state idle for an hour, as the in-memory smoother does', () => {
    const clock = { now: T0 };
    const shared = new SharedCounterStore(createSharedCounterBuffers(1 << 20, 64), () => clock.now);
    const smoother = new SharedSmoother(shared);
    const spec: SmoothingSpec = { enabled: true, threshold: 5, step: 5, trigger: 0.5, delay: 0 };
    for (let i = 0; i < 20; i++) smoother.allowance('idle', spec, 100, 1000, clock.now);
    assert.equal(smoother.allowance('idle', spec, 100, 1000, clock.now).allowance, 25);
    clock.now += 3600_000;
    shared.sweep();
    assert.equal(shared.size, 1, 'an hour to the millisecond: still held');
    clock.now += 1;
    shared.sweep();
    assert.equal(shared.size, 0);
    assert.equal(smoother.allowance('idle', spec, 100, 1000, clock.now).allowance, 5, 'starts again at the threshold');
    void shared.close();
  });
});

describe('limiter: the shared token buckets and smoother are exact across worker threads', function () {
  this.timeout(60_000);

  type Phase = { now: number; attempts: number };

  function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void } {
    let resolve!: (value: T) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<T>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    return { promise, resolve, reject };
  }

  /** THREADS threads run each phase at once; the answers of each phase, all threads together. */
  async function hammer(work: Record<string, unknown> & { phases: Phase[] }): Promise<unknown[][]> {
    const buffers = createSharedCounterBuffers(1 << 20);
    const startLine = new SharedArrayBuffer(4);
    const workers = Array.from(
      { length: THREADS },
      () => new Worker(WORKER, { workerData: { buffers, startLine, counter: 'hot', ...work } }),
    );
    const phases: unknown[][] = work.phases.map(() => []);
    const reported = work.phases.map(() => 0);
    const phaseDone = work.phases.map(() => deferred<void>());
    const failed = deferred<never>();
    for (const worker of workers) {
      worker.on('error', failed.reject);
      worker.on('message', (message: { ready?: true; phase: number; answers: unknown[] }) => {
        if (message.ready) return;
        phases[message.phase].push(...message.answers);
        if (++reported[message.phase] === THREADS) phaseDone[message.phase].resolve();
      });
    }
    await Promise.race([Promise.all(workers.map((worker) => once(worker, 'message'))), failed.promise]);
    const start = new Int32Array(startLine);
    for (let phase = 0; phase < work.phases.length; phase++) {
      Atomics.store(start, 0, phase + 1);
      await Promise.race([phaseDone[phase].promise, failed.promise]);
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
    return phases;
  }

  /** What one in-memory instance answers to all the phase's attempts of every thread. */
  function oneNode(phases: Phase[], check: (now: number) => unknown): unknown[][] {
    return phases.map((phase) => Array.from({ length: phase.attempts * THREADS }, () => check(phase.now)));
  }

  const sorted = (answers: unknown[]) => answers.map((answer) => JSON.stringify(answer)).sort();

  const allowed = (answers: unknown[]) => answers.filter((answer) => (answer as { allowed: boolean }).allowed).length;

  it('a token bucket of 100 per minute (a rate above the DRL threshold): 400 attempts, then again after 15 s and 75 s', async () => {
    const work = { kind: 'bucket', capacity: 100, windowMs: 60_000 };
    const phases = [
      { now: T0, attempts: 100 },
      { now: T0 + 15_000, attempts: 100 },
      { now: T0 + 75_000, attempts: 100 },
    ];
    const threads = await hammer({ ...work, phases });
    const buckets = new TokenBuckets();
    const expected = oneNode(phases, (now) => buckets.take('hot', work.capacity, work.windowMs, now));
    assert.deepEqual(threads.map(allowed), [100, 25, 100]);
    for (let phase = 0; phase < phases.length; phase++)
      assert.deepEqual(sorted(threads[phase]), sorted(expected[phase]), `phase ${phase}: the same answers`);
  });

  it('a token bucket of 10,000 under 4 × 5,000 contending takes: exactly 10,000, the same answers as one node', async () => {
    const work = { kind: 'bucket', capacity: 10_000, windowMs: 60_000 };
    const phases = [{ now: T0, attempts: 5_000 }];
    const threads = await hammer({ ...work, phases });
    const buckets = new TokenBuckets();
    const expected = oneNode(phases, (now) => buckets.take('hot', work.capacity, work.windowMs, now));
    assert.equal(allowed(threads[0]), 10_000);
    assert.deepEqual(sorted(threads[0]), sorted(expected[0]));
  });

  const changes = (answers: unknown[], direction: string) =>
    answers.filter((answer) => (answer as { change?: { direction: string } }).change?.direction === direction);

  it('smoothing: the allowance steps up under 400 requests and back down after the window, as one node steps it', async () => {
    const spec: SmoothingSpec = { enabled: true, threshold: 10, step: 5, trigger: 0.5, delay: 0 };
    const work = { kind: 'smoothing', spec, rate: 100, windowMs: 1000 };
    const phases = [
      { now: T0, attempts: 100 },
      { now: T0 + 2000, attempts: 15 },
    ];
    const threads = await hammer({ ...work, phases });
    const smoother = new Smoother();
    const expected = oneNode(phases, (now) => smoother.allowance('hot', spec, work.rate, work.windowMs, now));
    // 10 → 100 in 18 steps of 5 under load; down from 100 by one step per quiet request.
    assert.equal(changes(threads[0], 'up').length, 18);
    assert.equal(changes(threads[1], 'down').length, changes(expected[1], 'down').length);
    assert.ok(changes(threads[1], 'down').length >= 10);
    for (let phase = 0; phase < phases.length; phase++)
      assert.deepEqual(sorted(threads[phase]), sorted(expected[phase]), `phase ${phase}: the same answers`);
  });

  it('smoothing under 4 × 5,000 contending requests: every step of 5 from 10 to 10,000, as one node', async () => {
    const spec: SmoothingSpec = { enabled: true, threshold: 10, step: 5, trigger: 0.5, delay: 0 };
    const work = { kind: 'smoothing', spec, rate: 10_000, windowMs: 60_000 };
    const phases = [{ now: T0, attempts: 5_000 }];
    const threads = await hammer({ ...work, phases });
    const smoother = new Smoother();
    const expected = oneNode(phases, (now) => smoother.allowance('hot', spec, work.rate, work.windowMs, now));
    assert.equal(changes(threads[0], 'up').length, (10_000 - 10) / 5);
    assert.deepEqual(sorted(threads[0]), sorted(expected[0]));
  });
});
