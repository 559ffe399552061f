import type { AnalyticsBatch } from './record-batch';

/**
 * `analytics.*` actions: gateway nodes hand batches of records to the analytics service
 * (`analytics.ingest`), the dashboard reads hourly aggregates (`analytics.activity`).
 */

/**
 * One proxied request, as a gateway node records it
 * (docs/analytics-and-metrics.md#how-requests-are-recorded).
 */
export interface AnalyticsRecordIn {
  api_id: string;
  api_name: string;
  org_id: string;
  /** the path below the listen path */
  path: string;
  /** the request path as the client sent it (normalised) */
  raw_path: string;
  method: string;
  response_code: number;
  /** '' for a keyless request */
  key_hash: string;
  alias: string;
  oauth_client_id: string;
  /** epoch milliseconds when the request arrived */
  request_time: number;
  /** milliseconds, arrival to the last byte of the answer */
  latency: number;
  /** milliseconds the upstream took to answer; 0 when the request never reached it */
  upstream_latency: number;
  ip_address: string;
  user_agent: string;
  /** ISO 3166-1 alpha-2, '' when unknown or no GeoIP database is configured */
  iso_country: string;
  tags: string[];
  /** counted in per-endpoint activity (the reference gateway's TrackPath) */
  track_path: boolean;
  /** seconds the raw record is kept (the API's expire_analytics_after); 0 keeps it */
  expire_after: number;
  /**
   * the gateway refused the request (an error status) before authentication let it through, on
   * an API that authenticates: the hourly aggregates count such requests per API, not per path
   */
  refused_before_auth: boolean;
}

/**
 * The `path` the hourly aggregates give every request the gateway refused before authentication
 * let it through (refused_before_auth): anonymous traffic is counted per API, not per path.
 */
export const UNAUTHENTICATED_PATH = '(unauthenticated)';

/**
 * The `path` of requests on paths past an API's distinct paths in an hour
 * (GW_ANALYTICS_PATHS_PER_API_HOUR): counted together, so no client can add a row per path.
 */
export const OTHER_PATHS = '(other)';

/** A record of the activity views: one group of requests (docs/analytics-and-metrics.md#activity-views). */
export interface AnalyticsRecord {
  id: {
    day?: number;
    month?: number;
    year?: number;
    hour?: number;
    code?: number;
    path?: string;
    key?: string;
    alias?: string;
    url?: string;
    iso_country?: string;
    api_id?: string;
    api_name?: string;
    /** the OAuth client of the `oauth_client` grouping */
    oauth_client_id?: string;
  };
  hits: number;
  success: number;
  error: number;
  /** ISO 8601 */
  last_hit: string;
  /** average milliseconds, arrival to answer (the same figure as `latency`) */
  request_time: number;
  latency: number;
  upstream_latency: number;
  max_upstream_latency: number;
  min_upstream_latency: number;
  max_latency: number;
  min_latency: number;
}

/** How `analytics.activity` groups the hourly aggregates. */
export type ActivityGrouping =
  /** per API and endpoint (path, method) */
  | 'endpoint'
  /** per API */
  | 'api'
  /** per day */
  | 'day'
  /** per hour */
  | 'hour'
  /** per API and error response code (codes ≥ 400 only) */
  | 'error'
  /** per client country (ISO 3166-1 alpha-2; requests of unknown country are not counted) */
  | 'geo'
  /** per key (hash, with its alias; keyless requests are not counted) */
  | 'key'
  /** per OAuth client (requests without a client are not counted) */
  | 'oauth_client';

/**
 * The longest period an activity view reads, in days: the grouping runs in the database over
 * every hourly row of the period, so the period bounds the work of one request.
 */
export const MAX_ACTIVITY_PERIOD_DAYS = 366;

/**
 * An unpaged activity view (page 0 or less) answers the first groups of the view's order
 * (busiest first; time series oldest first): at most this many...
 */
export const UNPAGED_ACTIVITY_MAX_GROUPS = 1000;

/**
 * ...and no more records than fit this many bytes of JSON, so the answer crosses the bus in one
 * message (NATS refuses a message over its max_payload, 1 MiB by default). `pages` still counts
 * the pages of page_size the whole list fills: page through (p=1, 2, …) to read every group.
 */
export const UNPAGED_ACTIVITY_MAX_BYTES = 512 * 1024;

export interface AnalyticsActivityParams {
  org_id: string;
  group: ActivityGrouping;
  /** epoch ms, inclusive */
  from: number;
  /** epoch ms, exclusive; at most MAX_ACTIVITY_PERIOD_DAYS after `from` */
  to: number;
  key_hash?: string;
  oauth_client_id?: string;
  api_id?: string;
  /**
   * only requests from this country (ISO 3166-1 alpha-2), read from the per-country aggregates:
   * with the groupings `geo`, `api`, `day` and `hour`, and without a key or client filter
   */
  iso_country?: string;
  /**
   * 1-based; 0 or less: the first groups, bounded by UNPAGED_ACTIVITY_MAX_GROUPS and
   * UNPAGED_ACTIVITY_MAX_BYTES
   */
  page?: number;
}

export interface AnalyticsActivityResult {
  data: AnalyticsRecord[];
  pages: number;
}

export interface AnalyticsIngestParams {
  /** checked by the service (record-batch.ts `batchProblem`) when it comes from another node */
  batch: AnalyticsBatch;
}

export const analyticsActionParams = {
  activity: {
    org_id: 'string',
    group: { type: 'enum', values: ['endpoint', 'api', 'day', 'hour', 'error', 'geo', 'key', 'oauth_client'] },
    from: { type: 'number', integer: true },
    to: { type: 'number', integer: true },
    key_hash: { type: 'string', optional: true },
    oauth_client_id: { type: 'string', optional: true },
    api_id: { type: 'string', optional: true },
    iso_country: { type: 'string', optional: true, pattern: /^[A-Z]{2}$/ },
    page: { type: 'number', integer: true, optional: true },
  },
};

/** The `analytics.*` actions: params and result of each (see contracts/actions.ts). */
export interface AnalyticsActions {
  /** stores a batch: raw records and hourly aggregates, in one transaction; answers how many were stored */
  'analytics.ingest': { params: AnalyticsIngestParams; result: { stored: number } };
  'analytics.activity': { params: AnalyticsActivityParams; result: AnalyticsActivityResult };
}
