import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { HookStore } from '../../../services/webhooks/lib/hook-store';
import { WEBHOOKS_MIGRATIONS } from '../../../services/webhooks/lib/migrations';

describe('webhooks: a webhook must fit the hooks table (SQLite does not enforce lengths)', () => {
  let db: Knex;
  let store: HookStore;

  beforeEach(async () => {
    db = openDatabase('sqlite::memory:');
    await migrate(db, 'webhooks', WEBHOOKS_MIGRATIONS);
    store = new HookStore(db, 10);
  });
  afterEach(() => db.destroy());

  it('refuses an org_id over 64 characters with 400 naming the field, and stores nothing', async () => {
    await assert.rejects(
      store.create({ name: 'n', target_path: 'http://127.0.0.1:9/x', org_id: 'o'.repeat(65) }, undefined),
      (err: { type?: string; code?: number; message?: string }) => {
        assert.equal(err.type, 'GW_ERR_WEBHOOKS_INVALID');
        assert.equal(err.code, 400);
        assert.equal(err.message, 'org_id is longer than 64 characters');
        return true;
      },
    );
    assert.equal((await db('hooks').count({ n: '*' }))[0].n, 0);
    const fits = await store.create(
      { name: 'n', target_path: 'http://127.0.0.1:9/x', org_id: 'o'.repeat(64) },
      undefined,
    );
    assert.equal(fits.org_id.length, 64);
  });
});
