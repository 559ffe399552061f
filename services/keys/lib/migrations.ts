import type { Migration } from '../../../lib/store/migrate';
import { createRevisionTable } from '../../../lib/store/revision';
import { binaryCollationMigration, useBinaryCollation } from '../../../lib/store/binary-collation';

/** The revision counter shared by keys and policies (see lib/store/revision.ts). */
export const KEYS_REVISION_TABLE = 'keys_revision';

/** The revision counter of organisation sessions, which gateway nodes follow on their own. */
export const ORG_SESSIONS_REVISION_TABLE = 'org_sessions_revision';

export const KEYS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_keys_and_policies',
    async up(db) {
      await db.schema.createTable('keys', (t) => {
        t.string('key_hash', 64).primary();
        // The key itself, only when key hashing is off.
        t.string('key_id', 255).nullable();
        t.string('org_id', 64).notNullable().defaultTo('').index();
        t.string('kind', 16).notNullable();
        t.string('username', 255).nullable();
        t.text('session', 'longtext').notNullable();
        t.string('password_hash', 255).notNullable().defaultTo('');
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
      // Which APIs a key's own access rights name, for the per-API key list.
      await db.schema.createTable('key_apis', (t) => {
        t.string('key_hash', 64).notNullable();
        t.string('api_id', 128).notNullable().index();
        t.primary(['key_hash', 'api_id']);
      });
      await db.schema.createTable('policies', (t) => {
        t.string('id', 64).primary();
        t.string('org_id', 64).notNullable().defaultTo('').index();
        t.text('document', 'longtext').notNullable();
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('key_apis');
      await db.schema.dropTable('keys');
      await db.schema.dropTable('policies');
    },
  },
  {
    name: '002_create_keys_revision',
    async up(db) {
      await createRevisionTable(db, KEYS_REVISION_TABLE);
    },
    async down(db) {
      await db.schema.dropTable(KEYS_REVISION_TABLE);
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('003_binary_collation', ['keys', 'key_apis', 'policies']),
  {
    name: '004_create_org_sessions',
    async up(db) {
      await db.schema.createTable('org_sessions', (t) => {
        t.string('org_id', 64).primary();
        t.text('session', 'longtext').notNullable();
        t.integer('quota_epoch').notNullable().defaultTo(0);
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
      await useBinaryCollation(db, ['org_sessions']);
      await createRevisionTable(db, ORG_SESSIONS_REVISION_TABLE);
    },
    async down(db) {
      await db.schema.dropTable(ORG_SESSIONS_REVISION_TABLE);
      await db.schema.dropTable('org_sessions');
    },
  },
];
