import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { ORGS_MIGRATIONS } from '../../../services/orgs/lib/migrations';
import { createTestDatabase, type TestDatabase } from '../../support/mysql';

const org = (id: string, name: string) => ({ id, owner_name: name, owner_slug: name.toLowerCase(), document: JSON.stringify({ id, owner_name: name }), created_at: 1, updated_at: 1 });

describe('store: the binary-collation migration on a MySQL/MariaDB database that already holds rows', () => {
  let database: TestDatabase;
  let db: Knex;

  before(async function () {
    if (!process.env.GW_TEST_MYSQL) this.skip();
    database = await createTestDatabase(process.env.GW_TEST_MYSQL);
    db = openDatabase(database.url);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps the rows and then tells ids that differ only in case apart', async () => {
    // The schema as it was before the migration, with a row in it.
    await migrate(db, 'orgs', ORGS_MIGRATIONS.filter((m) => m.name !== '004_binary_collation'));
    await db('organisations').insert(org('acme', 'Lower'));
    await db('org_settings').insert({ org_id: 'acme', additional_permissions: '{"a":"b"}' });
    assert.equal((await db('organisations').where('id', 'ACME')).length, 1, 'case-insensitive before');

    await migrate(db, 'orgs', ORGS_MIGRATIONS);

    assert.deepEqual((await db('organisations').select('id', 'owner_name')).map((r) => ({ ...r })), [{ id: 'acme', owner_name: 'Lower' }]);
    assert.deepEqual((await db('org_settings').where('org_id', 'acme').select('additional_permissions')).map((r) => r.additional_permissions), ['{"a":"b"}']);
    assert.equal((await db('organisations').where('id', 'ACME')).length, 0);
    await db('organisations').insert(org('ACME', 'Upper'));
    await db('org_settings').insert({ org_id: 'ACME', additional_permissions: '{}' });
    assert.deepEqual((await db('organisations').where('id', 'ACME').select('owner_name')).map((r) => r.owner_name), ['Upper']);
    assert.deepEqual((await db('organisations').where('id', 'acme').select('owner_name')).map((r) => r.owner_name), ['Lower']);
    // Trailing spaces count, as on SQLite.
    assert.equal((await db('organisations').where('id', 'acme ')).length, 0);
  });
});
