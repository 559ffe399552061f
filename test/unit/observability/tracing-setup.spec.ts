import { strict as assert } from 'node:assert';
import { SpanKind } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { loadConfig } from '../../../lib/config/load-config';
import { COUNTERS, valueOf } from '../../../lib/observability/counters';
import { httpTracesUrl, parseHeaders } from '../../../lib/observability/tracing/exporter';
import { createTracing } from '../../../lib/observability/tracing/tracing';

/** An exporter whose exports stay pending until released: a collector that is slow to answer. */
class StalledExporter implements SpanExporter {
  readonly pending: Array<() => void> = [];
  private stalled = true;
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const release = () => done({ code: ExportResultCode.SUCCESS });
    if (this.stalled) this.pending.push(release);
    else release();
  }
  /** the collector answers again: what was held, and what comes */
  recover(): void {
    this.stalled = false;
    for (const release of this.pending.splice(0)) release();
  }
  shutdown(): Promise<void> {
    for (const release of this.pending.splice(0)) release();
    return Promise.resolve();
  }
}

describe('tracing: setup', () => {
  it('is off (nothing created) without an endpoint', () => {
    assert.equal(createTracing(loadConfig({})), undefined);
  });

  it('samples by the settings: a ratio of 0 records no new trace, but follows a sampled caller', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createTracing(
      loadConfig({}, { otelSamplingType: 'TraceIDRatioBased', otelSamplingRate: 0, otelSpanProcessor: 'simple' }),
      exporter,
    )!;
    tracing.startSpan('new', SpanKind.SERVER, tracing.extract({})).end();
    const parent = tracing.extract({ traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` });
    tracing.startSpan('followed', SpanKind.SERVER, parent).end();
    await tracing.flush();
    assert.deepEqual(
      exporter.getFinishedSpans().map((span) => span.name),
      ['followed'],
    );
  });

  it('passes a context upstream for a request it does not sample, marked not sampled', () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createTracing(
      loadConfig({}, { otelSamplingType: 'AlwaysOff', otelSpanProcessor: 'simple' }),
      exporter,
    )!;
    const span = tracing.startSpan('dropped', SpanKind.SERVER, tracing.extract({}), { 'gw.api.id': 'a' });
    const headers: Record<string, unknown> = {};
    tracing.inject(span, headers);
    assert.match(String(headers.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    span.end();
    assert.deepEqual(exporter.getFinishedSpans(), []);
  });

  it('drops, and counts, the spans past the queue while the collector is slow, without waiting', async () => {
    const exporter = new StalledExporter();
    const tracing = createTracing(
      loadConfig({}, { otelQueueSize: 4, otelBatchSize: 2, otelBatchTimeout: 60 }),
      exporter,
    )!;
    const before = valueOf(COUNTERS.traceSpansDropped, { reason: 'queue_full' });
    for (let i = 0; i < 10; i++) tracing.startSpan(`s${i}`, SpanKind.SERVER, tracing.extract({})).end();
    // one batch of two is with the exporter (held there: one export at a time), four fill the queue,
    // the other four are dropped
    assert.equal(valueOf(COUNTERS.traceSpansDropped, { reason: 'queue_full' }) - before, 4);
    exporter.recover();
    await tracing.shutdown();
  });

  it('adds the traces path to a collector base address, and reads OTLP header lists', () => {
    assert.equal(httpTracesUrl('http://collector:4318'), 'http://collector:4318/v1/traces');
    assert.equal(httpTracesUrl('collector:4318'), 'http://collector:4318/v1/traces');
    assert.equal(httpTracesUrl('https://collector/otlp/v1/traces'), 'https://collector/otlp/v1/traces');
    assert.deepEqual(parseHeaders('Authorization=Bearer%20abc, x-tenant = t1,broken'), {
      authorization: 'Bearer abc',
      'x-tenant': 't1',
    });
  });
});
