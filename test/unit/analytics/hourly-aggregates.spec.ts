import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import { batchOf } from '../../../contracts/analytics/record-batch';
import {
  foldGeo as foldGeoBatch,
  foldHourly as foldHourlyBatch,
} from '../../../services/analytics/lib/hourly-aggregates';
import { analyticsRecord } from '../../support/analytics-record';

const foldHourly = (records: AnalyticsRecordIn[]) => foldHourlyBatch(batchOf(records));
const foldGeo = (records: AnalyticsRecordIn[]) => foldGeoBatch(batchOf(records));

const HOUR = 3_600_000;
const at = Date.UTC(2026, 10, 22, 10, 15);

const record = (code: number, extra: Partial<AnalyticsRecordIn> = {}) =>
  analyticsRecord({ response_code: code, request_time: at, ...extra });

describe('analytics: hourly aggregates of a batch', () => {
  it('counts 2xx as success and 400 and up as errors; redirects and 1xx are neither (the reference pump)', () => {
    const rows = [...foldHourly([200, 201, 302, 304, 101, 404, 500].map((code) => record(code))).values()];
    const byCode = Object.fromEntries(rows.map((row) => [row.code, [row.hits, row.success, row.error]]));
    assert.deepEqual(byCode, {
      200: [1, 1, 0],
      201: [1, 1, 0],
      302: [1, 0, 0],
      304: [1, 0, 0],
      101: [1, 0, 0],
      404: [1, 0, 1],
      500: [1, 0, 1],
    });
    const [geo] = foldGeo([200, 201, 302, 404, 500].map((code) => record(code))).values();
    assert.deepEqual([geo.hits, geo.success, geo.error], [5, 2, 2]);
  });

  it('keeps one geo row per (org, api, country, hour), and none for requests of unknown country', () => {
    const batch = [
      record(200, { latency: 5, upstream_latency: 1 }),
      record(500, { latency: 30, upstream_latency: 20, request_time: at + 60_000 }),
      record(200, { iso_country: 'FR' }),
      record(200, { iso_country: 'GB', request_time: at + HOUR }),
      record(200, { iso_country: 'GB', api_id: 'a2' }),
      record(200, { iso_country: '' }),
    ];
    const rows = [...foldGeo(batch).values()].map(({ id, ...row }) => (assert.match(id, /^[0-9a-f]{64}$/), row));
    const hour = Math.floor(at / HOUR) * HOUR;
    assert.deepEqual(
      rows.map((row) => [row.api_id, row.iso_country, row.hour_start, row.hits]),
      [
        ['a1', 'GB', hour, 2],
        ['a1', 'FR', hour, 1],
        ['a1', 'GB', hour + HOUR, 1],
        ['a2', 'GB', hour, 1],
      ],
    );
    assert.deepEqual(
      { ...rows[0] },
      {
        org_id: 'org1',
        hour_start: hour,
        api_id: 'a1',
        api_name: 'Orders',
        iso_country: 'GB',
        hits: 2,
        success: 1,
        error: 1,
        latency_sum: 35,
        latency_min: 5,
        latency_max: 30,
        upstream_sum: 21,
        upstream_min: 1,
        upstream_max: 20,
        last_hit: at + 60_000,
      },
    );
  });

  it('names analytics_hourly rows as before the per-country table existed, so stored rows keep adding up', () => {
    const [row] = foldHourly([record(200)]).values();
    const hour = Math.floor(at / HOUR) * HOUR;
    const group = ['org1', 'a1', 'k1', '', '/items', 'GET', '200', String(hour)].join('\u0000');
    assert.equal(row.id, createHash('sha256').update(group).digest('hex'));
  });
});
