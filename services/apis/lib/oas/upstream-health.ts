import { durationSeconds } from './duration';

/**
 * The reference gateway's OAS settings for CORS, load balancing, service discovery, uptime
 * tests and circuit breakers, their schema fragments, and the classic fields each becomes
 * (the gateway serves only the classic form).
 */

type Classic = Record<string, unknown>;
type Toggle = { enabled?: boolean };
const on = (toggle: Toggle | undefined): boolean => toggle?.enabled === true;

const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const strings = { type: 'array', items: { type: 'string' } };
const duration = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h))+$' };

export interface CorsSettings extends Toggle {
  maxAge?: number;
  allowCredentials?: boolean;
  exposedHeaders?: string[];
  allowedHeaders?: string[];
  optionsPassthrough?: boolean;
  debug?: boolean;
  allowedOrigins?: string[];
  allowedMethods?: string[];
}

export interface UpstreamHealthSettings {
  loadBalancing?: Toggle & { skipUnavailableHosts?: boolean; targets?: Array<{ url: string; weight?: number }> };
  serviceDiscovery?: Toggle & {
    queryEndpoint?: string;
    dataPath?: string;
    useNestedQuery?: boolean;
    parentDataPath?: string;
    portDataPath?: string;
    useTargetList?: boolean;
    cacheTimeout?: number;
    cache?: Toggle & { timeout?: number };
    targetPath?: string;
    endpointReturnsList?: boolean;
  };
  uptimeTests?: Toggle & {
    tests?: Array<{
      url: string;
      method?: string;
      timeout?: string;
      headers?: Record<string, string>;
      body?: string;
      expectedStatus?: number;
      interval?: string;
    }>;
    failureTriggerSampleSize?: number;
  };
}

export interface CircuitBreakerSettings extends Toggle {
  threshold: number;
  sampleSize: number;
  coolDownPeriod: number;
  halfOpenStateEnabled?: boolean;
}

export const corsSchema = closed({
  enabled: { type: 'boolean' },
  maxAge: { type: 'integer', minimum: 0 },
  allowCredentials: { type: 'boolean' },
  exposedHeaders: strings,
  allowedHeaders: strings,
  optionsPassthrough: { type: 'boolean' },
  debug: { type: 'boolean' },
  allowedOrigins: strings,
  allowedMethods: strings,
});

export const upstreamHealthSchemas = {
  loadBalancing: closed({
    enabled: { type: 'boolean' },
    skipUnavailableHosts: { type: 'boolean' },
    targets: {
      type: 'array',
      items: closed({ url: { type: 'string', pattern: '^https?://' }, weight: { type: 'integer', minimum: 0 } }, [
        'url',
      ]),
    },
  }),
  serviceDiscovery: closed({
    enabled: { type: 'boolean' },
    queryEndpoint: { type: 'string', pattern: '^https?://' },
    dataPath: { type: 'string' },
    useNestedQuery: { type: 'boolean' },
    parentDataPath: { type: 'string' },
    portDataPath: { type: 'string' },
    useTargetList: { type: 'boolean' },
    cacheTimeout: { type: 'integer', minimum: 0 },
    cache: closed({ enabled: { type: 'boolean' }, timeout: { type: 'integer', minimum: 0 } }),
    targetPath: { type: 'string' },
    endpointReturnsList: { type: 'boolean' },
  }),
  uptimeTests: closed({
    enabled: { type: 'boolean' },
    failureTriggerSampleSize: { type: 'integer', minimum: 1 },
    tests: {
      type: 'array',
      items: closed(
        {
          url: { type: 'string', pattern: '^https?://' },
          method: { type: 'string' },
          timeout: duration,
          interval: duration,
          headers: { type: 'object', additionalProperties: { type: 'string' } },
          body: { type: 'string' },
          expectedStatus: { type: 'integer', minimum: 100, maximum: 599 },
        },
        ['url'],
      ),
    },
  }),
};

