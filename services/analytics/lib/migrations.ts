import type { Knex } from 'knex';
import type { Migration } from '../../../lib/store/migrate';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

export const ANALYTICS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_analytics',
    async up(db) {
      // Raw records, packed: one row per API (and expiry) per batch; removed after the API's
      // expire_analytics_after (analytics-store.ts says why packed).
      await db.schema.createTable('analytics_records', (t) => {
        t.bigIncrements('id').primary();
        t.string('org_id', 255).notNullable();
        t.string('api_id', 255).notNullable();
        t.string('api_name', 1000).notNullable();
        /** the API's expire_analytics_after when the records were made, in seconds (0: kept) */
        t.integer('expire_after').notNullable();
        t.bigInteger('first_request').notNullable();
        t.bigInteger('last_request').notNullable();
        t.integer('count').notNullable();
        /** epoch ms after which the sweep removes the row; null keeps it */
        t.bigInteger('expire_at').nullable().index();
        /** JSON array of records, each an array of values (analytics-store.ts PACKED_FIELDS) */
        t.text('records', 'longtext').notNullable();
        t.index(['org_id', 'api_id']);
      });
      // Hourly aggregates per (org, api, key, OAuth client, endpoint, code, hour).
      await db.schema.createTable('analytics_hourly', (t) => {
        /** SHA-256 (hex) of the grouping columns and the hour */
        t.string('id', 64).primary();
        t.string('org_id', 255).notNullable();
        t.bigInteger('hour_start').notNullable();
        t.string('api_id', 255).notNullable();
        t.string('api_name', 1000).notNullable();
        t.string('key_hash', 255).notNullable();
        t.string('alias', 1000).notNullable();
        t.string('oauth_client_id', 255).notNullable();
        /** '' for requests on endpoints that are not tracked (track_endpoints) */
        t.string('path', 2048).notNullable();
        t.string('method', 32).notNullable();
        t.integer('code').notNullable();
        addCounterColumns(t);
        t.index(['org_id', 'hour_start']);
      });
    },
    async down(db) {
      await db.schema.dropTable('analytics_hourly');
      await db.schema.dropTable('analytics_records');
    },
  },
  {
    name: '002_create_analytics_hourly_geo',
    async up(db) {
      // Hourly aggregates per (org, api, country, hour): the reference pump's "geo" dimension,
      // kept apart from analytics_hourly so countries do not multiply its (key, endpoint, code)
      // rows. Only requests with a known country are counted here.
      await db.schema.createTable('analytics_hourly_geo', (t) => {
        /** SHA-256 (hex) of the grouping columns and the hour */
        t.string('id', 64).primary();
        t.string('org_id', 255).notNullable();
        t.bigInteger('hour_start').notNullable();
        t.string('api_id', 255).notNullable();
        t.string('api_name', 1000).notNullable();
        /** ISO 3166-1 alpha-2, as the GeoIP database answers it */
        t.string('iso_country', 8).notNullable();
        addCounterColumns(t);
        t.index(['org_id', 'hour_start']);
      });
    },
    async down(db) {
      await db.schema.dropTable('analytics_hourly_geo');
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('003_binary_collation', ['analytics_records', 'analytics_hourly', 'analytics_hourly_geo']),
  {
    name: '004_retention_indexes',
    async up(db) {
      // The retention sweep removes rows by age across organisations (analytics-store.ts sweep).
      await db.schema.alterTable('analytics_records', (t) => t.index(['last_request']));
      await db.schema.alterTable('analytics_hourly', (t) => t.index(['hour_start']));
      await db.schema.alterTable('analytics_hourly_geo', (t) => t.index(['hour_start']));
    },
    async down(db) {
      await db.schema.alterTable('analytics_records', (t) => t.dropIndex(['last_request']));
      await db.schema.alterTable('analytics_hourly', (t) => t.dropIndex(['hour_start']));
      await db.schema.alterTable('analytics_hourly_geo', (t) => t.dropIndex(['hour_start']));
    },
  },
];

/** The figures every hourly aggregate row keeps (hourly-aggregates.ts `Counters`). */
function addCounterColumns(t: Knex.CreateTableBuilder): void {
  t.integer('hits').notNullable();
  t.integer('success').notNullable();
  t.integer('error').notNullable();
  t.double('latency_sum').notNullable();
  t.double('latency_min').notNullable();
  t.double('latency_max').notNullable();
  t.double('upstream_sum').notNullable();
  t.double('upstream_min').notNullable();
  t.double('upstream_max').notNullable();
  t.bigInteger('last_hit').notNullable();
}
