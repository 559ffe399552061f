import { readFileSync } from 'node:fs';
import Validator from 'fastest-validator';
import { outboundPolicy } from '../net/outbound-policy';
import { StartupError } from '../startup-error';
import { OPTIONS, RENAMED, type OptionKey } from './options';
import { fromOpenTelemetryEnvironment } from './otel-environment';

export interface GwConfig {
  gatewayPort: number;
  gatewayTlsPort?: number;
  gatewayTlsCertFile?: string;
  gatewayTlsKeyFile?: string;
  gatewayTlsCertId?: string;
  dashboardPort: number;
  /** the HTTPS port offers HTTP/2 (ALPN) */
  gatewayHttp2: boolean;
  /** the plain port accepts cleartext HTTP/2 with prior knowledge */
  gatewayH2c: boolean;
  http2MaxConcurrentStreams: number;
  /** seconds */
  http2IdleTimeout: number;
  /** bytes, as HTTP/2's SETTINGS_MAX_HEADER_LIST_SIZE counts them */
  http2MaxHeaderListSize: number;
  /** megabytes per HTTP/2 connection */
  http2MaxSessionMemory: number;
  http2MaxInvalidFrames: number;
  http2MaxRejectedStreams: number;
  /** the dashboard's public origin; https makes the login cookie `__Host-` and Secure */
  dashboardUrl?: string;
  host: string;
  secret?: string;
  adminSecret?: string;
  databaseUrl: string;
  transporter?: string;
  redisUrl?: string;
  services: string[];
  appsDir: string;
  dataDir: string;
  pluginsDir: string;
  pluginPackages: string[];
  outboundPolicy: 'allow' | 'deny-private';
  outboundAllow: string[];
  proxyTimeout: number;
  proxyEnableHttp2: boolean;
  shutdownTimeout: number;
  hashKeys: boolean;
  enableHashedKeysListing: boolean;
  /** organisation sessions are enforced on every request (docs/limits.md#organisation-quotas) */
  enforceOrgQuotas: boolean;
  enableSentinelRateLimiter: boolean;
  enableFixedWindowRateLimiter: boolean;
  enableNonTransactionalRateLimiter: boolean;
  drlThreshold: number;
  rateLimitResponseHeaders: 'quotas' | 'rate_limits' | 'none';
  additionalPermissions: string;
  openPolicyDebug: boolean;
  templatePath: string;
  dashboardUiPath: string;
  graphqlWsInitTimeout: number;
  /** seconds a stopping or replaced stream keeps delivering what it holds */
  streamsDrainTimeout: number;
  /** ms one stream mapping may run on one message */
  streamsMappingTimeBudget: number;
  graphqlDocumentCacheBytes: number;
  maxResponseBodyBuffer: number;
  /** bytes of one MCP POST body */
  mcpMaxMessageBytes: number;
  /** seconds an MCP tool call may take upstream */
  mcpToolCallTimeout: number;
  /** MCP sessions one key may hold on one API (0: no bound) */
  mcpMaxSessionsPerKey: number;
  /** seconds an MCP session may go unused before the gateway forgets it (0: never) */
  mcpSessionIdleTimeout: number;
  responseCacheBytes: number;
  /** what a virtual endpoint's answer may hold: headers, their bytes, body bytes */
  virtualMaxResponseHeaders: number;
  virtualMaxResponseHeaderBytes: number;
  virtualMaxResponseBodyBytes: number;
  pageSize: number;
  dashboardMetrics: boolean;
  gatewayMetrics: boolean;
  metricsToken?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  nodeId?: string;
  namespace: string;
  heartbeatInterval: number;
  heartbeatTimeout: number;
  storeCheckInterval: number;
  /** seconds a fetched JSON Web Key Set is kept when the API sets no cache_timeout */
  jwksCacheTimeout: number;
  /** seconds between refetches of one key set for unknown `kid`s */
  jwksRefetchInterval: number;
  oauthTokenExpire: number;
  oauthRefreshTokenExpire: number;
  oauthAuthCodeExpire: number;
  oauthTokenExpiredRetainPeriod: number;
  analytics: boolean;
  geoipDb?: string;
  analyticsFlushInterval: number;
  analyticsBufferSize: number;
  analyticsSweepInterval: number;
  /** distinct paths per API and hour in the analytics aggregates; 0: no limit */
  analyticsPathsPerApiHour: number;
  /** seconds analytics aggregates (and, at most, raw records) are kept; 0 keeps them */
  analyticsRetention: number;
  /** whether the analytics service stores batches in a writer thread with its own connection */
  analyticsWriterThread: boolean;
  /** 'auto' or a count (app/workers/worker-count.ts) */
  workers: string;
  /** MB of shared memory for the limiter counters of a node's gateway workers */
  limiterSharedMb: number;
  /** a log line per request an API answered */
  accessLogs: boolean;
  /** the fields of an access log line; empty: every field */
  accessLogsTemplate: string[];
  /** OTLP collector address; tracing is off without it */
  otelEndpoint?: string;
  otelExporter: 'grpc' | 'http' | 'http/protobuf' | 'http/json';
  /** `name=value,…` as OTEL_EXPORTER_OTLP_HEADERS writes them */
  otelHeaders?: string;
  /** seconds */
  otelConnectionTimeout: number;
  otelResourceName: string;
  otelSpanProcessor: 'batch' | 'simple';
  otelBatchSize: number;
  otelQueueSize: number;
  /** seconds */
  otelBatchTimeout: number;
  /** comma list of tracecontext, b3, b3multi */
  otelContextPropagation: string;
  otelSamplingType: 'AlwaysOn' | 'AlwaysOff' | 'TraceIDRatioBased';
  otelSamplingRate: number;
  otelSamplingParentBased: boolean;
  otelTraceIdHeader: boolean;
}

