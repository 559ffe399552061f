import { parseJson, type Migration } from '../../../lib/store/migrate';
import { createRevisionTable } from '../../../lib/store/revision';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

/** The revision counter of API definitions (see lib/store/revision.ts). */
export const APIS_REVISION_TABLE = 'apis_revision';

export const APIS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_apis',
    async up(db) {
      await db.schema.createTable('apis', (t) => {
        t.string('id', 24).primary();
        t.string('api_id', 128).notNullable().unique();
        t.string('org_id', 64).notNullable().defaultTo('').index();
        t.string('name', 255).notNullable();
        // Listen path and domain, normalised, so the uniqueness check is one indexed query.
        t.string('listen_path', 500).notNullable();
        t.string('domain', 255).notNullable().defaultTo('');
        t.text('definition', 'longtext').notNullable();
        t.text('hook_references', 'longtext').notNullable();
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
        // Unique so two concurrent creates cannot both take a path (the service checks first for a clear message).
        t.unique(['listen_path', 'domain']);
      });
    },
    async down(db) {
      await db.schema.dropTable('apis');
    },
  },
  {
    name: '002_create_apis_revision',
    async up(db) {
      await createRevisionTable(db, APIS_REVISION_TABLE);
    },
    async down(db) {
      await db.schema.dropTable(APIS_REVISION_TABLE);
    },
  },
  {
    // The OAS document of an API created in that form (null for classic APIs); gateways never read it.
    name: '003_add_apis_oas',
    async up(db) {
      await db.schema.alterTable('apis', (t) => {
        t.text('oas', 'longtext').nullable();
      });
    },
    async down(db) {
      await db.schema.alterTable('apis', (t) => {
        t.dropColumn('oas');
      });
    },
  },
  {
    // Whether the API is a streams API (its OAS document carries `x-gw-streaming`), so
    // `GET /api/apis/streams` pages in SQL; existing OAS rows are classified once here.
    name: '004_add_apis_is_streams',
    async up(db) {
      await db.schema.alterTable('apis', (t) => {
        t.boolean('is_streams').notNullable().defaultTo(false);
      });
      const rows: Array<{ id: string; oas: string }> = await db('apis').whereNotNull('oas').select('id', 'oas');
      for (const row of rows) {
        if (isStreamsDocument(parseJson<Record<string, unknown>>(row.oas, {})))
          await db('apis').where({ id: row.id }).update({ is_streams: true });
      }
    },
    async down(db) {
      await db.schema.alterTable('apis', (t) => {
        t.dropColumn('is_streams');
      });
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('005_binary_collation', ['apis']),
  {
    // Whether the API is an MCP API (written through /gw/mcps), so /gw/mcps and /gw/apis/oas
    // page apart in SQL. No existing row is one.
    name: '006_add_apis_is_mcp',
    async up(db) {
      await db.schema.alterTable('apis', (t) => {
        t.boolean('is_mcp').notNullable().defaultTo(false);
      });
    },
    async down(db) {
      await db.schema.alterTable('apis', (t) => {
        t.dropColumn('is_mcp');
      });
    },
  },
];

/** An MCP API is one whose classic definition carries the `mcp` block. */
export function isMcpDefinition(definition: { mcp?: unknown }): boolean {
  return definition.mcp !== undefined && definition.mcp !== null;
}

/** A streams API is an OAS document with `x-gw-streaming`. */
export function isStreamsDocument(oas: Record<string, unknown> | undefined): boolean {
  return oas?.['x-gw-streaming'] !== undefined;
}
