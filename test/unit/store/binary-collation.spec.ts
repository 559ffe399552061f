import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { ANALYTICS_MIGRATIONS } from '../../../services/analytics/lib/migrations';
import { APIS_MIGRATIONS } from '../../../services/apis/lib/migrations';
import { CERTS_MIGRATIONS } from '../../../services/certs/lib/migrations';
import { KEYS_MIGRATIONS } from '../../../services/keys/lib/migrations';
import { OAUTH_MIGRATIONS } from '../../../services/oauth/lib/migrations';
import { ORGS_MIGRATIONS } from '../../../services/orgs/lib/migrations';
import { USERS_MIGRATIONS } from '../../../services/users/lib/migrations';
import { WEBHOOKS_MIGRATIONS } from '../../../services/webhooks/lib/migrations';
import { createTestDatabase, type TestDatabase } from '../../support/mysql';

const org = (id: string, name: string) => ({
  id,
  owner_name: name,
  owner_slug: name.toLowerCase(),
  document: JSON.stringify({ id, owner_name: name }),
  created_at: 1,
  updated_at: 1,
});

/** A database of its own on GW_TEST_MYSQL for the enclosing describe (skipped without it). */
function freshMysqlDatabase(): { db: Knex } {
  let database: TestDatabase | undefined;
  const handle = { db: undefined as unknown as Knex };
  before(async function () {
    if (!process.env.GW_TEST_MYSQL) this.skip();
    database = await createTestDatabase(process.env.GW_TEST_MYSQL);
    handle.db = openDatabase(database.url);
  });
  after(async () => {
    await handle.db?.destroy();
    await database?.drop();
  });
  return handle;
}

describe('store: the binary-collation migration on a MySQL/MariaDB database that already holds rows', () => {
  const mysql = freshMysqlDatabase();

  it('keeps the rows and then tells ids that differ only in case apart', async () => {
    // The schema as it was before the migration, with a row in it.
    await migrate(
      mysql.db,
      'orgs',
      ORGS_MIGRATIONS.filter((m) => m.name !== '004_binary_collation'),
    );
    await mysql.db('organisations').insert(org('acme', 'Lower'));
    await mysql.db('org_settings').insert({ org_id: 'acme', additional_permissions: '{"a":"b"}' });
    assert.equal((await mysql.db('organisations').where('id', 'ACME')).length, 1, 'case-insensitive before');

    await migrate(mysql.db, 'orgs', ORGS_MIGRATIONS);

    assert.deepEqual(
      (await mysql.db('organisations').select('id', 'owner_name')).map((r) => ({ ...r })),
      [{ id: 'acme', owner_name: 'Lower' }],
    );
    assert.deepEqual(
      (await mysql.db('org_settings').where('org_id', 'acme').select('additional_permissions')).map(
        (r) => r.additional_permissions,
      ),
      ['{"a":"b"}'],
    );
    assert.equal((await mysql.db('organisations').where('id', 'ACME')).length, 0);
    await mysql.db('organisations').insert(org('ACME', 'Upper'));
    await mysql.db('org_settings').insert({ org_id: 'ACME', additional_permissions: '{}' });
    assert.deepEqual(
      (await mysql.db('organisations').where('id', 'ACME').select('owner_name')).map((r) => r.owner_name),
      ['Upper'],
    );
    assert.deepEqual(
      (await mysql.db('organisations').where('id', 'acme').select('owner_name')).map((r) => r.owner_name),
      ['Lower'],
    );
    // Trailing spaces count, as on SQLite.
    assert.equal((await mysql.db('organisations').where('id', 'acme ')).length, 0);
  });
});

describe('store: every table of every service compares text byte for byte on MySQL/MariaDB', () => {
  const mysql = freshMysqlDatabase();

  it('leaves no text column under a case-insensitive collation (a new table must call useBinaryCollation)', async () => {
    const services = {
      analytics: ANALYTICS_MIGRATIONS,
      apis: APIS_MIGRATIONS,
      certs: CERTS_MIGRATIONS,
      keys: KEYS_MIGRATIONS,
      oauth: OAUTH_MIGRATIONS,
      orgs: ORGS_MIGRATIONS,
      users: USERS_MIGRATIONS,
      webhooks: WEBHOOKS_MIGRATIONS,
    };
    for (const [service, migrations] of Object.entries(services)) await migrate(mysql.db, service, migrations);
    const [columns] = (await mysql.db.raw(
      "SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLLATION_NAME AS collation FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME IS NOT NULL AND TABLE_NAME NOT LIKE 'gw\\_migrations\\_%'",
    )) as [Array<{ t: string; c: string; collation: string }>];
    assert.ok(
      columns.some((row) => row.t === 'apis' && row.c === 'api_id'),
      'the query sees the tables',
    );
    assert.deepEqual(
      columns.filter((row) => !row.collation.endsWith('_bin')).map((row) => `${row.t}.${row.c} (${row.collation})`),
      [],
    );
  });
});