/** A setting that is invalid on its own: one line naming it (a StartupError, without a trace). */
export class ConfigError extends StartupError {}

type Source = Partial<Record<OptionKey, unknown>>;

const checkConfig = new Validator().compile({
  $$strict: true,
  ...Object.fromEntries(Object.entries(OPTIONS).map(([key, option]) => [key, option.rule])),
});

/**
 * Builds the configuration: declared defaults, then the standard OpenTelemetry variables
 * (OTEL_*), then the JSON file named by GW_CONFIG, then the GW_* environment, then `overrides`
 * (tests and embedding code). Validated and frozen.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<GwConfig> = {},
): Readonly<GwConfig> {
  rejectRenamed(env);
  const merged: Source = {
    ...defaults(),
    ...fromOpenTelemetryEnvironment(env),
    ...(env.GW_CONFIG ? readConfigFile(env.GW_CONFIG) : {}),
    ...fromEnvironment(env),
    ...withoutUndefined(overrides),
  };
  const result = checkConfig(merged);
  if (result !== true) {
    const problems = (result as ValidationProblem[]).map((p) => `${envName(p.field)}: ${describeProblem(p)}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  checkOutboundAllow(merged.outboundAllow as string[]);
  return Object.freeze({
    ...(merged as unknown as GwConfig),
    services: Object.freeze([...(merged.services as string[])]) as string[],
    pluginPackages: Object.freeze([...(merged.pluginPackages as string[])]) as string[],
    outboundAllow: Object.freeze([...(merged.outboundAllow as string[])]) as string[],
    accessLogsTemplate: Object.freeze([...(merged.accessLogsTemplate as string[])]) as string[],
  });
}

function checkOutboundAllow(entries: string[]): void {
  try {
    outboundPolicy('deny-private', entries);
  } catch (err) {
    throw new ConfigError(`invalid configuration: GW_OUTBOUND_ALLOW: ${(err as Error).message}`);
  }
}

function defaults(): Source {
  const out: Source = {};
  for (const [key, option] of Object.entries(OPTIONS) as Array<[OptionKey, (typeof OPTIONS)[OptionKey]]>) {
    if (option.default !== undefined) out[key] = structuredClone(option.default);
  }
  return out;
}

function fromEnvironment(env: NodeJS.ProcessEnv): Source {
  const out: Source = {};
  for (const [key, option] of Object.entries(OPTIONS) as Array<[OptionKey, (typeof OPTIONS)[OptionKey]]>) {
    const raw = env[option.env];
    if (raw === undefined || raw === '') continue;
    out[key] =
      option.rule.type === 'array'
        ? raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : raw;
  }
  return out;
}

function readConfigFile(path: string): Source {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`GW_CONFIG: cannot read ${path}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`GW_CONFIG: ${path} must hold a JSON object`);
  }
  for (const key of Object.keys(parsed)) {
    if (!(key in OPTIONS))
      throw new ConfigError(
        `GW_CONFIG: unknown option '${key}' in ${path}; known options: ${Object.keys(OPTIONS).join(', ')}`,
      );
  }
  return parsed;
}

function rejectRenamed(env: NodeJS.ProcessEnv): void {
  for (const [old, current] of Object.entries(RENAMED)) {
    if (env[old] !== undefined) throw new ConfigError(`unsupported ${old}, use ${current} instead`);
  }
}

interface ValidationProblem {
  type: string;
  field: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** fastest-validator's enum message puts the allowed values where the given one belongs. */
function describeProblem(problem: ValidationProblem): string {
  if (problem.type !== 'enumValue') return problem.message;
  const allowed = String(problem.expected)
    .split(',')
    .map((value) => value.trim());
  return `'${String(problem.actual)}' is not one of ${allowed.join(', ')}`;
}

function envName(field: string): string {
  const option = OPTIONS[field.split(/[.[]/)[0] as OptionKey];
  return option ? option.env : field;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
