import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { queryActivity } from '../../../services/analytics/lib/activity-query';
import { ANALYTICS_MIGRATIONS } from '../../../services/analytics/lib/migrations';
import { createTestDatabase, type TestDatabase } from '../../support/mysql';

const HOUR = 3_600_000;
const FROM = Date.UTC(2026, 0, 1);
const TO = FROM + 24 * HOUR;
const PAGE_SIZE = 10;
/** What NATS carries in one message by default (max_payload). */
const NATS_MAX_PAYLOAD = 1024 * 1024;

interface Row {
  key_hash?: string;
  path?: string;
  hits: number;
  /** hours after the start of the period */
  hour?: number;
  alias?: string;
  api_name?: string;
}

/** One hourly aggregate row per entry, all of org `acme`, in the first hour of the period unless told. */
async function insertRows(db: Knex, rows: Row[]): Promise<void> {
  const records = rows.map((row, i) => ({
    id: `row-${i}`,
    org_id: 'acme',
    hour_start: FROM + (row.hour ?? 0) * HOUR,
    api_id: 'orders',
    api_name: row.api_name ?? 'Orders',
    key_hash: row.key_hash ?? '',
    alias: row.alias ?? '',
    oauth_client_id: '',
    path: row.path ?? '',
    method: 'GET',
    code: 200,
    hits: row.hits,
    success: row.hits,
    error: 0,
    latency_sum: row.hits,
    latency_min: 1,
    latency_max: 1,
    upstream_sum: row.hits,
    upstream_min: 1,
    upstream_max: 1,
    last_hit: FROM + (row.hour ?? 0) * HOUR + 1000,
  }));
  for (let i = 0; i < records.length; i += 200) await db('analytics_hourly').insert(records.slice(i, i + 200));
}

const isBusiestFirst = (hits: number[]) => hits.every((h, i) => i === 0 || hits[i - 1] >= h);

/** The stores the queries run on: SQLite always, MySQL/MariaDB when GW_TEST_MYSQL names a server. */
const STORES: Array<{ name: string; enabled: boolean; open(): Promise<{ db: Knex; drop(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    enabled: true,
    open: async () => ({ db: openDatabase('sqlite::memory:'), drop: async () => undefined }),
  },
  {
    name: 'MySQL/MariaDB',
    enabled: Boolean(process.env.GW_TEST_MYSQL),
    open: async () => {
      const database: TestDatabase = await createTestDatabase(process.env.GW_TEST_MYSQL!);
      return { db: openDatabase(database.url), drop: () => database.drop() };
    },
  },
];

for (const store of STORES)
  describe(`analytics: activity views (${store.name})`, () => {
    let db: Knex;
    let drop: () => Promise<void>;

    beforeEach(async function () {
      if (!store.enabled) this.skip();
      ({ db, drop } = await store.open());
      await migrate(db, 'analytics', ANALYTICS_MIGRATIONS);
    });
    afterEach(async () => {
      await db?.destroy();
      await drop?.();
    });

    describe('an unpaged view (p of 0 or less) fits one bus message', () => {
      it('answers the 1000 busiest keys of 2500, and pages still counts every key', async () => {
        await insertRows(
          db,
          Array.from({ length: 2500 }, (_, i) => ({ key_hash: `key-${String(i).padStart(4, '0')}`, hits: i + 1 })),
        );
        for (const page of [0, -1]) {
          const result = await queryActivity(db, { org_id: 'acme', group: 'key', from: FROM, to: TO, page }, PAGE_SIZE);
          assert.equal(result.pages, 250);
          assert.equal(result.data.length, 1000);
          assert.equal(result.data[0].id.key, 'key-2499');
          assert.equal(result.data[999].id.key, 'key-1500');
          assert.ok(isBusiestFirst(result.data.map((r) => r.hits)));
        }
      });

      it('stops before the answer outgrows a NATS message when the groups are large (long endpoint paths)', async () => {
        const longPath = (i: number) => `/${String(i).padStart(4, '0')}/${'x'.repeat(2040)}`;
        await insertRows(
          db,
          Array.from({ length: 600 }, (_, i) => ({ path: longPath(i), hits: i + 1 })),
        );
        const result = await queryActivity(
          db,
          { org_id: 'acme', group: 'endpoint', from: FROM, to: TO, page: 0 },
          PAGE_SIZE,
        );
        assert.equal(result.pages, 60);
        assert.ok(result.data.length > 0 && result.data.length < 600, `${result.data.length} groups`);
        assert.ok(
          Buffer.byteLength(JSON.stringify(result)) < NATS_MAX_PAYLOAD / 2,
          `${Buffer.byteLength(JSON.stringify(result))} bytes`,
        );
        assert.equal(result.data[0].id.path, longPath(599));
        assert.ok(isBusiestFirst(result.data.map((r) => r.hits)));
      });

      it('answers every group when they fit, as before', async () => {
        await insertRows(
          db,
          Array.from({ length: 25 }, (_, i) => ({ key_hash: `key-${i}`, hits: i + 1 })),
        );
        const result = await queryActivity(
          db,
          { org_id: 'acme', group: 'key', from: FROM, to: TO, page: 0 },
          PAGE_SIZE,
        );
        assert.equal(result.pages, 3);
        assert.equal(result.data.length, 25);
        const paged = await queryActivity(db, { org_id: 'acme', group: 'key', from: FROM, to: TO, page: 3 }, PAGE_SIZE);
        assert.deepEqual(
          paged.data.map((r) => r.id.key),
          ['key-4', 'key-3', 'key-2', 'key-1', 'key-0'],
        );
      });
    });

    describe('the alias and API name of a group', () => {
      // [older hour's value, newer hour's value]: the newer is shown, whichever sorts first.
      for (const [older, newer] of [
        ['zeta', 'alpha'],
        ['alpha', 'zeta'],
      ]) {
        it(`show the newest: renamed from ${older} to ${newer}`, async () => {
          await insertRows(db, [
            { key_hash: 'k1', hits: 1, hour: 0, alias: older, api_name: `${older} api` },
            { key_hash: 'k1', path: '/items', hits: 1, hour: 1, alias: newer, api_name: `${newer} api` },
            { key_hash: 'k1', hits: 1, hour: 1, alias: newer, api_name: `${newer} api` },
          ]);
          const byKey = await queryActivity(
            db,
            { org_id: 'acme', group: 'key', from: FROM, to: TO, page: 1 },
            PAGE_SIZE,
          );
          assert.deepEqual(
            byKey.data.map((r) => [r.id.key, r.id.alias, r.hits]),
            [['k1', newer, 3]],
          );
          const byApi = await queryActivity(
            db,
            { org_id: 'acme', group: 'api', from: FROM, to: TO, page: 1 },
            PAGE_SIZE,
          );
          assert.deepEqual(
            byApi.data.map((r) => [r.id.api_id, r.id.api_name]),
            [['orders', `${newer} api`]],
          );
          const ofKey = await queryActivity(
            db,
            { org_id: 'acme', group: 'day', key_hash: 'k1', from: FROM, to: TO, page: 0 },
            PAGE_SIZE,
          );
          assert.deepEqual(
            ofKey.data.map((r) => r.id.alias),
            [newer],
          );
        });
      }
    });
  });
