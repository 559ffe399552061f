import type { Migration } from '../../../lib/store/migrate';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

export const WEBHOOKS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_hooks_and_deliveries',
    async up(db) {
      await db.schema.createTable('hooks', (t) => {
        t.string('id', 24).primary();
        t.string('org_id', 64).notNullable().index();
        t.text('document', 'longtext').notNullable();
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
      await db.schema.createTable('hook_deliveries', (t) => {
        t.string('id', 24).primary();
        t.string('hook_id', 64).notNullable().index();
        t.string('org_id', 64).notNullable();
        t.string('api_id', 128).notNullable();
        t.string('event', 64).notNullable();
        t.string('status', 16).notNullable();
        t.integer('attempts').notNullable();
        t.integer('response_code').notNullable();
        t.text('error').notNullable();
        t.bigInteger('created_at').notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('hook_deliveries');
      await db.schema.dropTable('hooks');
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('002_binary_collation', ['hooks', 'hook_deliveries']),
];
