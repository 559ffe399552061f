import type { Knex } from 'knex';
import type { AnalyticsActivityParams, AnalyticsActivityResult, AnalyticsRecord } from '../../../contracts/analytics/actions';
import { pageCount, pageWindow } from '../../../lib/pagination';

/** The hourly columns each grouping keeps apart (besides the organisation). */
const GROUP_COLUMNS: Record<AnalyticsActivityParams['group'], string[]> = {
  endpoint: ['api_id', 'path', 'method'],
  api: ['api_id'],
  error: ['api_id', 'code'],
  hour: ['hour_start'],
  day: ['hour_start'],
  geo: ['iso_country'],
};

/** The groupings the per-country aggregates (analytics_hourly_geo) can answer. */
const PER_COUNTRY_GROUPS: ReadonlySet<AnalyticsActivityParams['group']> = new Set(['geo', 'api', 'day', 'hour']);

/**
 * The table a view reads: the per-country aggregates for the country views, which keep no key,
 * client, endpoint or code (the reference pump's separate "geo" dimension).
 */
function tableOf(params: AnalyticsActivityParams): 'analytics_hourly' | 'analytics_hourly_geo' {
  if (params.group !== 'geo' && params.iso_country === undefined) return 'analytics_hourly';
  if (!PER_COUNTRY_GROUPS.has(params.group) || params.key_hash !== undefined || params.oauth_client_id !== undefined) {
    throw new Error(`analytics.activity: the per-country aggregates answer the groupings geo, api, day and hour, without a key or client filter (asked: ${params.group})`);
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
  api_name: string;
  alias: string;
  hits: number | string;
  success: number | string;
  error: number | string;
  latency_sum: number | string;
  latency_min: number | string;
  latency_max: number | string;
  upstream_sum: number | string;
  upstream_min: number | string;
  upstream_max: number | string;
  last_hit: number | string;
}

/**
 * Reads the hourly aggregates of one organisation in a period, grouped for one dashboard view,
 * busiest group first (time-series views: oldest first), one page of `pageSize`.
 */
export async function queryActivity(db: Knex, params: AnalyticsActivityParams, pageSize: number): Promise<AnalyticsActivityResult> {
  const columns = GROUP_COLUMNS[params.group];
  const table = tableOf(params);
  const query = db(table)
    .where('org_id', params.org_id)
    .andWhere('hour_start', '>=', params.from)
    .andWhere('hour_start', '<', params.to)
    .select(columns)
    .select(
      db.raw('max(api_name) as api_name'),
      db.raw(table === 'analytics_hourly' ? 'max(alias) as alias' : "'' as alias"),
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
    )
    .groupBy(columns);
  if (params.key_hash !== undefined) query.andWhere('key_hash', params.key_hash);
  if (params.oauth_client_id !== undefined) query.andWhere('oauth_client_id', params.oauth_client_id);
  if (params.api_id !== undefined) query.andWhere('api_id', params.api_id);
  if (params.iso_country !== undefined) query.andWhere('iso_country', params.iso_country);
  if (params.group === 'endpoint') query.andWhere('path', '<>', '');
  if (params.group === 'error') query.andWhere('code', '>=', 400);
  const rows = (await query) as GroupRow[];

  let groups: Group[] = rows.map((row) => ({ row, key: columns.map((column) => String(row[column as keyof GroupRow])).join('\u0000'), totals: totalsOf(row) }));
  if (params.group === 'day') groups = foldDays(groups);
  const timeSeries = params.group === 'day' || params.group === 'hour';
  groups.sort((a, b) => (timeSeries ? Number(a.row.hour_start) - Number(b.row.hour_start) : b.totals.hits - a.totals.hits || (a.key < b.key ? -1 : 1)));
  const window = pageWindow(params.page ?? 1, pageSize);
  const page = groups.slice(window.offset, window.limit === undefined ? undefined : window.offset + window.limit);
  return {
    data: page.map((group) => toRecord(params, group)),
    pages: pageCount(groups.length, pageSize),
  };
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

interface Group {
  row: GroupRow;
  key: string;
  totals: Totals;
}

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

const DAY = 86_400_000;

/** Hourly groups (sorted or not) folded into one group per UTC day. */
function foldDays(hours: Group[]): Group[] {
  const days = new Map<number, Group>();
  for (const hour of hours) {
    const day = Math.floor(Number(hour.row.hour_start) / DAY) * DAY;
    const found = days.get(day);
    if (!found) {
      days.set(day, { row: { ...hour.row, hour_start: day }, key: String(day), totals: { ...hour.totals } });
      continue;
    }
    const a = found.totals;
    const b = hour.totals;
    a.hits += b.hits;
    a.success += b.success;
    a.error += b.error;
    a.latencySum += b.latencySum;
    a.upstreamSum += b.upstreamSum;
    a.latencyMin = Math.min(a.latencyMin, b.latencyMin);
    a.latencyMax = Math.max(a.latencyMax, b.latencyMax);
    a.upstreamMin = Math.min(a.upstreamMin, b.upstreamMin);
    a.upstreamMax = Math.max(a.upstreamMax, b.upstreamMax);
    a.lastHit = Math.max(a.lastHit, b.lastHit);
    if (hour.row.alias > found.row.alias) found.row.alias = hour.row.alias;
  }
  return [...days.values()];
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function toRecord(params: AnalyticsActivityParams, { row, totals }: Group): AnalyticsRecord {
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
  if (params.key_hash !== undefined) Object.assign(id, { key: params.key_hash, alias: row.alias });
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
