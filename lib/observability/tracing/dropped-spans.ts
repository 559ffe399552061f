import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { Context } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { COUNTERS, count } from '../counters';

/** Why a finished span never reached the collector (the `reason` label of gw_trace_spans_dropped_total). */
export type DropReason = 'queue_full' | 'export_failed';

/**
 * Counts the spans that never reach the collector, for /metrics. The SDK's batch processor drops
 * spans silently once its queue is full; this processor keeps the same count of queued spans
 * (it sees each span go in and, through the exporter below, each batch go out) and drops, and
 * counts, before the queue does. Export failures (collector down, timeout, refusal) are counted
 * by the exporter wrapper. Nothing here waits: a span is queued or dropped synchronously.
 */
export class CountedQueue {
  private queued = 0;

  constructor(private readonly capacity: number) {}

  /** wraps the exporter the batch processor sends to */
  exporter(inner: SpanExporter): SpanExporter {
    return {
      export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => {
        this.queued = Math.max(0, this.queued - spans.length);
        inner.export(spans, (result) => {
          if (result.code === ExportResultCode.SUCCESS) count(COUNTERS.traceSpansExported, {}, spans.length);
          else dropped('export_failed', spans.length);
          done(result);
        });
      },
      shutdown: () => inner.shutdown(),
      forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
    };
  }

  /** wraps the batch processor: a span past the queue's capacity is dropped here, and counted */
  processor(inner: SpanProcessor): SpanProcessor {
    return {
      onStart: (span: Span, parent: Context) => inner.onStart(span, parent),
      onEnd: (span: ReadableSpan) => {
        if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
        if (this.queued >= this.capacity) return dropped('queue_full', 1);
        this.queued++;
        inner.onEnd(span);
      },
      forceFlush: () => inner.forceFlush(),
      shutdown: () => inner.shutdown(),
    };
  }
}

function dropped(reason: DropReason, spans: number): void {
  count(COUNTERS.traceSpansDropped, { reason }, spans);
}
