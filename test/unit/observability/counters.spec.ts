import { strict as assert } from 'node:assert';
import { count, read, valueOf } from '../../../lib/observability/counters';

describe('observability: counters', () => {
  it('counts per label set, sums over series, and reads a snapshot', () => {
    const name = `test_counter_${process.hrtime.bigint()}`;
    assert.equal(valueOf(name), 0);
    count(name, { reason: 'full', api: 'a' });
    count(name, { api: 'a', reason: 'full' }, 2);
    count(name, { reason: 'unreachable' });
    assert.equal(valueOf(name, { reason: 'full', api: 'a' }), 3);
    assert.equal(valueOf(name, { reason: 'unreachable' }), 1);
    assert.equal(valueOf(name), 4);
    const reading = read().find((one) => one.name === name);
    assert.deepEqual(
      reading?.series.map((s) => [s.labels, s.value]),
      [
        [{ reason: 'full', api: 'a' }, 3],
        [{ reason: 'unreachable' }, 1],
      ],
    );
  });
});
