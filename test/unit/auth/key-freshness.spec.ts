import { strict as assert } from 'node:assert';
import { KeyFreshness } from '../../../services/auth/lib/key-freshness';

describe('auth: KeyFreshness', () => {
  let flushes: number;
  let storeRevision: number;
  let freshness: KeyFreshness;

  beforeEach(() => {
    flushes = 0;
    storeRevision = 0;
    freshness = new KeyFreshness(
      () => flushes++,
      async () => storeRevision,
      { warn: () => undefined },
    );
  });

  it('drops every cached session on a revision gap, not on a change that follows on', () => {
    freshness.announced(4);
    assert.equal(flushes, 1, 'the first revision known');
    freshness.followed(5);
    freshness.followed(5);
    freshness.followed(3);
    assert.equal(flushes, 1);
    freshness.followed(7);
    assert.equal(flushes, 2);
    assert.equal(freshness.revision, 7);
  });

  it('drops every cached session when the store reports another revision', async () => {
    freshness.announced(2);
    storeRevision = 2;
    await freshness.check();
    assert.equal(flushes, 1);
    storeRevision = 4;
    await freshness.check();
    assert.equal(flushes, 2);
    assert.equal(freshness.revision, 4);
  });
});
