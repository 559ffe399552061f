import { ROOT_CONTEXT, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { IncomingHttpHeaders } from 'node:http';
import type { GwConfig } from '../../config/load-config';
import { CountedQueue } from './dropped-spans';
import { createTraceExporter } from './exporter';
import { createPropagator, headerMapSetter, requestHeaderGetter } from './propagation';
import { SpanRecorder } from './span-recorder';

export type TracingSettings = Pick<
  GwConfig,
  | 'otelEndpoint'
  | 'otelExporter'
  | 'otelHeaders'
  | 'otelConnectionTimeout'
  | 'otelResourceName'
  | 'otelSpanProcessor'
  | 'otelBatchSize'
  | 'otelQueueSize'
  | 'otelBatchTimeout'
  | 'otelContextPropagation'
  | 'otelSamplingType'
  | 'otelSamplingRate'
  | 'otelSamplingParentBased'
  | 'otelTraceIdHeader'
  | 'nodeId'
>;

/**
 * One node's (or gateway worker's) tracer. Nothing is registered globally: no global tracer
 * provider, no context manager, no global propagator. Callers pass the parent context
 * explicitly, so several nodes in one process keep their traces apart and a node without
 * tracing pays nothing.
 */
export interface Tracing {
  /** answers carry `X-Gw-Trace-Id` (GW_OTEL_TRACE_ID_HEADER) */
  readonly traceIdHeader: boolean;
  /** the caller's trace context in a request's headers (ROOT_CONTEXT when it sent none) */
  extract(headers: IncomingHttpHeaders): Context;
  /** writes `span`'s context into headers going out (traceparent, b3, …) */
  inject(span: Span, headers: Record<string, unknown>): void;
  /** starts a span below `parent` (a span or a context) */
  startSpan(
    name: string,
    kind: SpanKind,
    parent: Span | Context,
    attributes?: Record<string, string | number | boolean>,
  ): Span;
  /** sends what is queued (tests, shutdown) */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The node's tracing, or undefined when no exporter endpoint is configured (tracing off). */
export function createTracing(
  settings: TracingSettings,
  exporter?: SpanExporter,
  version = 'dev',
): Tracing | undefined {
  if (!settings.otelEndpoint && !exporter) return undefined;
  const queue = new CountedQueue(settings.otelQueueSize);
  // While serving, the batch processor sends one batch at a time; on a flush (stopping) it sends
  // every queued batch at once, which the exporter must take rather than fail.
  const batches = Math.ceil(settings.otelQueueSize / Math.min(settings.otelBatchSize, settings.otelQueueSize)) + 1;
  const sent = queue.exporter(
    exporter ?? createTraceExporter({ ...settings, otelEndpoint: settings.otelEndpoint! }, batches),
  );
  const processor =
    settings.otelSpanProcessor === 'simple'
      ? new SimpleSpanProcessor({ exporter: sent })
      : new BatchSpanProcessor({
          exporter: sent,
          maxExportBatchSize: Math.min(settings.otelBatchSize, settings.otelQueueSize),
          // the counted queue drops first; the SDK's own bound is never the one reached
          maxQueueSize: settings.otelQueueSize + 1,
          scheduledDelayMillis: Math.round(settings.otelBatchTimeout * 1000),
          exportTimeoutMillis: Math.round(settings.otelConnectionTimeout * 1000) + 1000,
        });
  const recorder = new SpanRecorder(
    resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.otelResourceName,
      [ATTR_SERVICE_VERSION]: version,
      ...(settings.nodeId ? { 'service.instance.id': settings.nodeId } : {}),
    }),
    { name: 'gw', version },
    sampler(settings),
    queue.processor(processor),
  );
  const propagator = createPropagator(settings.otelContextPropagation);
  return {
    traceIdHeader: settings.otelTraceIdHeader,
    extract: (headers) => propagator.extract(ROOT_CONTEXT, headers, requestHeaderGetter),
    inject: (span, headers) => propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, headerMapSetter),
    startSpan: (name, kind, parent, attributes) =>
      recorder.startSpan(name, kind, isSpan(parent) ? trace.setSpan(ROOT_CONTEXT, parent) : parent, attributes),
    flush: () => recorder.forceFlush(),
    shutdown: () => recorder.shutdown(),
  };
}

function isSpan(parent: Span | Context): parent is Span {
  return typeof (parent as Span).spanContext === 'function';
}

function sampler(settings: TracingSettings): Sampler {
  const root =
    settings.otelSamplingType === 'AlwaysOff'
      ? new AlwaysOffSampler()
      : settings.otelSamplingType === 'TraceIDRatioBased'
        ? new TraceIdRatioBasedSampler(settings.otelSamplingRate)
        : new AlwaysOnSampler();
  return settings.otelSamplingParentBased ? new ParentBasedSampler({ root }) : root;
}

export { SpanKind };
