import type { Knex } from 'knex';
import {
  MAX_ACTIVITY_PERIOD_DAYS,
  UNPAGED_ACTIVITY_MAX_BYTES,
  UNPAGED_ACTIVITY_MAX_GROUPS,
  type ActivityGrouping,
  type AnalyticsActivityParams,
  type AnalyticsActivityResult,
  type AnalyticsRecord,
} from '../../../contracts/analytics/actions';
import { Errors } from 'moleculer';
import { pageCount, pageWindow } from '../../../lib/pagination';

const DAY = 86_400_000;

/**
 * What each grouping keeps apart (besides the organisation): result name → SQL expression. The
 * day of an hourly row is integer arithmetic both SQLite and MySQL/MariaDB evaluate alike.
 */
const GROUP_BY: Record<ActivityGrouping, Record<string, string>> = {
  endpoint: { api_id: 'api_id', path: 'path', method: 'method' },
  api: { api_id: 'api_id' },
  error: { api_id: 'api_id', code: 'code' },
  hour: { hour_start: 'hour_start' },
  day: { hour_start: `hour_start - (hour_start % ${DAY})` },
  geo: { iso_country: 'iso_country' },
  key: { key_hash: 'key_hash' },
  oauth_client: { oauth_client_id: 'oauth_client_id' },
};

/** The groupings the per-country aggregates (analytics_hourly_geo) can answer. */
const PER_COUNTRY_GROUPS: ReadonlySet<ActivityGrouping> = new Set(['geo', 'api', 'day', 'hour']);

/**
 * The table a view reads: the per-country aggregates for the country views, which keep no key,
 * client, endpoint or code (the reference pump's separate "geo" dimension).
 */
function tableOf(params: AnalyticsActivityParams): 'analytics_hourly' | 'analytics_hourly_geo' {
  if (params.group !== 'geo' && params.iso_country === undefined) return 'analytics_hourly';
  if (!PER_COUNTRY_GROUPS.has(params.group) || params.key_hash !== undefined || params.oauth_client_id !== undefined) {
    throw new Error(
      `analytics.activity: the per-country aggregates answer the groupings geo, api, day and hour, without a key or client filter (asked: ${params.group})`,
    );
  }
  return 'analytics_hourly_geo';
}

interface GroupRow {
  api_id?: string;
  path?: string;
  method?: string;
  code?: number;
  hour_start?: number | string;
  iso_country?: string;
  key_hash?: string;
  oauth_client_id?: string;
  api_name: string;
  alias: string;
  hits: number | string;
  success: number | string;
  error: number | string;
  latency_sum: number | string;
  latency_min: number | string;
  latency_max: number | string;
  upstream_sum: number | string;
  upstream_max: number | string;
  upstream_min: number | string;
  last_hit: number | string;
}

/**
 * Reads the hourly aggregates of one organisation in a period, grouped for one dashboard view,
 * busiest group first (time-series views: oldest first), one page of `pageSize`. The database
 * groups, orders and pages: only the page crosses to this process, however many groups there are.
 * Unpaged (page 0 or less), the first groups up to UNPAGED_ACTIVITY_MAX_GROUPS and
 * UNPAGED_ACTIVITY_MAX_BYTES, so the answer fits one bus message; `pages` counts them all.
 */
export async function queryActivity(
  db: Knex,
  params: AnalyticsActivityParams,
  pageSize: number,
): Promise<AnalyticsActivityResult> {
  if (params.to - params.from > MAX_ACTIVITY_PERIOD_DAYS * DAY) {
    throw new Errors.ValidationError(
      `analytics.activity: the period is longer than ${MAX_ACTIVITY_PERIOD_DAYS} days`,
      'VALIDATION_ERROR',
      { from: params.from, to: params.to },
    );
  }
  const table = tableOf(params);
  const groupBy = Object.entries(GROUP_BY[params.group]);
  const grouped = db(table)
    .where('org_id', params.org_id)
    .andWhere('hour_start', '>=', params.from)
    .andWhere('hour_start', '<', params.to)
    .select(groupBy.map(([name, expression]) => (name === expression ? name : db.raw(`${expression} as ${name}`))))
    .groupByRaw(groupBy.map(([, expression]) => expression).join(', '));
  if (params.key_hash !== undefined) grouped.andWhere('key_hash', params.key_hash);
  if (params.oauth_client_id !== undefined) grouped.andWhere('oauth_client_id', params.oauth_client_id);
  if (params.api_id !== undefined) grouped.andWhere('api_id', params.api_id);
  if (params.iso_country !== undefined) grouped.andWhere('iso_country', params.iso_country);
  if (params.group === 'endpoint') grouped.andWhere('path', '<>', '');
  if (params.group === 'error') grouped.andWhere('code', '>=', 400);
  if (params.group === 'key') grouped.andWhere('key_hash', '<>', '');
  if (params.group === 'oauth_client') grouped.andWhere('oauth_client_id', '<>', '');

  const [{ total }] = await db.from(grouped.clone().as('groups')).count({ total: '*' });
  const pages = pageCount(Number(total), pageSize);
  const window = pageWindow(params.page ?? 1, pageSize);
  if (window.limit === 0) return { data: [], pages };

  const page = grouped.select(
    db.raw(`${newest(db, 'api_name')} as api_name`),
    db.raw(table === 'analytics_hourly' ? `${newest(db, 'alias')} as alias` : "'' as alias"),
    db.raw('sum(hits) as hits'),
    db.raw('sum(success) as success'),
    db.raw('sum(error) as error'),
    db.raw('sum(latency_sum) as latency_sum'),
    db.raw('min(latency_min) as latency_min'),
    db.raw('max(latency_max) as latency_max'),
    db.raw('sum(upstream_sum) as upstream_sum'),
    db.raw('min(upstream_min) as upstream_min'),
    db.raw('max(upstream_max) as upstream_max'),
    db.raw('max(last_hit) as last_hit'),
  );
  const timeSeries = params.group === 'day' || params.group === 'hour';
  // Busiest first; equal counts in the order of the grouping columns, so pages never overlap.
  if (!timeSeries) page.orderByRaw('sum(hits) desc');
  page.orderByRaw(groupBy.map(([, expression]) => `${expression} asc`).join(', '));
  if (window.limit !== undefined) page.limit(window.limit).offset(window.offset);
  else page.limit(UNPAGED_ACTIVITY_MAX_GROUPS);
  const rows = (await page) as GroupRow[];
  const data = rows.map((row) => toRecord(params, row));
  return { data: window.limit === undefined ? withinBytes(data, UNPAGED_ACTIVITY_MAX_BYTES) : data, pages };
}

