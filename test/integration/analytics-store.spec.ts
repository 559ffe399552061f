import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { AnalyticsActivityParams, AnalyticsRecordIn } from '../../contracts/analytics/actions';
import { batchOf, RECORD_WIDTH } from '../../contracts/analytics/record-batch';
import { openDatabase } from '../../lib/store/database';
import { migrate } from '../../lib/store/migrate';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { queryActivity } from '../../services/analytics/lib/activity-query';
import { ANALYTICS_MIGRATIONS } from '../../services/analytics/lib/migrations';
import { STORE_VARIANTS } from '../support/stores';
import { analyticsRecord } from '../support/analytics-record';

const HOUR = 3_600_000;
const at = Math.floor(Date.UTC(2026, 10, 22, 10) / HOUR) * HOUR + 60_000;

const record = (extra: Partial<AnalyticsRecordIn> = {}) =>
  analyticsRecord({ request_time: at, tags: ['t1'], ...extra });

for (const variant of STORE_VARIANTS) {
  (variant.enabled ? describe : describe.skip)(
    `analytics store: batches into raw records and aggregates (${variant.name})`,
    () => {
      let dir: string;
      let db: Knex;
      let cleanup: () => Promise<void>;
      let store: AnalyticsStore;

      beforeEach(async () => {
        dir = mkdtempSync(join(tmpdir(), 'gw-analytics-store-'));
        const opened = await variant.open(dir);
        cleanup = opened.cleanup;
        db = openDatabase(opened.url);
        await migrate(db, 'analytics', ANALYTICS_MIGRATIONS);
        store = new AnalyticsStore(db);
      });

      const ingest = (records: AnalyticsRecordIn[]) => store.ingest(batchOf(records));

      afterEach(async () => {
        await db.destroy();
        await cleanup();
        rmSync(dir, { recursive: true, force: true });
      });

      it('adds a later batch to the hourly rows an earlier one made (sums, least, greatest) and takes its alias and API name', async () => {
        await ingest([
          record({ latency: 10, upstream_latency: 4 }),
          record({ response_code: 500, latency: 30, upstream_latency: 20 }),
        ]);
        await ingest([
          record({ latency: 2, upstream_latency: 1, request_time: at + 5000, alias: 'alice', api_name: 'Orders v2' }),
          record({ key_hash: 'k2' }),
        ]);
        const rows = await db('analytics_hourly')
          .orderBy(['key_hash', 'code'])
          .select(
            'key_hash',
            'code',
            'alias',
            'api_name',
            'hits',
            'success',
            'error',
            'latency_sum',
            'latency_min',
            'latency_max',
            'upstream_sum',
            'upstream_min',
            'upstream_max',
            'last_hit',
            'hour_start',
          );
        assert.deepEqual(
          rows.map((row) => ({ ...row, last_hit: Number(row.last_hit), hour_start: Number(row.hour_start) })),
          [
            {
              key_hash: 'k1',
              code: 200,
              alias: 'alice',
              api_name: 'Orders v2',
              hits: 2,
              success: 2,
              error: 0,
              latency_sum: 12,
              latency_min: 2,
              latency_max: 10,
              upstream_sum: 5,
              upstream_min: 1,
              upstream_max: 4,
              last_hit: at + 5000,
              hour_start: at - 60_000,
            },
            {
              key_hash: 'k1',
              code: 500,
              alias: '',
              api_name: 'Orders',
              hits: 1,
              success: 0,
              error: 1,
              latency_sum: 30,
              latency_min: 30,
              latency_max: 30,
              upstream_sum: 20,
              upstream_min: 20,
              upstream_max: 20,
              last_hit: at,
              hour_start: at - 60_000,
            },
            {
              key_hash: 'k2',
              code: 200,
              alias: '',
              api_name: 'Orders',
              hits: 1,
              success: 1,
              error: 0,
              latency_sum: 10,
              latency_min: 10,
              latency_max: 10,
              upstream_sum: 4,
              upstream_min: 4,
              upstream_max: 4,
              last_hit: at,
              hour_start: at - 60_000,
            },
          ],
        );
        const geo = await db('analytics_hourly_geo').select(
          'iso_country',
          'api_name',
          'hits',
          'error',
          'latency_min',
          'latency_max',
        );
        assert.deepEqual(geo, [
          { iso_country: 'GB', api_name: 'Orders v2', hits: 4, error: 1, latency_min: 2, latency_max: 30 },
        ]);
      });

      it('keeps every raw record of every batch, with all its fields', async () => {
        const first = [record({ expire_after: 60 }), record({ api_id: 'a2', track_path: false, tags: [] })];
        const second = [record({ user_agent: 'quote " and \\ back', ip_address: '2.125.160.216', latency: 1.25 })];
        await ingest(first);
        await ingest(second);
        const stored = [...(await store.rawRecords('org1', 'a1')), ...(await store.rawRecords('org1', 'a2'))];
        assert.deepEqual(stored, [first[0], second[0], first[1]]);
        const packs = await db('analytics_records').orderBy('id').select('api_id', 'count', 'expire_at');
        assert.deepEqual(
          packs.map((row) => ({ ...row, expire_at: row.expire_at === null ? null : Number(row.expire_at) })),
          [
            { api_id: 'a1', count: 1, expire_at: at + 60_000 },
            { api_id: 'a2', count: 1, expire_at: null },
            { api_id: 'a1', count: 1, expire_at: null },
          ],
        );
      });

      it('reads back a pack whose columns change in runs and from record to record', async () => {
        const codes = [200, 200, 200, 500, 500, 200, 404];
        const batch = codes.map((code, i) =>
          record({
            response_code: code,
            latency: i + 0.5,
            request_time: at + i * 7,
            path: i < 4 ? '/a' : '/b',
            alias: i === 6 ? 'last' : '',
          }),
        );
        await ingest(batch);
        assert.deepEqual(await store.rawRecords('org1', 'a1'), batch);
      });

      it('reads packs written in the first format (an array of value arrays) beside batches', async () => {
        const old = record({ tags: ['t'], latency: 1.5 });
        const values = [
          old.path,
          old.raw_path,
          old.method,
          old.response_code,
          old.key_hash,
          old.alias,
          old.oauth_client_id,
          old.request_time,
          old.latency,
          old.upstream_latency,
          old.ip_address,
          old.user_agent,
          old.iso_country,
          old.tags,
          old.track_path,
        ];
        await db('analytics_records').insert({
          org_id: 'org1',
          api_id: 'a1',
          api_name: old.api_name,
          expire_after: old.expire_after,
          first_request: at,
          last_request: at,
          count: 1,
          expire_at: null,
          records: JSON.stringify([values]),
        });
        const newer = record({ path: '/newer' });
        await ingest([newer]);
        assert.deepEqual(await store.rawRecords('org1', 'a1'), [old, newer]);
      });

      it('stores a batch of more hourly rows than one statement takes, and adds the next batch to each', async () => {
        const batch = Array.from({ length: 1200 }, (_, i) =>
          record({ key_hash: `k${i}`, api_id: `a${i % 3}`, latency: i }),
        );
        await ingest(batch);
        await ingest(batch);
        const [totals] = await db('analytics_hourly')
          .count({ rows: '*' })
          .sum({ hits: 'hits', latency: 'latency_sum' })
          .max({ most: 'hits' });
        assert.deepEqual(
          {
            rows: Number(totals.rows),
            hits: Number(totals.hits),
            latency: Number(totals.latency),
            most: Number(totals.most),
          },
          { rows: 1200, hits: 2400, latency: 2 * ((1199 * 1200) / 2), most: 2 },
        );
        assert.equal((await store.rawRecords('org1', 'a2')).length, 800);
      });

      it('stores a batch whole or not at all', async () => {
        await ingest([record()]);
        // A batch whose aggregate row can not be written (no key hash: the column is NOT NULL), after its raw records were.
        await assert.rejects(ingest([record({ latency: 3 }), record({ key_hash: null as unknown as string })]));
        assert.equal((await store.rawRecords('org1', 'a1')).length, 1);
        const [row] = await db('analytics_hourly').select('hits', 'latency_min');
        assert.deepEqual(row, { hits: 1, latency_min: 10 });
        await ingest([record({ latency: 3 })]);
        assert.equal((await store.rawRecords('org1', 'a1')).length, 2);
      });

      it('reads back packs stored before refused_before_auth was a column of the batch format', async () => {
        const stored = record({ path: '/before' });
        await ingest([stored]);
        const [pack] = await db('analytics_records').select('id', 'records');
        const runs = JSON.parse(pack.records);
        assert.equal(runs.runs.length, RECORD_WIDTH);
        runs.runs.pop();
        await db('analytics_records')
          .where('id', pack.id)
          .update({ records: JSON.stringify(runs) });
        assert.deepEqual(await store.rawRecords('org1', 'a1'), [stored]);
      });

      describe('bounds', () => {
        const DAY = 24 * HOUR;
        /** The endpoints of org1's API a1 in [from, to), as the dashboard's endpoint view reads them. */
        const endpoints = async (from: number, to: number) => {
          const params: AnalyticsActivityParams = { org_id: 'org1', api_id: 'a1', group: 'endpoint', from, to };
          const { data } = await queryActivity(db, params, 10);
          return data.map((row) => [row.id.path, row.hits]);
        };

        it('counts requests refused before authentication for one path, outside the limit', async () => {
          store = new AnalyticsStore(db, { pathsPerApiHour: 2 });
          const refused = { key_hash: '', response_code: 403, refused_before_auth: true };
          const anonymous = Array.from({ length: 50 }, (_, i) => record({ path: `/random-${i}`, ...refused }));
          await ingest([...anonymous, record({ path: '/a' }), record({ path: '/b' })]);
          assert.deepEqual(await endpoints(at - HOUR, at + HOUR), [
            ['(unauthenticated)', 50],
            ['/a', 1],
            ['/b', 1],
          ]);
          const raw = await store.rawRecords('org1', 'a1');
          assert.equal(raw.filter((one) => one.refused_before_auth).length, 50);
        });

        it('folds paths past the limit of an API and hour into (other), concurrent batches too', async () => {
          store = new AnalyticsStore(db, { pathsPerApiHour: 3 });
          const paths = (names: string[], extra: Partial<AnalyticsRecordIn> = {}) =>
            names.map((path) => record({ path, ...extra }));
          await Promise.all([ingest(paths(['/1', '/2', '/3'])), ingest(paths(['/4', '/5', '/6']))]);
          await ingest(paths(['/1', '/7', '/7']));
          const hour = await endpoints(at - HOUR, at + HOUR);
          assert.equal(hour.length, 4, JSON.stringify(hour));
          assert.deepEqual(hour[0], ['(other)', 5]);
          assert.equal(
            hour.reduce((sum, [, hits]) => sum + Number(hits), 0),
            9,
          );

          // Another node (or this one after a restart) reads the paths the hour already has.
          const other = new AnalyticsStore(db, { pathsPerApiHour: 3 });
          const [kept] = hour.filter(([path]) => path !== '(other)');
          await other.ingest(batchOf(paths([String(kept[0]), '/8'])));
          assert.deepEqual((await endpoints(at - HOUR, at + HOUR)).slice(0, 1), [['(other)', 6]]);
          assert.equal((await endpoints(at - HOUR, at + HOUR)).length, 4);

          // The next hour has room again.
          await ingest(paths(['/9'], { request_time: at + HOUR }));
          assert.deepEqual(await endpoints(at + HOUR - 60_000, at + 2 * HOUR), [['/9', 1]]);
        });

        it('removes hourly rows and raw records older than the retention, whatever the API', async () => {
          store = new AnalyticsStore(db, { retention: 24 * 3600 });
          const later = at + 3 * DAY;
          const keptLong = { api_id: 'a2', expire_after: 3600 * 24 * 365 };
          await ingest([record({ path: '/old' }), record({ path: '/old', ...keptLong })]);
          await ingest([record({ path: '/new', request_time: later })]);
          await ingest([record({ path: '/recent', request_time: later - DAY + HOUR })]);
          assert.deepEqual(await store.sweep(later - 60_000), { packs: 2, hourly: 4 });

          assert.deepEqual(await endpoints(at - DAY, later + DAY), [
            ['/new', 1],
            ['/recent', 1],
          ]);
          const period = { from: at - DAY, to: later + DAY, page: 0 };
          const geo = await queryActivity(db, { org_id: 'org1', group: 'geo', ...period }, 10);
          assert.deepEqual(
            geo.data.map((row) => [row.id.iso_country, row.hits]),
            [['GB', 2]],
          );
          assert.deepEqual(
            (await store.rawRecords('org1')).map((one) => one.path),
            ['/new', '/recent'],
          );
          assert.deepEqual(await store.sweep(later - 60_000), { packs: 0, hourly: 0 });
        });
      });
    },
  );
}
