import { createHash } from 'node:crypto';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';

const HOUR = 3_600_000;
const MAX_PATH = 2048;

/** The figures every hourly aggregate row keeps; a batch adds its own to a row's. */
interface Counters {
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

/** One row of `analytics_hourly` as a batch adds to it: per (org, api, key, client, endpoint, code, hour). */
export interface HourlyDelta extends Counters {
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
}

/** One row of `analytics_hourly_geo` as a batch adds to it: per (org, api, country, hour). */
export interface GeoDelta extends Counters {
  id: string;
  org_id: string;
  hour_start: number;
  api_id: string;
  api_name: string;
  iso_country: string;
}

/** A request is an error from 400 up (the reference pump's error count). */
export function isError(code: number): boolean {
  return code >= 400;
}

/** A request is a success from 200 to 299: a redirect or a 1xx is neither (as the reference pump counts). */
export function isSuccess(code: number): boolean {
  return code >= 200 && code < 300;
}

const hourOf = (record: AnalyticsRecordIn) => Math.floor(record.request_time / HOUR) * HOUR;

function countersOf(record: AnalyticsRecordIn): Counters {
  const { latency, upstream_latency: upstream, response_code: code } = record;
  return { hits: 1, success: isSuccess(code) ? 1 : 0, error: isError(code) ? 1 : 0, latency_sum: latency, latency_min: latency, latency_max: latency, upstream_sum: upstream, upstream_min: upstream, upstream_max: upstream, last_hit: record.request_time };
}

function add(into: Counters, record: AnalyticsRecordIn): void {
  into.hits += 1;
  if (isSuccess(record.response_code)) into.success += 1;
  if (isError(record.response_code)) into.error += 1;
  into.latency_sum += record.latency;
  into.latency_min = Math.min(into.latency_min, record.latency);
  into.latency_max = Math.max(into.latency_max, record.latency);
  into.upstream_sum += record.upstream_latency;
  into.upstream_min = Math.min(into.upstream_min, record.upstream_latency);
  into.upstream_max = Math.max(into.upstream_max, record.upstream_latency);
  into.last_hit = Math.max(into.last_hit, record.request_time);
}

/** How a table groups records: a record's group name, a new row, what else a record adds to its row. */
interface Grouping<T> {
  /** names a record's row (undefined: the record has none); the row's id is a hash of it */
  groupOf(record: AnalyticsRecordIn): string | undefined;
  /** whether two records share a row (a cheap test that may say false for records that do) */
  sameGroup(a: AnalyticsRecordIn, b: AnalyticsRecordIn): boolean;
  rowOf(record: AnalyticsRecordIn, id: string): T;
  onAdd?(row: T, record: AnalyticsRecordIn): void;
}

/**
 * Folds a batch into rows. A record of the same row as the record before it (most of a batch
 * from a busy API and key) is added without naming its group: building and hashing that
 * string cost more than the rest of the fold.
 */
function fold<T extends Counters & { id: string }>(records: AnalyticsRecordIn[], grouping: Grouping<T>): Map<string, T> {
  const rows = new Map<string, T>();
  let previous: AnalyticsRecordIn | undefined;
  let previousRow: T | undefined;
  for (const record of records) {
    if (previousRow !== undefined && grouping.sameGroup(previous!, record)) {
      add(previousRow, record);
      grouping.onAdd?.(previousRow, record);
      continue;
    }
    previous = record;
    const group = grouping.groupOf(record);
    previousRow = group === undefined ? undefined : rows.get(group);
    if (group === undefined) continue;
    if (previousRow) {
      add(previousRow, record);
      grouping.onAdd?.(previousRow, record);
    } else rows.set(group, (previousRow = grouping.rowOf(record, createHash('sha256').update(group).digest('hex'))));
  }
  return rows;
}

const sameHour = (a: AnalyticsRecordIn, b: AnalyticsRecordIn) => a.request_time === b.request_time || hourOf(a) === hourOf(b);

/** The batch's `analytics_hourly` rows. Paths of untracked endpoints are kept as ''. */
export function foldHourly(records: AnalyticsRecordIn[]): Map<string, HourlyDelta> {
  const endpointOf = (record: AnalyticsRecordIn) => (record.track_path ? { path: record.path.slice(0, MAX_PATH), method: record.method } : { path: '', method: '' });
  return fold<HourlyDelta>(records, {
    groupOf(record) {
      const { path, method } = endpointOf(record);
      return `${record.org_id}\u0000${record.api_id}\u0000${record.key_hash}\u0000${record.oauth_client_id}\u0000${path}\u0000${method}\u0000${record.response_code}\u0000${hourOf(record)}`;
    },
    sameGroup: (a, b) =>
      a.response_code === b.response_code &&
      a.key_hash === b.key_hash &&
      a.api_id === b.api_id &&
      a.org_id === b.org_id &&
      a.oauth_client_id === b.oauth_client_id &&
      a.track_path === b.track_path &&
      (!a.track_path || (a.path === b.path && a.method === b.method)) &&
      sameHour(a, b),
    rowOf: (record, id) => ({
      id,
      org_id: record.org_id,
      hour_start: hourOf(record),
      api_id: record.api_id,
      api_name: record.api_name,
      key_hash: record.key_hash,
      alias: record.alias,
      oauth_client_id: record.oauth_client_id,
      ...endpointOf(record),
      code: record.response_code,
      ...countersOf(record),
    }),
    onAdd(row, record) {
      if (record.alias) row.alias = record.alias;
    },
  });
}

/**
 * The batch's `analytics_hourly_geo` rows. As in the reference pump, a request whose country
 * is unknown (no GeoIP database, or an address it does not know) is not counted per country.
 */
export function foldGeo(records: AnalyticsRecordIn[]): Map<string, GeoDelta> {
  return fold<GeoDelta>(records, {
    groupOf: (record) => (record.iso_country === '' ? undefined : `geo\u0000${record.org_id}\u0000${record.api_id}\u0000${record.iso_country}\u0000${hourOf(record)}`),
    sameGroup: (a, b) => a.iso_country === b.iso_country && a.api_id === b.api_id && a.org_id === b.org_id && sameHour(a, b),
    rowOf: (record, id) => ({ id, org_id: record.org_id, hour_start: hourOf(record), api_id: record.api_id, api_name: record.api_name, iso_country: record.iso_country, ...countersOf(record) }),
  });
}