export const circuitBreakerSchema = closed(
  {
    enabled: { type: 'boolean' },
    threshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    sampleSize: { type: 'integer', minimum: 1 },
    coolDownPeriod: { type: 'integer', minimum: 0 },
    halfOpenStateEnabled: { type: 'boolean' },
  },
  ['threshold', 'sampleSize', 'coolDownPeriod'],
);

/** `middleware.global.cors` as the classic `CORS` block. */
export function corsToClassic(cors: CorsSettings | undefined): Classic {
  if (!on(cors)) return {};
  const c = cors!;
  return {
    CORS: {
      enable: true,
      allowed_origins: c.allowedOrigins ?? [],
      allowed_methods: c.allowedMethods ?? [],
      allowed_headers: c.allowedHeaders ?? [],
      exposed_headers: c.exposedHeaders ?? [],
      allow_credentials: c.allowCredentials === true,
      max_age: c.maxAge ?? 0,
      options_passthrough: c.optionsPassthrough === true,
      debug: c.debug === true,
    },
  };
}

/** `upstream.loadBalancing` and `upstream.serviceDiscovery` as classic `proxy` fields; `upstream.uptimeTests` as `uptime_tests`. */
export function upstreamHealthToClassic(upstream: UpstreamHealthSettings): { proxy: Classic; rest: Classic } {
  const proxy: Classic = {};
  const rest: Classic = {};
  const lb = upstream.loadBalancing;
  if (on(lb)) {
    // A weight is how many turns a target gets in the rotation (the reference repeats it in target_list).
    proxy.enable_load_balancing = true;
    proxy.target_list = (lb!.targets ?? []).flatMap((t) => Array<string>(t.weight ?? 1).fill(t.url));
    if (lb!.skipUnavailableHosts === true) proxy.check_host_against_uptime_tests = true;
  }
  const sd = upstream.serviceDiscovery;
  if (on(sd)) {
    const s = sd!;
    proxy.service_discovery = {
      use_discovery_service: true,
      query_endpoint: s.queryEndpoint ?? '',
      data_path: s.dataPath ?? '',
      use_nested_query: s.useNestedQuery === true,
      parent_data_path: s.parentDataPath ?? '',
      port_data_path: s.portDataPath ?? '',
      use_target_list: s.useTargetList === true,
      cache_timeout: s.cache ? (s.cache.timeout ?? 0) : (s.cacheTimeout ?? 0),
      ...(s.cache && !on(s.cache) ? { cache_disabled: true } : {}),
      target_path: s.targetPath ?? '',
      endpoint_returns_list: s.endpointReturnsList === true,
    };
  }
  const uptime = upstream.uptimeTests;
  if (on(uptime)) {
    rest.uptime_tests = {
      check_list: (uptime!.tests ?? []).map((t) => ({
        url: t.url,
        method: t.method ?? 'GET',
        headers: t.headers ?? {},
        body: t.body ?? '',
        ...(t.timeout ? { timeout: durationSeconds(t.timeout) } : {}),
        ...(t.interval ? { interval: durationSeconds(t.interval) } : {}),
        ...(t.expectedStatus ? { expected_status: t.expectedStatus } : {}),
      })),
      config: uptime!.failureTriggerSampleSize ? { failure_trigger_sample_size: uptime!.failureTriggerSampleSize } : {},
    };
  }
  return { proxy, rest };
}

/** `middleware.operations.<id>.circuitBreaker` as a classic `circuit_breakers` entry (without path and method). */
export function circuitBreakerEntry(settings: CircuitBreakerSettings): Classic {
  return {
    threshold_percent: settings.threshold,
    samples: settings.sampleSize,
    return_to_service_after: settings.coolDownPeriod,
    disable_half_open_state: settings.halfOpenStateEnabled !== true,
  };
}

