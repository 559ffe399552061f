import { strict as assert } from 'node:assert';
import { BoundedCache } from '../../../lib/cache/bounded-cache';

describe('auth: BoundedCache (size cap, time to live, least recently used out first)', () => {
  let now = 0;
  const cache = () => new BoundedCache<string, number>(2, () => now);
  beforeEach(() => (now = 1_000));

  it('evicts the least recently used entry, a read counting as a use', () => {
    const c = cache();
    c.set('a', 1, 60_000);
    c.set('b', 2, 60_000);
    assert.equal(c.get('a'), 1);
    c.set('c', 3, 60_000);
    assert.deepEqual([c.get('a'), c.get('b'), c.get('c')], [1, undefined, 3]);
  });

  it('keeps the order right when the newest entry is read again and again', () => {
    const c = cache();
    c.set('a', 1, 60_000);
    c.set('b', 2, 60_000);
    for (let i = 0; i < 3; i++) assert.equal(c.get('b'), 2);
    assert.equal(c.get('a'), 1);
    assert.equal(c.get('a'), 1);
    c.set('c', 3, 60_000);
    assert.deepEqual([c.get('a'), c.get('b'), c.get('c')], [1, undefined, 3]);
  });

  it('forgets an expired entry, and a deleted newest entry is not read back', () => {
    const c = cache();
    c.set('a', 1, 100);
    now += 100;
    assert.equal(c.get('a'), undefined);
    assert.equal(c.size, 0);
    c.set('b', 2, 60_000);
    c.delete('b');
    assert.equal(c.get('b'), undefined);
    c.set('b', 3, 60_000);
    c.deleteWhere((key) => key === 'b');
    assert.equal(c.get('b'), undefined);
    assert.equal(c.size, 0);
  });
});
