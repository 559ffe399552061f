import type { Knex } from 'knex';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import { parseJson } from '../../../lib/store/migrate';
import { batchWriter, type BatchWriter } from './batch-writers';
import { foldGeo, foldHourly } from './hourly-aggregates';

/**
 * The analytics service's tables: raw records (expired per API) and hourly aggregates (kept),
 * per (org, api, key, client, endpoint, code) and per (org, api, country).
 * Raw records are stored packed: one row per API (and expiry) per batch, holding that batch's
 * records as a compact JSON array (PACKED_FIELDS). Storing a record as a row of its own costs several microseconds
 * per request in SQLite, which in the embedded setup is the gateway's own process; packed,
 * a record costs about its JSON text. A batch is stored in one transaction, whole or not at all
 * (batch-writers.ts), with its records folded into hourly rows first: one upsert per row and
 * batch, not per record.
 */
export class AnalyticsStore {
  private readonly write: BatchWriter;

  constructor(private readonly db: Knex) {
    this.write = batchWriter(db);
  }

  async ingest(records: AnalyticsRecordIn[]): Promise<number> {
    if (records.length === 0) return 0;
    await this.write({ packs: pack(records), hourly: [...foldHourly(records).values()], geo: [...foldGeo(records).values()] });
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
  let previous: AnalyticsRecordIn | undefined;
  let previousGroup: AnalyticsRecordIn[] = [];
  for (const record of records) {
    // Most records share the pack of the record before them: no key to build then.
    if (previous && record.api_id === previous.api_id && record.org_id === previous.org_id && record.api_name === previous.api_name && record.expire_after === previous.expire_after) {
      previousGroup.push(record);
      continue;
    }
    previous = record;
    const key = `${record.org_id}\u0000${record.api_id}\u0000${record.api_name}\u0000${record.expire_after}`;
    const group = groups.get(key);
    if (group) (previousGroup = group).push(record);
    else groups.set(key, (previousGroup = [record]));
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
