/**
 * The reference gateway's OAS `middleware.global.cache` and the classic `cache_options` it
 * becomes (the gateway serves only the classic form), both ways.
 */

type Classic = Record<string, unknown>;

export interface CacheSettings {
  enabled?: boolean;
  /** seconds an answer is kept */
  timeout?: number;
  cacheAllSafeRequests?: boolean;
  cacheResponseCodes?: number[];
  cacheByHeaders?: string[];
  enableUpstreamCacheControl?: boolean;
  controlTTLHeaderName?: string;
}

export const cacheSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    timeout: { type: 'integer', minimum: 0 },
    cacheAllSafeRequests: { type: 'boolean' },
    cacheResponseCodes: { type: 'array', items: { type: 'integer', minimum: 100, maximum: 599 } },
    cacheByHeaders: { type: 'array', items: { type: 'string', minLength: 1 } },
    enableUpstreamCacheControl: { type: 'boolean' },
    controlTTLHeaderName: { type: 'string' },
  },
};

/** `middleware.global.cache` as classic `cache_options`; nothing when it is absent. */
export function cacheToClassic(cache: CacheSettings | undefined): Classic {
  if (!cache) return {};
  return {
    cache_options: {
      enable_cache: cache.enabled === true,
      cache_timeout: cache.timeout ?? 60,
      cache_all_safe_requests: cache.cacheAllSafeRequests === true,
      cache_response_codes: cache.cacheResponseCodes ?? [],
      cache_by_headers: cache.cacheByHeaders ?? [],
      enable_upstream_cache_control: cache.enableUpstreamCacheControl === true,
      ...(cache.controlTTLHeaderName ? { cache_control_ttl_header: cache.controlTTLHeaderName } : {}),
    },
  };
}

/** Classic `cache_options` back as `middleware.global.cache` (export of a classic API); only when caching is on. */
export function cacheFromClassic(d: Classic): CacheSettings | undefined {
  const c = d.cache_options as Classic | undefined;
  if (!c || c.enable_cache !== true) return undefined;
  const codes = Array.isArray(c.cache_response_codes)
    ? c.cache_response_codes.filter((code): code is number => Number.isInteger(code))
    : [];
  const headers = Array.isArray(c.cache_by_headers)
    ? c.cache_by_headers.filter((h): h is string => typeof h === 'string' && h !== '')
    : [];
  return {
    enabled: true,
    timeout: Math.max(0, Math.floor(Number(c.cache_timeout) || 0)),
    cacheAllSafeRequests: c.cache_all_safe_requests === true,
    ...(codes.length ? { cacheResponseCodes: codes } : {}),
    ...(headers.length ? { cacheByHeaders: headers } : {}),
    enableUpstreamCacheControl: c.enable_upstream_cache_control === true,
    ...(typeof c.cache_control_ttl_header === 'string' && c.cache_control_ttl_header
      ? { controlTTLHeaderName: c.cache_control_ttl_header }
      : {}),
  };
}
