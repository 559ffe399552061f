import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import {
  AnalyticsBatchBuilder,
  AnalyticsBatchReader,
  COLUMN,
  RECORD_WIDTH,
  recordsOf,
  type AnalyticsBatch,
} from '../../../contracts/analytics/record-batch';
import { parseJson } from '../../../lib/store/migrate';
import { batchWriter, type BatchWriter } from './batch-writers';
import { foldGeo, foldHourly } from './hourly-aggregates';
import { PathAdmission } from './path-admission';

const HOUR = 3_600_000;

export interface AnalyticsStoreOptions {
  /** distinct paths an API has hourly rows for in an hour (GW_ANALYTICS_PATHS_PER_API_HOUR); 0: no limit */
  pathsPerApiHour?: number;
  /** seconds aggregates and raw records are kept (GW_ANALYTICS_RETENTION); 0: kept */
  retention?: number;
}

/**
 * The analytics service's tables: raw records (expired per API) and hourly aggregates, per
 * (org, api, key, client, endpoint, code) and per (org, api, country), all kept at most for the
 * retention (GW_ANALYTICS_RETENTION).
 * Raw records are stored packed: one row per API (and expiry) per batch, holding that batch's
 * records as JSON in the batch format gateway nodes send (record-batch.ts), each column as runs
 * of equal values (StoredPack). Storing a record as a row of its own is an insert per request in
 * SQLite, which in the embedded setup is the gateway's own process; packed, a record costs a few
 * bytes of JSON. A batch is stored in one transaction, whole or
 * not at all (batch-writers.ts), with its records folded into hourly rows first: one upsert per
 * row and batch, not per record.
 */
export class AnalyticsStore {
  private readonly write: BatchWriter;
  private readonly admission: PathAdmission;
  private readonly retentionMs: number;

  constructor(
    private readonly db: Knex,
    options: AnalyticsStoreOptions = {},
  ) {
    this.write = batchWriter(db);
    this.admission = new PathAdmission(db, options.pathsPerApiHour ?? 0);
    this.retentionMs = (options.retention ?? 0) * 1000;
  }

  /**
   * Stores a batch. Folding, packing and writing a batch of 1,000 records holds the thread long
   * enough to delay requests, and in the embedded setup it is the gateway's: each step runs in a
   * turn of the event loop of its own, so requests are served between them instead of waiting for all.
   */
  async ingest(batch: AnalyticsBatch): Promise<number> {
    const { count } = new AnalyticsBatchReader(batch);
    if (count === 0) return 0;
    const hourly = await this.admission.admit([...foldHourly(batch).values()]);
    const geo = [...foldGeo(batch).values()];
    await nextTurn();
    const packs = pack(batch);
    await nextTurn();
    await this.write({ packs, hourly, geo });
    return count;
  }

  /**
   * Removes raw records past their expiry, and everything older than the retention: hourly rows
   * whose hour ended before it, and raw records whatever their API's expiry (none outlives the
   * aggregates). Answers how many packs and hourly rows went.
   */
  async sweep(now = Date.now()): Promise<{ packs: number; hourly: number }> {
    const expired = this.db('analytics_records').whereNotNull('expire_at').andWhere('expire_at', '<=', now);
    let packs = await expired.delete();
    if (this.retentionMs <= 0) return { packs, hourly: 0 };
    const cutoff = now - this.retentionMs;
    packs += await this.db('analytics_records').where('last_request', '<', cutoff).delete();
    let hourly = 0;
    for (const table of ['analytics_hourly', 'analytics_hourly_geo']) {
      hourly += await this.db(table)
        .where('hour_start', '<=', cutoff - HOUR)
        .delete();
    }
    return { packs, hourly };
  }

  /** The raw records of an organisation (and API), oldest first. */
  async rawRecords(orgId: string, apiId?: string): Promise<AnalyticsRecordIn[]> {
    const query = this.db('analytics_records').where('org_id', orgId).orderBy('id');
    if (apiId !== undefined) query.andWhere('api_id', apiId);
    return ((await query) as RawPack[]).flatMap(unpack);
  }
}

/**
 * The fields of a record in a pack of the first format (a JSON array of records, each an
 * array of these values; the API and the expiry are the pack's columns). Packs written since
 * are batches (record-batch.ts); both are read.
 */
const PACKED_FIELDS = [
  'path',
  'raw_path',
  'method',
  'response_code',
  'key_hash',
  'alias',
  'oauth_client_id',
  'request_time',
  'latency',
  'upstream_latency',
  'ip_address',
  'user_agent',
  'iso_country',
  'tags',
  'track_path',
] as const satisfies ReadonlyArray<keyof AnalyticsRecordIn>;