/** The leading records whose JSON array fits `budget` bytes. */
function withinBytes(records: AnalyticsRecord[], budget: number): AnalyticsRecord[] {
  let bytes = 2; // []
  for (let i = 0; i < records.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(records[i])) + (i === 0 ? 0 : 1);
    if (bytes > budget) return records.slice(0, i);
  }
  return records;
}

/**
 * The value `column` has in the group's most recently hit row: a key's alias (or an API's name)
 * as it is now, not whichever of its past values sorts last. One pass of `max` over the value
 * prefixed with the row's zero-padded last_hit; equal last hits take the greater value.
 */
function newest(db: Knex, column: 'alias' | 'api_name'): string {
  return String(db.client.config.client).includes('sqlite')
    ? `substr(max(printf('%020d', last_hit) || ${column}), 21)`
    : `substring(max(concat(lpad(last_hit, 20, '0'), ${column})), 21)`;
}

interface Totals {
  hits: number;
  success: number;
  error: number;
  latencySum: number;
  latencyMin: number;
  latencyMax: number;
  upstreamSum: number;
  upstreamMin: number;
  upstreamMax: number;
  lastHit: number;
}

/** The sums of a row as numbers (MySQL answers sums of integers as decimal strings). */
function totalsOf(row: GroupRow): Totals {
  return {
    hits: Number(row.hits),
    success: Number(row.success),
    error: Number(row.error),
    latencySum: Number(row.latency_sum),
    latencyMin: Number(row.latency_min),
    latencyMax: Number(row.latency_max),
    upstreamSum: Number(row.upstream_sum),
    upstreamMin: Number(row.upstream_min),
    upstreamMax: Number(row.upstream_max),
    lastHit: Number(row.last_hit),
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function toRecord(params: AnalyticsActivityParams, row: GroupRow): AnalyticsRecord {
  const totals = totalsOf(row);
  const id: AnalyticsRecord['id'] = {};
  if (row.hour_start !== undefined) {
    const at = new Date(Number(row.hour_start));
    Object.assign(id, { day: at.getUTCDate(), month: at.getUTCMonth() + 1, year: at.getUTCFullYear() });
    if (params.group === 'hour') id.hour = at.getUTCHours();
  }
  if (row.api_id !== undefined) Object.assign(id, { api_id: row.api_id, api_name: row.api_name });
  if (row.path !== undefined) Object.assign(id, { path: row.path, url: `${row.method} ${row.path}` });
  if (row.code !== undefined) id.code = Number(row.code);
  const country = row.iso_country ?? params.iso_country;
  if (country !== undefined) id.iso_country = country;
  if (row.key_hash !== undefined) Object.assign(id, { key: row.key_hash, alias: row.alias });
  else if (params.key_hash !== undefined) Object.assign(id, { key: params.key_hash, alias: row.alias });
  if (row.oauth_client_id !== undefined) id.oauth_client_id = row.oauth_client_id;
  const latency = round(totals.latencySum / totals.hits);
  return {
    id,
    hits: totals.hits,
    success: totals.success,
    error: totals.error,
    last_hit: new Date(totals.lastHit).toISOString(),
    request_time: latency,
    latency,
    upstream_latency: round(totals.upstreamSum / totals.hits),
    max_upstream_latency: round(totals.upstreamMax),
    min_upstream_latency: round(totals.upstreamMin),
    max_latency: round(totals.latencyMax),
    min_latency: round(totals.latencyMin),
  };
}
