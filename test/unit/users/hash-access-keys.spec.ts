import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { hashSecret } from '../../../lib/secret-hash';
import { USERS_MIGRATIONS } from '../../../services/users/lib/migrations';

describe('users: migration 004 hashes plaintext access keys', () => {
  let db: Knex;
  const user = (id: string, key: string) => ({
    id,
    org_id: 'org',
    email_address: `${id}@keys.test`,
    active: true,
    access_key: key,
    user_permissions: '{}',
    created_at: 1,
    updated_at: 1,
  });

  beforeEach(async () => {
    db = openDatabase('sqlite::memory:');
    await migrate(
      db,
      'users',
      USERS_MIGRATIONS.filter((migration) => migration.name < '004'),
    );
    await db('users').insert([user('one', 'key-one'), user('two', 'key-two')]);
  });
  afterEach(() => db.destroy());

  it('finishes a run that stopped halfway (MySQL does not roll DDL back)', async () => {
    // What an interrupted first run leaves: the new column, one row hashed, the old column still there.
    await db.schema.alterTable('users', (t) => void t.string('access_key_hash', 64).nullable());
    await db('users')
      .where('id', 'one')
      .update({ access_key_hash: hashSecret('key-one') });

    await migrate(db, 'users', USERS_MIGRATIONS);

    assert.equal(await db.schema.hasColumn('users', 'access_key'), false);
    const rows = await db('users').select('id', 'access_key_hash').orderBy('id');
    assert.deepEqual(rows, [
      { id: 'one', access_key_hash: hashSecret('key-one') },
      { id: 'two', access_key_hash: hashSecret('key-two') },
    ]);
  });

  it('keeps access key hashes unique', async () => {
    await migrate(db, 'users', USERS_MIGRATIONS);
    await assert.rejects(
      db('users')
        .where('id', 'two')
        .update({ access_key_hash: hashSecret('key-one') }),
      /UNIQUE/,
    );
  });
});
