import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import { parseJson } from '../../../lib/store/migrate';

const HOUR = 3_600_000;
const MAX_PATH = 2048;

/** One row of `analytics_hourly` as a batch adds to it. */
interface HourlyDelta {
  id: string;
  org_id: string;
  hour_start: number;
  api_id: string;
  api_name: string;
  key_hash: string;
  alias: string;
  oauth_client_id: string;
  path: string;
  method: string;
  code: number;
  hits: number;
  success: number;
  error: number;
  latency_sum: number;
  latency_min: number;
  latency_max: number;
  upstream_sum: number;
  upstream_min: number;
  upstream_max: number;
  last_hit: number;
}

/** A request is an error from 400 up (the reference pump's error count). */
export function isError(code: number): boolean {
  return code >= 400;
}

/**
 * The analytics service's tables: raw records (expired per API) and hourly aggregates (kept).
 * Raw records are stored packed: one row per API (and expiry) per batch, holding that batch's
 * records as a compact JSON array (PACKED_FIELDS). Storing a record as a row of its own costs several microseconds
 * per request in SQLite, which in the embedded setup is the gateway's own process; packed,
 * a record costs about its JSON text. A batch is stored in one transaction, whole or not at all.
 */
export class AnalyticsStore {
  constructor(private readonly db: Knex) {}

  async ingest(records: AnalyticsRecordIn[]): Promise<number> {
    if (records.length === 0) return 0;
    const deltas = aggregate(records);
    const packs = pack(records);
    await this.db.transaction(async (trx) => {
      for (const row of packs) await trx('analytics_records').insert(row);
      for (const delta of deltas.values()) await this.upsert(trx, delta);
    });
    return records.length;
  }

  /** Removes raw records past their expiry; answers how many packs went. */
  async sweep(now = Date.now()): Promise<number> {
    return this.db('analytics_records').whereNotNull('expire_at').andWhere('expire_at', '<=', now).delete();
  }

  /** The raw records of an organisation (and API), oldest first. */
  async rawRecords(orgId: string, apiId?: string): Promise<AnalyticsRecordIn[]> {
    const query = this.db('analytics_records').where('org_id', orgId).orderBy('id');
    if (apiId !== undefined) query.andWhere('api_id', apiId);
    return ((await query) as RawPack[]).flatMap(unpack);
  }

  private async upsert(trx: Knex.Transaction, delta: HourlyDelta): Promise<void> {
    const mysql = !String(this.db.client.config.client).includes('sqlite');
    const least = mysql ? 'least' : 'min';
    const greatest = mysql ? 'greatest' : 'max';
    const add = (column: keyof HourlyDelta) => trx.raw('?? + ?', [`analytics_hourly.${column}`, delta[column]]);
    const pick = (fn: string, column: keyof HourlyDelta) => trx.raw(`${fn}(??, ?)`, [`analytics_hourly.${column}`, delta[column]]);
    await trx('analytics_hourly')
      .insert(delta)
      .onConflict('id')
      .merge({
        hits: add('hits'),
        success: add('success'),
        error: add('error'),
        latency_sum: add('latency_sum'),
        upstream_sum: add('upstream_sum'),
        latency_min: pick(least, 'latency_min'),
        latency_max: pick(greatest, 'latency_max'),
        upstream_min: pick(least, 'upstream_min'),
        upstream_max: pick(greatest, 'upstream_max'),
        last_hit: pick(greatest, 'last_hit'),
        alias: delta.alias,
        api_name: delta.api_name,
      } as never);
  }
}

/**
 * The fields of a record stored in a pack, in order: each record is a JSON array of these
 * values (the API and the expiry are the pack's columns), which keeps a record near 160
 * bytes instead of 430 with its keys repeated.
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
  /** JSON array of records, each an array of PACKED_FIELDS values */
  records: string;
}

function pack(records: AnalyticsRecordIn[]): RawPack[] {
  const groups = new Map<string, AnalyticsRecordIn[]>();
  for (const record of records) {
    const key = `${record.org_id}\u0000${record.api_id}\u0000${record.api_name}\u0000${record.expire_after}`;
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return [...groups.values()].map((group) => {
    let first = Infinity;
    let last = -Infinity;
    const values = group.map((record) => {
      if (record.request_time < first) first = record.request_time;
      if (record.request_time > last) last = record.request_time;
      return [
        record.path,
        record.raw_path,
        record.method,
        record.response_code,
        record.key_hash,
        record.alias,
        record.oauth_client_id,
        record.request_time,
        record.latency,
        record.upstream_latency,
        record.ip_address,
        record.user_agent,
        record.iso_country,
        record.tags,
        record.track_path,
      ];
    });
    const { org_id, api_id, api_name, expire_after } = group[0];
    return { org_id, api_id, api_name, expire_after, first_request: first, last_request: last, count: group.length, expire_at: expire_after > 0 ? last + expire_after * 1000 : null, records: JSON.stringify(values) };
  });
}

function unpack(row: RawPack): AnalyticsRecordIn[] {
  return parseJson<unknown[][]>(row.records, []).map((values) => {
    const record: Record<string, unknown> = { api_id: row.api_id, api_name: row.api_name, org_id: row.org_id, expire_after: Number(row.expire_after) };
    PACKED_FIELDS.forEach((field, i) => (record[field] = values[i]));
    return record as unknown as AnalyticsRecordIn;
  });
}

/** Folds a batch into its hourly groups. */
function aggregate(records: AnalyticsRecordIn[]): Map<string, HourlyDelta> {
  const deltas = new Map<string, HourlyDelta>();
  for (const record of records) {
    const hourStart = Math.floor(record.request_time / HOUR) * HOUR;
    const path = record.track_path ? record.path.slice(0, MAX_PATH) : '';
    const method = record.track_path ? record.method : '';
    const group = `${record.org_id}\u0000${record.api_id}\u0000${record.key_hash}\u0000${record.oauth_client_id}\u0000${path}\u0000${method}\u0000${record.response_code}\u0000${hourStart}`;
    const error = isError(record.response_code) ? 1 : 0;
    const found = deltas.get(group);
    if (!found) {
      deltas.set(group, {
        id: createHash('sha256').update(group).digest('hex'),
        org_id: record.org_id,
        hour_start: hourStart,
        api_id: record.api_id,
        api_name: record.api_name,
        key_hash: record.key_hash,
        alias: record.alias,
        oauth_client_id: record.oauth_client_id,
        path,
        method,
        code: record.response_code,
        hits: 1,
        success: 1 - error,
        error,
        latency_sum: record.latency,
        latency_min: record.latency,
        latency_max: record.latency,
        upstream_sum: record.upstream_latency,
        upstream_min: record.upstream_latency,
        upstream_max: record.upstream_latency,
        last_hit: record.request_time,
      });
      continue;
    }
    found.hits += 1;
    found.success += 1 - error;
    found.error += error;
    found.latency_sum += record.latency;
    found.latency_min = Math.min(found.latency_min, record.latency);
    found.latency_max = Math.max(found.latency_max, record.latency);
    found.upstream_sum += record.upstream_latency;
    found.upstream_min = Math.min(found.upstream_min, record.upstream_latency);
    found.upstream_max = Math.max(found.upstream_max, record.upstream_latency);
    found.last_hit = Math.max(found.last_hit, record.request_time);
    if (record.alias) found.alias = record.alias;
  }
  return deltas;
}
