import { strict as assert } from 'node:assert';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { loadConfig } from '../../../lib/config/load-config';
import { createTracing, type Tracing } from '../../../lib/observability/tracing/tracing';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/** A node's tracing sending each span as it ends to memory: what the OTLP exporter would be given. */
function memoryTracing(settings: Record<string, unknown> = {}): { tracing: Tracing; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const tracing = createTracing(loadConfig({}, { otelSpanProcessor: 'simple', ...settings }), exporter, '1.2.3')!;
  return { tracing, exporter };
}

function onlySpan(exporter: InMemorySpanExporter): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  assert.equal(spans.length, 1);
  return spans[0];
}

describe('tracing: recorded spans', () => {
  it("joins the caller's trace: its trace id, its span as remote parent, its trace state", () => {
    const { tracing, exporter } = memoryTracing();
    const caller = tracing.extract({
      traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      tracestate: 'vendor=abc',
    });
    const span = tracing.startSpan('GET /orders/', SpanKind.SERVER, caller, { 'gw.api.id': 'orders' });
    span.end();
    const recorded = onlySpan(exporter);
    assert.equal(recorded.spanContext().traceId, CALLER_TRACE);
    assert.match(recorded.spanContext().spanId, /^[0-9a-f]{16}$/);
    assert.notEqual(recorded.spanContext().spanId, CALLER_SPAN);
    assert.equal(recorded.spanContext().traceState?.get('vendor'), 'abc');
    assert.equal(recorded.parentSpanContext?.spanId, CALLER_SPAN);
    assert.equal(recorded.parentSpanContext?.isRemote, true);
    assert.equal(recorded.kind, SpanKind.SERVER);
    assert.deepEqual(recorded.instrumentationScope, { name: 'gw', version: '1.2.3' });
    assert.equal(recorded.resource.attributes['service.version'], '1.2.3');
  });

  it('starts a new trace without a caller, and a child below a span shares it', () => {
    const { tracing, exporter } = memoryTracing();
    const server = tracing.startSpan('GET /', SpanKind.SERVER, tracing.extract({}));
    const client = tracing.startSpan('GET', SpanKind.CLIENT, server);
    client.end();
    server.end();
    const [child, parent] = exporter.getFinishedSpans();
    assert.match(parent.spanContext().traceId, /^[0-9a-f]{32}$/);
    assert.equal(parent.parentSpanContext, undefined);
    assert.equal(child.spanContext().traceId, parent.spanContext().traceId);
    assert.equal(child.parentSpanContext?.spanId, parent.spanContext().spanId);
    assert.equal(child.parentSpanContext?.isRemote, undefined);
    // ids are random: another trace, other ids
    const other = tracing.startSpan('GET /', SpanKind.SERVER, tracing.extract({}));
    assert.notEqual(other.spanContext().traceId, parent.spanContext().traceId);
    assert.notEqual(other.spanContext().spanId, parent.spanContext().spanId);
  });

  it('keeps attribute values, drops what is not one, counts those past 128, and takes nothing after end', () => {
    const { tracing, exporter } = memoryTracing();
    const attributes = { 'gw.api.id': 'a', 'server.port': 8080, missing: undefined } as unknown as Record<
      string,
      string
    >;
    const span = tracing.startSpan('s', SpanKind.INTERNAL, tracing.extract({}), attributes);
    span.setAttribute('gw.api.id', 'b');
    span.setAttributes({ list: ['x', 'y'], flag: true });
    for (let i = 0; i < 130; i++) span.setAttribute(`extra.${i}`, i);
    span.end();
    span.setAttribute('late', 'x');
    span.updateName('renamed');
    const recorded = onlySpan(exporter);
    assert.equal(recorded.name, 's');
    assert.equal(recorded.attributes['gw.api.id'], 'b');
    assert.equal(recorded.attributes['server.port'], 8080);
    assert.deepEqual(recorded.attributes.list, ['x', 'y']);
    assert.equal('missing' in recorded.attributes, false);
    assert.equal('late' in recorded.attributes, false);
    assert.equal(Object.keys(recorded.attributes).length, 128);
    // 4 attributes, then 124 of the 130 extra ones fit
    assert.equal(recorded.droppedAttributesCount, 6);
  });

  it('follows the status rules: unset is ignored, an error keeps its message, ok is final', () => {
    const { tracing, exporter } = memoryTracing();
    const failed = tracing.startSpan('failed', SpanKind.SERVER, tracing.extract({}));
    failed.setStatus({ code: SpanStatusCode.ERROR, message: '429 from the limits step' });
    failed.setStatus({ code: SpanStatusCode.UNSET });
    failed.end();
    const ok = tracing.startSpan('ok', SpanKind.SERVER, tracing.extract({}));
    ok.setStatus({ code: SpanStatusCode.OK, message: 'ignored' });
    ok.setStatus({ code: SpanStatusCode.ERROR, message: 'too late' });
    ok.end();
    const [first, second] = exporter.getFinishedSpans();
    assert.deepEqual(first.status, { code: SpanStatusCode.ERROR, message: '429 from the limits step' });
    assert.deepEqual(second.status, { code: SpanStatusCode.OK });
  });

  it('records an exception as the semantic conventions event, timed within the span', () => {
    const { tracing, exporter } = memoryTracing();
    const before = Date.now();
    const span = tracing.startSpan('step', SpanKind.INTERNAL, tracing.extract({}));
    span.recordException(new TypeError('bad plugin'));
    span.end();
    const after = Date.now();
    const recorded = onlySpan(exporter);
    assert.equal(recorded.events.length, 1);
    const [event] = recorded.events;
    assert.equal(event.name, 'exception');
    assert.equal(event.attributes?.['exception.type'], 'TypeError');
    assert.equal(event.attributes?.['exception.message'], 'bad plugin');
    assert.match(String(event.attributes?.['exception.stacktrace']), /TypeError: bad plugin/);
    const millis = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    assert.ok(millis(recorded.startTime) >= before - 1 && millis(recorded.endTime) <= after + 1);
    assert.ok(millis(recorded.startTime) <= millis(event.time) && millis(event.time) <= millis(recorded.endTime));
    assert.ok(Math.abs(millis(recorded.duration) - (millis(recorded.endTime) - millis(recorded.startTime))) < 0.001);
  });

  it('records nothing for an unsampled span, whose context still goes on, marked not sampled', () => {
    const { tracing, exporter } = memoryTracing({ otelSamplingType: 'AlwaysOff' });
    const span: Span = tracing.startSpan('dropped', SpanKind.SERVER, tracing.extract({}), { 'gw.api.id': 'a' });
    assert.equal(span.isRecording(), false);
    assert.match(span.spanContext().traceId, /^[0-9a-f]{32}$/);
    span.end();
    assert.deepEqual(exporter.getFinishedSpans(), []);
  });

  it("is encoded by the SDK's OTLP serializer as any SDK span is", () => {
    const { tracing, exporter } = memoryTracing();
    const caller = tracing.extract({ traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
    const span = tracing.startSpan('GET /orders/', SpanKind.SERVER, caller, {
      'http.request.method': 'GET',
      'http.response.status_code': 503,
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: '503' });
    span.end();
    const request = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest([onlySpan(exporter)])));
    const [resourceSpans] = request.resourceSpans;
    assert.ok(
      resourceSpans.resource.attributes.some(
        (attribute: { key: string; value: { stringValue?: string } }) =>
          attribute.key === 'service.name' && attribute.value.stringValue === 'gw',
      ),
    );
    const [scopeSpans] = resourceSpans.scopeSpans;
    assert.deepEqual(scopeSpans.scope, { name: 'gw', version: '1.2.3' });
    const [encoded] = scopeSpans.spans;
    assert.equal(encoded.traceId, CALLER_TRACE);
    assert.equal(encoded.parentSpanId, CALLER_SPAN);
    assert.equal(encoded.name, 'GET /orders/');
    assert.equal(encoded.kind, 2); // SPAN_KIND_SERVER
    assert.deepEqual(encoded.status, { code: SpanStatusCode.ERROR, message: '503' });
    assert.deepEqual(encoded.attributes, [
      { key: 'http.request.method', value: { stringValue: 'GET' } },
      { key: 'http.response.status_code', value: { intValue: 503 } },
    ]);
    assert.ok(BigInt(encoded.endTimeUnixNano) >= BigInt(encoded.startTimeUnixNano));
    assert.ok(BigInt(encoded.startTimeUnixNano) > BigInt(Date.now() - 60_000) * 1_000_000n);
  });
});
