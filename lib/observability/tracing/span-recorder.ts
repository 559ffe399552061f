import {
  INVALID_SPAN_CONTEXT,
  SamplingDecision,
  TraceFlags,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type SpanKind,
} from '@opentelemetry/api';
import { isTracingSuppressed, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace';
import { RecordedSpan, type SpanSource } from './recorded-span';
import { SpanIds } from './span-ids';

/**
 * gw's tracer: starts spans below a parent context, asks the sampler (the SDK's) whether to
 * record them, and hands the recorded ones to the span processor (the SDK's batch processor)
 * when they end. It does what the SDK's Tracer does for a span, without the per-span work gw
 * does not use: attribute copies for the sampler, links at start, span metrics (recorded-span.ts).
 */
export class SpanRecorder implements SpanSource {
  private readonly ids = new SpanIds();

  constructor(
    readonly resource: Resource,
    readonly scope: InstrumentationScope,
    private readonly sampler: Sampler,
    readonly processor: SpanProcessor,
  ) {}

  startSpan(name: string, kind: SpanKind, context: Context, attributes?: Attributes): Span {
    if (isTracingSuppressed(context)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parent = trace.getSpanContext(context);
    const validParent = parent !== undefined && trace.isSpanContextValid(parent) ? parent : undefined;
    const traceId = validParent?.traceId ?? this.ids.traceId();
    const sampling = this.sampler.shouldSample(context, traceId, name, kind, attributes ?? {}, []);
    const spanContext: SpanContext = {
      traceId,
      spanId: this.ids.spanId(),
      traceFlags: sampling.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: sampling.traceState ?? validParent?.traceState,
    };
    if (sampling.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const recorded = sampling.attributes ? { ...attributes, ...sampling.attributes } : attributes;
    const span = new RecordedSpan(this, spanContext, name, kind, validParent, recorded);
    this.processor.onStart(span, context);
    return span;
  }

  forceFlush(): Promise<void> {
    return this.processor.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.processor.shutdown();
  }
}