/** The classic `CORS` block back as `middleware.global.cors` (export of a classic API). */
export function corsFromClassic(d: Classic): CorsSettings | undefined {
  const c = d.CORS as Classic | undefined;
  if (!c || c.enable !== true) return undefined;
  const list = (value: unknown) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  return {
    enabled: true,
    allowedOrigins: list(c.allowed_origins),
    allowedMethods: list(c.allowed_methods),
    allowedHeaders: list(c.allowed_headers),
    exposedHeaders: list(c.exposed_headers),
    allowCredentials: c.allow_credentials === true,
    maxAge: Math.max(0, Math.floor(Number(c.max_age) || 0)),
    optionsPassthrough: c.options_passthrough === true,
  };
}

/** The classic load balancing, service discovery and uptime tests back as `upstream` settings. */
export function upstreamHealthFromClassic(d: Classic & { proxy: Classic }): UpstreamHealthSettings {
  const out: UpstreamHealthSettings = {};
  const { proxy } = d;
  if (proxy.enable_load_balancing === true && Array.isArray(proxy.target_list)) {
    const weights = new Map<string, number>();
    for (const url of proxy.target_list) if (typeof url === 'string') weights.set(url, (weights.get(url) ?? 0) + 1);
    out.loadBalancing = {
      enabled: true,
      skipUnavailableHosts: proxy.check_host_against_uptime_tests === true,
      targets: [...weights].map(([url, weight]) => ({ url, weight })),
    };
  }
  const sd = proxy.service_discovery as Classic | undefined;
  if (sd?.use_discovery_service === true) {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    out.serviceDiscovery = {
      enabled: true,
      queryEndpoint: text(sd.query_endpoint),
      dataPath: text(sd.data_path),
      useNestedQuery: sd.use_nested_query === true,
      parentDataPath: text(sd.parent_data_path),
      portDataPath: text(sd.port_data_path),
      useTargetList: sd.use_target_list === true,
      cache: { enabled: sd.cache_disabled !== true, timeout: Math.max(0, Math.floor(Number(sd.cache_timeout) || 0)) },
      targetPath: text(sd.target_path),
      endpointReturnsList: sd.endpoint_returns_list === true,
    };
  }
  const uptime = d.uptime_tests as { check_list?: Classic[]; config?: Classic } | undefined;
  if (Array.isArray(uptime?.check_list) && uptime.check_list.length > 0) {
    const seconds = (value: unknown) => (Number(value) > 0 ? `${Math.round(Number(value) * 1000)}ms` : undefined);
    out.uptimeTests = {
      enabled: true,
      ...(Number(uptime.config?.failure_trigger_sample_size) > 0
        ? { failureTriggerSampleSize: Math.floor(Number(uptime.config!.failure_trigger_sample_size)) }
        : {}),
      tests: uptime.check_list.map((t) => ({
        url: String(t.url),
        method: typeof t.method === 'string' && t.method ? t.method : 'GET',
        headers: (t.headers ?? {}) as Record<string, string>,
        body: typeof t.body === 'string' ? t.body : '',
        ...(seconds(t.timeout) ? { timeout: seconds(t.timeout) } : {}),
        ...(seconds(t.interval) ? { interval: seconds(t.interval) } : {}),
        ...(Number(t.expected_status) > 0 ? { expectedStatus: Number(t.expected_status) } : {}),
      })),
    };
  }
  return out;
}

/** A classic `circuit_breakers` entry back as an operation's `circuitBreaker`. */
export function circuitBreakerFromClassic(entry: Classic): CircuitBreakerSettings {
  let threshold = Number(entry.threshold_percent);
  if (threshold > 1) threshold /= 100;
  return {
    enabled: true,
    threshold,
    sampleSize: Math.floor(Number(entry.samples)),
    coolDownPeriod: Math.floor(Number(entry.return_to_service_after) || 0),
    halfOpenStateEnabled: entry.disable_half_open_state !== true,
  };
}
