import { hash } from 'node:crypto';
import { UNAUTHENTICATED_PATH } from '../../../contracts/analytics/actions';
import { AnalyticsBatchReader, COLUMN, type AnalyticsBatch } from '../../../contracts/analytics/record-batch';

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

const hourOf = (requestTime: number) => Math.floor(requestTime / HOUR) * HOUR;

function countersOf(records: AnalyticsBatchReader, index: number): Counters {
  const code = records.value(index, COLUMN.response_code);
  const latency = records.value(index, COLUMN.latency_us) / 1000;
  const upstream = records.value(index, COLUMN.upstream_latency_us) / 1000;
  return {
    hits: 1,
    success: isSuccess(code) ? 1 : 0,
    error: isError(code) ? 1 : 0,
    latency_sum: latency,
    latency_min: latency,
    latency_max: latency,
    upstream_sum: upstream,
    upstream_min: upstream,
    upstream_max: upstream,
    last_hit: records.requestTime(index),
  };
}

/** Adds one row's counters to another's (two rows of a batch that turn out to be one). */
export function merge(into: Counters, from: Counters): void {
  into.hits += from.hits;
  into.success += from.success;
  into.error += from.error;
  into.latency_sum += from.latency_sum;
  into.latency_min = Math.min(into.latency_min, from.latency_min);
  into.latency_max = Math.max(into.latency_max, from.latency_max);
  into.upstream_sum += from.upstream_sum;
  into.upstream_min = Math.min(into.upstream_min, from.upstream_min);
  into.upstream_max = Math.max(into.upstream_max, from.upstream_max);
  into.last_hit = Math.max(into.last_hit, from.last_hit);
}

function add(into: Counters, records: AnalyticsBatchReader, index: number): void {
  const code = records.value(index, COLUMN.response_code);
  const latency = records.value(index, COLUMN.latency_us) / 1000;
  const upstream = records.value(index, COLUMN.upstream_latency_us) / 1000;
  into.hits += 1;
  if (isSuccess(code)) into.success += 1;
  if (isError(code)) into.error += 1;
  into.latency_sum += latency;
  into.latency_min = Math.min(into.latency_min, latency);
  into.latency_max = Math.max(into.latency_max, latency);
  into.upstream_sum += upstream;
  into.upstream_min = Math.min(into.upstream_min, upstream);
  into.upstream_max = Math.max(into.upstream_max, upstream);
  into.last_hit = Math.max(into.last_hit, records.requestTime(index));
}

/**
 * How a table groups records (each named by its index in the batch): the name of a record's
 * row within the batch, the row's id, a new row, what else a record adds to its row.
 */
interface Grouping<T> {
  /** names a record's row within this batch (undefined: the record has none); string columns by their index */
  groupOf(records: AnalyticsBatchReader, index: number): string | undefined;
  /** the row's stored id: a hash of its columns' values, the same whichever batch adds to it */
  idOf(records: AnalyticsBatchReader, index: number): string;
  /** whether two records share a row (a cheap test that may say false for records that do) */
  sameGroup(records: AnalyticsBatchReader, a: number, b: number): boolean;
  rowOf(records: AnalyticsBatchReader, index: number, id: string): T;
  onAdd?(row: T, records: AnalyticsBatchReader, index: number): void;
}

/**
 * Folds a batch into rows. A record of the same row as the record before it (most of a batch
 * from a busy API and key) is added by comparing numbers: equal strings of a batch have equal
 * indexes. A row's id is hashed once per batch, when the batch first meets its row.
 */
function fold<T extends Counters & { id: string }>(batch: AnalyticsBatch, grouping: Grouping<T>): Map<string, T> {
  const records = new AnalyticsBatchReader(batch);
  const rows = new Map<string, T>();
  let previous = -1;
  let previousRow: T | undefined;
  for (let index = 0; index < records.count; index++) {
    if (previousRow !== undefined && grouping.sameGroup(records, previous, index)) {
      add(previousRow, records, index);
      grouping.onAdd?.(previousRow, records, index);
      continue;
    }
    previous = index;
    const group = grouping.groupOf(records, index);
    previousRow = group === undefined ? undefined : rows.get(group);
    if (group === undefined) continue;
    if (previousRow) {
      add(previousRow, records, index);
      grouping.onAdd?.(previousRow, records, index);
    } else rows.set(group, (previousRow = grouping.rowOf(records, index, sha256(grouping.idOf(records, index)))));
  }
  return rows;
}

const sha256 = (text: string) => hash('sha256', text, 'hex');

function sameValues(records: AnalyticsBatchReader, a: number, b: number, columns: readonly number[]): boolean {
  for (const column of columns) if (records.value(a, column) !== records.value(b, column)) return false;
  return true;
}

const sameHour = (records: AnalyticsBatchReader, a: number, b: number) => {
  const at = records.requestTime(a);
  const bt = records.requestTime(b);
  return at === bt || hourOf(at) === hourOf(bt);
};

const tracked = (records: AnalyticsBatchReader, index: number) => records.value(index, COLUMN.track_path) === 1;
const refused = (records: AnalyticsBatchReader, index: number) =>
  records.value(index, COLUMN.refused_before_auth) === 1;

/**
 * The endpoint a record counts for: paths of untracked endpoints are kept as '', and a request
 * refused before authentication counts for UNAUTHENTICATED_PATH, whatever path it asked for.
 */
function endpointOf(records: AnalyticsBatchReader, index: number): { path: string; method: string } {
  if (!tracked(records, index)) return { path: '', method: '' };
  const method = records.text(index, COLUMN.method);
  if (refused(records, index)) return { path: UNAUTHENTICATED_PATH, method };
  return { path: records.text(index, COLUMN.path).slice(0, MAX_PATH), method };
}

