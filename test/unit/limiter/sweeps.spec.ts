import { strict as assert } from 'node:assert';
import { MemoryStore } from '../../../services/limiter/lib/memory-store';
import { Smoother } from '../../../services/limiter/lib/smoothing';

const HOUR = 3600_000;

describe('limiter: in-memory state is swept', () => {
  const clock = { now: 1_700_000_000_000 };
  let store: MemoryStore;
  beforeEach(() => {
    store = new MemoryStore(() => clock.now);
  });
  afterEach(() => store.close());

  it('drops sliding logs, windows and renewed quotas of 10,000 counters that stopped', async () => {
    for (let i = 0; i < 10_000; i++) {
      store.slidingLog(`log-${i}`, 10, 10_000, clock.now, true);
      store.fixedWindow(`window-${i}`, 10, 10_000, clock.now);
      store.quota(`quota-${i}`, 10, 60_000, clock.now);
    }
    store.quota('forever', 10, 0, clock.now);
    assert.equal(store.size, 30_001);
    clock.now += 10_001;
    store.sweep();
    assert.equal(store.size, 10_001, 'logs and windows past their window are gone; quotas still run');
    clock.now += 60_000;
    store.sweep();
    assert.equal(store.size, 1, 'a quota that never renews is state, not garbage');
    assert.deepEqual(await store.quotaState('forever', clock.now), { used: 1, renewsAt: 0 });
  });

  it('keeps a counter still in its window, with its count', async () => {
    for (let i = 0; i < 3; i++) store.slidingLog('busy', 3, 10_000, clock.now, false);
    store.quota('q', 5, 60_000, clock.now);
    clock.now += 9_000;
    store.sweep();
    assert.equal(
      store.slidingLog('busy', 3, 10_000, clock.now, false).allowed,
      false,
      'the sweep did not reset a live log',
    );
    assert.equal((await store.quotaState('q', clock.now)).used, 1);
  });
});

describe('limiter: smoothing states are swept', () => {
  it('forgets counters idle for an hour, and keeps the ones in use', () => {
    const smoother = new Smoother();
    const spec = { enabled: true, threshold: 5, step: 5, trigger: 0.5, delay: 1 };
    let now = 0;
    for (let i = 0; i < 10_000; i++) smoother.allowance(`idle-${i}`, spec, 100, 1000, now);
    now += HOUR - 1000;
    smoother.allowance('busy', spec, 100, 1000, now);
    now += 1001;
    smoother.sweep(now);
    assert.equal(smoother.size, 1);
  });
});
