import { ConfigError } from './load-config';
import type { OptionKey } from './options';

/**
 * The standard OpenTelemetry SDK variables (OTEL_*), read as every OpenTelemetry SDK reads them
 * and turned into gw's own options. They come before GW_CONFIG and the GW_OTEL_* variables, so
 * gw's own settings win where both are given.
 */
export function fromOpenTelemetryEnvironment(env: NodeJS.ProcessEnv): Partial<Record<OptionKey, unknown>> {
  if (isTrue(env.OTEL_SDK_DISABLED)) return {};
  const out: Partial<Record<OptionKey, unknown>> = {};
  const protocol = value(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? value(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (protocol !== undefined) {
    if (!['grpc', 'http/protobuf', 'http/json'].includes(protocol))
      throw new ConfigError(
        `invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL: '${protocol}' is not one of grpc, http/protobuf, http/json`,
      );
    out.otelExporter = protocol;
  }
  const endpoint = tracesEndpoint(env, protocol ?? 'http/protobuf');
  if (endpoint !== undefined) out.otelEndpoint = endpoint;
  const headers = value(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) ?? value(env.OTEL_EXPORTER_OTLP_HEADERS);
  if (headers !== undefined) out.otelHeaders = headers;
  const timeout =
    milliseconds(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? milliseconds(env, 'OTEL_EXPORTER_OTLP_TIMEOUT');
  if (timeout !== undefined) out.otelConnectionTimeout = timeout;
  const service = value(env.OTEL_SERVICE_NAME);
  if (service !== undefined) out.otelResourceName = service;
  const batchSize = value(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE);
  if (batchSize !== undefined) out.otelBatchSize = batchSize;
  const queueSize = value(env.OTEL_BSP_MAX_QUEUE_SIZE);
  if (queueSize !== undefined) out.otelQueueSize = queueSize;
  const delay = milliseconds(env, 'OTEL_BSP_SCHEDULE_DELAY');
  if (delay !== undefined) out.otelBatchTimeout = delay;
  const propagators = value(env.OTEL_PROPAGATORS);
  if (propagators !== undefined) out.otelContextPropagation = propagation(propagators);
  Object.assign(out, sampling(value(env.OTEL_TRACES_SAMPLER), value(env.OTEL_TRACES_SAMPLER_ARG)));
  return out;
}

/**
 * The signal's own endpoint is taken as it is; the general one is a base address that the
 * HTTP exporters add `/v1/traces` to (the OTLP exporter specification).
 */
function tracesEndpoint(env: NodeJS.ProcessEnv, protocol: string): string | undefined {
  const own = value(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (own !== undefined) return own;
  const base = value(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base === undefined || protocol === 'grpc') return base;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** OTEL_PROPAGATORS names gw knows; `baggage` is accepted and not used, `none` is not accepted (turn tracing off instead). */
function propagation(list: string): string {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !['tracecontext', 'b3', 'b3multi', 'baggage'].includes(name));
  if (unknown.length > 0)
    throw new ConfigError(
      `invalid configuration: OTEL_PROPAGATORS: '${unknown.join(',')}' not supported; gw propagates tracecontext, b3, b3multi`,
    );
  const kept = names.filter((name) => name !== 'baggage');
  return kept.length > 0 ? kept.join(',') : 'tracecontext';
}

const SAMPLERS: Record<string, { otelSamplingType: string; otelSamplingParentBased: boolean }> = {
  always_on: { otelSamplingType: 'AlwaysOn', otelSamplingParentBased: false },
  always_off: { otelSamplingType: 'AlwaysOff', otelSamplingParentBased: false },
  traceidratio: { otelSamplingType: 'TraceIDRatioBased', otelSamplingParentBased: false },
  parentbased_always_on: { otelSamplingType: 'AlwaysOn', otelSamplingParentBased: true },
  parentbased_always_off: { otelSamplingType: 'AlwaysOff', otelSamplingParentBased: true },
  parentbased_traceidratio: { otelSamplingType: 'TraceIDRatioBased', otelSamplingParentBased: true },
};

function sampling(sampler: string | undefined, arg: string | undefined): Partial<Record<OptionKey, unknown>> {
  if (sampler === undefined) return {};
  const known = SAMPLERS[sampler];
  if (!known)
    throw new ConfigError(
      `invalid configuration: OTEL_TRACES_SAMPLER: '${sampler}' is not one of ${Object.keys(SAMPLERS).join(', ')}`,
    );
  return known.otelSamplingType === 'TraceIDRatioBased' && arg !== undefined
    ? { ...known, otelSamplingRate: arg }
    : known;
}

/** A millisecond variable as the seconds gw's options count in. */
function milliseconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = value(env[name]);
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new ConfigError(`invalid configuration: ${name}: '${raw}' is not a positive number of milliseconds`);
  return ms / 1000;
}

function value(raw: string | undefined): string | undefined {
  const trimmed = raw?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function isTrue(raw: string | undefined): boolean {
  return raw?.trim().toLowerCase() === 'true';
}