/** The columns of an `analytics_hourly` row that name it (its id is their hash). */
type HourlyName = Pick<HourlyDelta, (typeof HOURLY_NAME)[number]>;
const HOURLY_NAME = [
  'org_id',
  'api_id',
  'key_hash',
  'oauth_client_id',
  'path',
  'method',
  'code',
  'hour_start',
] as const;

/** What the id of an `analytics_hourly` row hashes: the columns that name it, in HOURLY_NAME order. */
function hourlyIdText(row: HourlyName): string {
  return HOURLY_NAME.map((column) => row[column]).join('\u0000');
}

/** The stored id of an `analytics_hourly` row: the same whichever batch adds to it. */
export const hourlyId = (row: HourlyName): string => sha256(hourlyIdText(row));

const HOURLY_GROUP = [
  COLUMN.response_code,
  COLUMN.key_hash,
  COLUMN.api_id,
  COLUMN.org_id,
  COLUMN.oauth_client_id,
  COLUMN.track_path,
  COLUMN.refused_before_auth,
] as const;
const ENDPOINT = [COLUMN.path, COLUMN.method] as const;
const METHOD = [COLUMN.method] as const;

/** The endpoint part of a record's group within a batch (string columns by their index). */
function endpointGroup(records: AnalyticsBatchReader, i: number): string {
  if (!tracked(records, i)) return '';
  const method = records.value(i, COLUMN.method);
  return refused(records, i) ? `refused\u0000${method}` : `${records.value(i, COLUMN.path)}\u0000${method}`;
}

/** Whether two records of the same (org, api, key, client, code, flags) count for the same endpoint. */
function sameEndpoint(records: AnalyticsBatchReader, a: number, b: number): boolean {
  if (!tracked(records, a)) return true;
  return sameValues(records, a, b, refused(records, a) ? METHOD : ENDPOINT);
}

/** The batch's `analytics_hourly` rows. */
export function foldHourly(batch: AnalyticsBatch): Map<string, HourlyDelta> {
  return fold<HourlyDelta>(batch, {
    groupOf(records, i) {
      const value = (column: number) => records.value(i, column);
      const org = `${value(COLUMN.org_id)}\u0000${value(COLUMN.api_id)}`;
      const caller = `${value(COLUMN.key_hash)}\u0000${value(COLUMN.oauth_client_id)}`;
      const answer = `${endpointGroup(records, i)}\u0000${value(COLUMN.response_code)}`;
      return `${org}\u0000${caller}\u0000${answer}\u0000${hourOf(records.requestTime(i))}`;
    },
    idOf(records, i) {
      const text = (column: number) => records.text(i, column);
      return hourlyIdText({
        org_id: text(COLUMN.org_id),
        api_id: text(COLUMN.api_id),
        key_hash: text(COLUMN.key_hash),
        oauth_client_id: text(COLUMN.oauth_client_id),
        ...endpointOf(records, i),
        code: records.value(i, COLUMN.response_code),
        hour_start: hourOf(records.requestTime(i)),
      });
    },
    sameGroup: (records, a, b) =>
      sameValues(records, a, b, HOURLY_GROUP) && sameEndpoint(records, a, b) && sameHour(records, a, b),
    rowOf: (records, i, id) => ({
      id,
      org_id: records.text(i, COLUMN.org_id),
      hour_start: hourOf(records.requestTime(i)),
      api_id: records.text(i, COLUMN.api_id),
      api_name: records.text(i, COLUMN.api_name),
      key_hash: records.text(i, COLUMN.key_hash),
      alias: records.text(i, COLUMN.alias),
      oauth_client_id: records.text(i, COLUMN.oauth_client_id),
      ...endpointOf(records, i),
      code: records.value(i, COLUMN.response_code),
      ...countersOf(records, i),
    }),
    onAdd(row, records, i) {
      const alias = records.text(i, COLUMN.alias);
      if (alias) row.alias = alias;
    },
  });
}

const GEO_GROUP = [COLUMN.iso_country, COLUMN.api_id, COLUMN.org_id] as const;

/**
 * The batch's `analytics_hourly_geo` rows. As in the reference pump, a request whose country
 * is unknown (no GeoIP database, or an address it does not know) is not counted per country.
 */
export function foldGeo(batch: AnalyticsBatch): Map<string, GeoDelta> {
  const known = (records: AnalyticsBatchReader, i: number) => records.text(i, COLUMN.iso_country) !== '';
  return fold<GeoDelta>(batch, {
    groupOf: (records, i) =>
      known(records, i)
        ? `${records.value(i, COLUMN.org_id)}\u0000${records.value(i, COLUMN.api_id)}\u0000${records.value(i, COLUMN.iso_country)}\u0000${hourOf(records.requestTime(i))}`
        : undefined,
    idOf: (records, i) =>
      `geo\u0000${records.text(i, COLUMN.org_id)}\u0000${records.text(i, COLUMN.api_id)}\u0000${records.text(i, COLUMN.iso_country)}\u0000${hourOf(records.requestTime(i))}`,
    sameGroup: (records, a, b) => sameValues(records, a, b, GEO_GROUP) && sameHour(records, a, b),
    rowOf: (records, i, id) => ({
      id,
      org_id: records.text(i, COLUMN.org_id),
      hour_start: hourOf(records.requestTime(i)),
      api_id: records.text(i, COLUMN.api_id),
      api_name: records.text(i, COLUMN.api_name),
      iso_country: records.text(i, COLUMN.iso_country),
      ...countersOf(records, i),
    }),
  });
}
