import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';

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
 * The analytics service's tables: raw records (expired per API) and hourly aggregates
 * (kept). A batch is stored in one transaction, so it lands whole or not at all.
 */
export class AnalyticsStore {
  constructor(private readonly db: Knex) {}

  async ingest(records: AnalyticsRecordIn[]): Promise<number> {
    if (records.length === 0) return 0;
    const deltas = aggregate(records);
    await this.db.transaction(async (trx) => {
      for (let i = 0; i < records.length; i += 200) {
        await trx('analytics_records').insert(records.slice(i, i + 200).map(rawRow));
      }
      for (const delta of deltas.values()) await this.upsert(trx, delta);
    });
    return records.length;
  }

  /** Removes raw records past their expiry; answers how many went. */
  async sweep(now = Date.now()): Promise<number> {
    return this.db('analytics_records').whereNotNull('expire_at').andWhere('expire_at', '<=', now).delete();
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

function rawRow(record: AnalyticsRecordIn): Record<string, unknown> {
  const { expire_after: expireAfter, tags, ...row } = record;
  return { ...row, tags: JSON.stringify(tags), expire_at: expireAfter > 0 ? record.request_time + expireAfter * 1000 : null };
}

/** Folds a batch into its hourly groups. */
function aggregate(records: AnalyticsRecordIn[]): Map<string, HourlyDelta> {
  const deltas = new Map<string, HourlyDelta>();
  for (const record of records) {
    const hourStart = Math.floor(record.request_time / HOUR) * HOUR;
    const path = record.track_path ? record.path.slice(0, MAX_PATH) : '';
    const method = record.track_path ? record.method : '';
    const dims = [record.org_id, record.api_id, record.key_hash, record.oauth_client_id, path, method, String(record.response_code), String(hourStart)];
    const id = createHash('sha256').update(dims.join('\u0000')).digest('hex');
    const error = isError(record.response_code) ? 1 : 0;
    const found = deltas.get(id);
    if (!found) {
      deltas.set(id, {
        id,
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
