import type { Migration } from '../../../lib/store/migrate';

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
];
