import type { AnalyticsRecordIn } from '../../contracts/analytics/actions';

/** One proxied request's analytics record as a gateway node makes it: a keyed GET on /orders/items, answered 200. */
export function analyticsRecord(extra: Partial<AnalyticsRecordIn> = {}): AnalyticsRecordIn {
  return {
    api_id: 'a1',
    api_name: 'Orders',
    org_id: 'org1',
    path: '/items',
    raw_path: '/orders/items',
    method: 'GET',
    response_code: 200,
    key_hash: 'k1',
    alias: '',
    oauth_client_id: '',
    request_time: Date.UTC(2026, 10, 22, 10, 15),
    latency: 10,
    upstream_latency: 4,
    ip_address: '81.2.69.160',
    user_agent: 'ua',
    iso_country: 'GB',
    tags: [],
    track_path: true,
    expire_after: 0,
    refused_before_auth: false,
    ...extra,
  };
}
