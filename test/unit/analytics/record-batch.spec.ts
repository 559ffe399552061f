import { strict as assert } from 'node:assert';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import {
  AnalyticsBatchBuilder,
  AnalyticsBatchReader,
  COLUMN,
  RECORD_WIDTH,
  batchOf,
  batchProblem,
  recordsOf,
} from '../../../contracts/analytics/record-batch';
import { analyticsRecord } from '../../support/analytics-record';

const record = (extra: Partial<AnalyticsRecordIn> = {}) =>
  analyticsRecord({
    alias: 'alice',
    latency: 10.125,
    upstream_latency: 4.5,
    user_agent: 'curl/8',
    tags: ['t1', 'quote " tag'],
    expire_after: 60,
    ...extra,
  });

describe('analytics: record batches (the format gateway nodes send)', () => {
  it('reads back every field of every record, latencies to the microsecond', () => {
    const records = [
      record(),
      record({ api_id: 'a2', track_path: false, tags: [], latency: 0.0004, upstream_latency: 0 }),
      record({ user_agent: '', response_code: 502 }),
    ];
    assert.deepEqual(recordsOf(batchOf(records)), [records[0], { ...records[1], latency: 0 }, records[2]]);
  });

  it('counts request times from the first record, earlier arrivals below it', () => {
    const at = Date.UTC(2026, 10, 22, 10, 15);
    const records = [
      record({ request_time: at }),
      record({ request_time: at - 40 }),
      record({ request_time: at + 900 }),
    ];
    const batch = batchOf(records);
    assert.equal(batch.since, at);
    assert.deepEqual(
      [0, 1, 2].map((i) => batch.values[i * RECORD_WIDTH + COLUMN.request_time]),
      [0, -40, 900],
    );
    assert.equal(batchProblem(batch), undefined);
    assert.deepEqual(
      recordsOf(batch).map((one) => one.request_time),
      [at, at - 40, at + 900],
    );
  });

  it('stores each distinct string once and a record as RECORD_WIDTH integers', () => {
    const batch = batchOf([record(), record(), record({ path: '/other' })]);
    assert.equal(batch.values.length, 3 * RECORD_WIDTH);
    assert.equal(new Set(batch.strings).size, batch.strings.length);
    assert.ok(batch.values.every(Number.isInteger));
    const reader = new AnalyticsBatchReader(batch);
    assert.equal(reader.value(0, COLUMN.path), reader.value(1, COLUMN.path));
    assert.notEqual(reader.value(0, COLUMN.path), reader.value(2, COLUMN.path));
  });

  it('copies records into a batch of their own with its own strings', () => {
    const source = new AnalyticsBatchReader(
      batchOf([record({ api_id: 'a1' }), record({ api_id: 'a2', path: '/only-a2' })]),
    );
    const builder = new AnalyticsBatchBuilder();
    builder.copy(source, 1);
    const copied = builder.take();
    assert.deepEqual(recordsOf(copied), [record({ api_id: 'a2', path: '/only-a2' })]);
    assert.ok(!copied.strings.includes('a1'), 'strings of records not copied are left out');
    assert.equal(builder.count, 0, 'take() starts a new batch');
  });

  it('writes a following batch into the values of a full batch given back, and of a full one only', () => {
    const builder = new AnalyticsBatchBuilder(2);
    builder.add(record({ path: '/1' }));
    builder.add(record({ path: '/2' }));
    const first = builder.take();
    builder.recycle(first.values);
    // the batch after first was started at first's take(), in a new array: the one after it reuses first's
    builder.add(record({ path: '/3' }));
    builder.add(record({ path: '/4' }));
    assert.notEqual(builder.take().values, first.values);
    builder.add(record({ path: '/5', tags: [] }));
    builder.add(record({ path: '/6' }));
    const third = builder.take();
    assert.equal(third.values, first.values);
    assert.deepEqual(recordsOf(third), [record({ path: '/5', tags: [] }), record({ path: '/6' })]);
    builder.add(record());
    const partial = builder.take();
    builder.recycle(partial.values);
    builder.add(record());
    builder.add(record());
    assert.notEqual(builder.take().values, partial.values, "a partial batch's values were cut to its records");
  });

  it('finds what is wrong with a batch from another node', () => {
    const good = batchOf([record(), record({ tags: [] })]);
    assert.equal(batchProblem(good), undefined);
    const withValues = (change: (values: number[]) => void) => {
      const values = [...good.values];
      change(values);
      return { strings: good.strings, values, since: good.since };
    };
    assert.match(batchProblem(null)!, /not an object/);
    assert.match(batchProblem({ ...good, since: '2026' })!, /`since` is not epoch milliseconds/);
    assert.match(
      batchProblem(withValues((v) => (v[COLUMN.request_time] = -good.since - 1)))!,
      /record 0: request_time is before 1970/,
    );
    assert.match(batchProblem({ strings: [1], values: [], since: 0 })!, /not an array of strings/);
    const width = new RegExp(`${RECORD_WIDTH} numbers per record`);
    assert.match(batchProblem({ strings: [], values: [1, 2], since: 0 })!, width);
    assert.match(
      batchProblem(withValues((v) => (v[COLUMN.path] = good.strings.length)))!,
      /record 0: column 3 names no string/,
    );
    assert.match(
      batchProblem(withValues((v) => (v[RECORD_WIDTH + COLUMN.latency_us] = -1)))!,
      /record 1: column 15 is negative/,
    );
    assert.match(
      batchProblem(withValues((v) => (v[COLUMN.response_code] = 1.5)))!,
      /record 0: column 13 is not an integer/,
    );
    assert.match(batchProblem(withValues((v) => (v[COLUMN.track_path] = 2)))!, /track_path is not 0 or 1/);
    const refused = withValues((v) => (v[COLUMN.refused_before_auth] = 2));
    assert.match(batchProblem(refused)!, /refused_before_auth is not 0 or 1/);
    assert.match(batchProblem(batchOf([record({ method: 'X'.repeat(33) })]))!, /column 5 is longer than 32/);
    const badTags = batchOf([record()]);
    badTags.strings[badTags.values[COLUMN.tags]] = '{"not":"a list"}';
    assert.match(batchProblem(badTags)!, /tags are not/);
    assert.match(
      batchProblem({ strings: [''], values: new Array(10_001 * RECORD_WIDTH).fill(0), since: 0 })!,
      /at most 10000 records/,
    );
  });
});
