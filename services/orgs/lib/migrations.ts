import type { Migration } from '../../../lib/store/migrate';
import { createRevisionTable } from '../../../lib/store/revision';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

export const ORGS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_organisations',
    async up(db) {
      await db.schema.createTable('organisations', (t) => {
        t.string('id', 64).primary();
        t.string('owner_name', 255).notNullable();
        t.string('owner_slug', 255).notNullable();
        t.text('document', 'longtext').notNullable();
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('organisations');
    },
  },
  {
    name: '002_create_org_settings',
    async up(db) {
      // Stored once an organisation changes them; until then the configured defaults apply.
      await db.schema.createTable('org_settings', (t) => {
        t.string('org_id', 64).primary();
        t.text('additional_permissions', 'longtext').nullable();
        t.text('open_policy', 'longtext').nullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('org_settings');
    },
  },
  {
    name: '003_create_org_settings_revision',
    async up(db) {
      // Numbers each change of policy rules or organisations, for the dashboard nodes' caches.
      await createRevisionTable(db, 'org_settings_revision');
    },
    async down(db) {
      await db.schema.dropTable('org_settings_revision');
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('004_binary_collation', ['organisations', 'org_settings']),
];
