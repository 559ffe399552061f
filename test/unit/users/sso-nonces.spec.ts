import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { USERS_MIGRATIONS } from '../../../services/users/lib/migrations';
import { SsoNonces } from '../../../services/users/lib/sso-nonces';

describe('users: single sign-on nonces with a fake clock', () => {
  let db: Knex;
  let clock: number;
  let nonces: SsoNonces;
  const grant = { org_id: 'org', email_address: 'ann@sso.test', group_id: 'g', makes_admin: false };

  beforeEach(async () => {
    db = openDatabase('sqlite::memory:');
    await migrate(db, 'users', USERS_MIGRATIONS);
    clock = 1_000_000;
    nonces = new SsoNonces(db, () => clock);
  });
  afterEach(() => db.destroy());

  it('logs in once within 60 seconds', async () => {
    const nonce = await nonces.issue(grant);
    clock += 59_999;
    assert.deepEqual(await nonces.consume(nonce), grant);
    await assert.rejects(nonces.consume(nonce), { code: 401 });
  });

  it('is invalid after 60 seconds', async () => {
    const nonce = await nonces.issue(grant);
    clock += 60_000;
    await assert.rejects(nonces.consume(nonce), /Single sign-on nonce is not valid/);
  });

  it('does not store the nonce itself', async () => {
    const nonce = await nonces.issue(grant);
    const rows = await db('sso_nonces').select('*');
    assert.ok(rows.every((row: Record<string, unknown>) => !Object.values(row).includes(nonce)));
  });
});