/** One `analytics_records` row: the records of one API (and expiry) in one batch. */
interface RawPack {
  org_id: string;
  api_id: string;
  api_name: string;
  expire_after: number;
  first_request: number;
  last_request: number;
  count: number;
  /** epoch ms after which the sweep removes the pack (its newest record's expiry); null keeps it */
  expire_at: number | null;
  /** the pack's records: a JSON batch (record-batch.ts), or a JSON array of PACKED_FIELDS arrays */
  records: string;
}

/** The columns that name a record's pack. */
const PACK_COLUMNS = [COLUMN.org_id, COLUMN.api_id, COLUMN.api_name, COLUMN.expire_after] as const;

function pack(batch: AnalyticsBatch): RawPack[] {
  const records = new AnalyticsBatchReader(batch);
  const samePack = (a: number, b: number) =>
    PACK_COLUMNS.every((column) => records.value(a, column) === records.value(b, column));
  // Most batches hold one API's records: the batch is then its own pack, stored as it came.
  let single = true;
  for (let i = 1; i < records.count && single; i++) single = samePack(0, i);
  if (single) return [packOf(records, batch)];
  const packs = new Map<string, AnalyticsBatchBuilder>();
  for (let i = 0; i < records.count; i++) {
    const name = PACK_COLUMNS.map((column) => records.value(i, column)).join(',');
    let builder = packs.get(name);
    if (!builder) packs.set(name, (builder = new AnalyticsBatchBuilder()));
    builder.copy(records, i);
  }
  return [...packs.values()].map((builder) => {
    const one = builder.take();
    return packOf(new AnalyticsBatchReader(one), one);
  });
}

/** The row of a batch whose records all share one pack. */
function packOf(records: AnalyticsBatchReader, batch: AnalyticsBatch): RawPack {
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < records.count; i++) {
    const at = records.requestTime(i);
    if (at < first) first = at;
    if (at > last) last = at;
  }
  const expireAfter = records.value(0, COLUMN.expire_after);
  return {
    org_id: records.text(0, COLUMN.org_id),
    api_id: records.text(0, COLUMN.api_id),
    api_name: records.text(0, COLUMN.api_name),
    expire_after: expireAfter,
    first_request: first,
    last_request: last,
    count: records.count,
    expire_at: expireAfter > 0 ? last + expireAfter * 1000 : null,
    records: JSON.stringify({
      strings: batch.strings,
      since: batch.since,
      runs: columnRuns(batch),
    } satisfies StoredPack),
  };
}

/**
 * A pack's records as stored: the batch's strings and `since`, and each column of its values
 * as runs, `[value, records in a row, value, records in a row, …]`. Most columns of a batch
 * barely change from one record to the next (the API, the key, the path, the code), so this
 * stringifies and stores a fraction of the numbers a record-by-record list would.
 */
interface StoredPack {
  strings: string[];
  since: number;
  runs: number[][];
}

function columnRuns(batch: AnalyticsBatch): number[][] {
  const { values } = batch;
  const count = values.length / RECORD_WIDTH;
  const runs: number[][] = [];
  for (let column = 0; column < RECORD_WIDTH; column++) {
    const out: number[] = [];
    let value = values[column];
    let length = 0;
    for (let at = column; at < values.length; at += RECORD_WIDTH) {
      if (values[at] === value) length++;
      else {
        out.push(value, length);
        value = values[at];
        length = 1;
      }
    }
    if (count > 0) out.push(value, length);
    runs.push(out);
  }
  return runs;
}

function batchOfRuns(stored: StoredPack): AnalyticsBatch {
  const count = stored.runs[0].reduce((sum, value, i) => (i % 2 === 1 ? sum + value : sum), 0);
  // A pack stored before a column was added has no runs for it: its records hold 0 there.
  const values = new Array<number>(count * RECORD_WIDTH).fill(0);
  stored.runs.forEach((runs, column) => {
    let record = 0;
    for (let i = 0; i < runs.length; i += 2)
      for (let n = 0; n < runs[i + 1]; n++) values[record++ * RECORD_WIDTH + column] = runs[i];
  });
  return { strings: stored.strings, since: stored.since, values };
}

function unpack(row: RawPack): AnalyticsRecordIn[] {
  const stored = parseJson<StoredPack | unknown[][]>(row.records, []);
  if (!Array.isArray(stored)) return recordsOf(batchOfRuns(stored));
  return stored.map((values) => {
    const record: Record<string, unknown> = {
      api_id: row.api_id,
      api_name: row.api_name,
      org_id: row.org_id,
      expire_after: Number(row.expire_after),
      refused_before_auth: false,
    };
    PACKED_FIELDS.forEach((field, i) => (record[field] = values[i]));
    return record as unknown as AnalyticsRecordIn;
  });
}
