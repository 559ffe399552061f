import {
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { isTimeInputHrTime, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace';

/** The SDK's default span limits (OTEL_SPAN_*_COUNT_LIMIT): past them, attributes, events and links are dropped and counted. */
const ATTRIBUTE_COUNT_LIMIT = 128;
const EVENT_COUNT_LIMIT = 128;
const LINK_COUNT_LIMIT = 128;

/** What the spans of one tracer share. */
export interface SpanSource {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly processor: SpanProcessor;
}

/**
 * A sampled span, recorded for export: the OpenTelemetry API's Span, read by the SDK's span
 * processors and OTLP exporters as the ReadableSpan it is. gw records its own rather than the
 * SDK's SpanImpl because a proxied request pays for two spans: SpanImpl checks and copies every
 * attribute, keeps four clocks and creates the contexts and metrics objects of its tracer, which
 * cost a proxied request about as much as encoding them for export (docs/performance.md, tracing).
 * What a span records is the same: attributes (at most 128), events, links, status, name, kind,
 * parent and times; the SDK's rules apply (status OK is final, UNSET is ignored, nothing changes
 * after end()). Times are the wall clock read through `performance`, at sub-microsecond precision.
 */
export class RecordedSpan implements Span, ReadableSpan {
  attributes: Attributes;
  links: Link[] = [];
  events: TimedEvent[] = [];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  ended = false;
  private attributeCount: number;
  private readonly startMillis: number;
  private endMillis = 0;
  private start: HrTime | undefined;
  private finish: HrTime | undefined;

  constructor(
    private readonly source: SpanSource,
    private readonly context: SpanContext,
    public name: string,
    readonly kind: SpanKind,
    readonly parentSpanContext: SpanContext | undefined,
    attributes: Attributes | undefined,
  ) {
    this.startMillis = performance.timeOrigin + performance.now();
    // the literal the caller built is kept, not copied key by key; a value that is not an
    // attribute value (undefined) is dropped from it, as setAttribute would not take it
    this.attributes = attributes ?? {};
    let count = 0;
    for (const key in this.attributes)
      if (isAttributeValue(this.attributes[key])) count++;
      else delete this.attributes[key];
    this.attributeCount = count;
  }

  get resource(): Resource {
    return this.source.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.source.scope;
  }

  // read twice per export (the OTLP encoder sizes its buffer first, then writes)
  get startTime(): HrTime {
    return (this.start ??= millisToHrTime(this.startMillis));
  }

  get endTime(): HrTime {
    if (!this.ended) return [0, 0];
    return (this.finish ??= millisToHrTime(this.endMillis));
  }

  get duration(): HrTime {
    return millisToHrTime(this.endMillis - this.startMillis);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (this.ended || !isAttributeValue(value)) return this;
    if (!(key in this.attributes)) {
      if (this.attributeCount >= ATTRIBUTE_COUNT_LIMIT) {
        this.droppedAttributesCount++;
        return this;
      }
      this.attributeCount++;
    }
    this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const attributes = isTimeInput(attributesOrTime) ? undefined : attributesOrTime;
    const at = isTimeInput(attributesOrTime) ? attributesOrTime : time;
    if (this.events.length >= EVENT_COUNT_LIMIT) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    this.events.push({ name, time: hrTimeOf(at), attributes, droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links.length >= LINK_COUNT_LIMIT) {
      this.links.shift();
      this.droppedLinksCount++;
    }
    this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string'
        ? { code: status.code, message: status.message }
        : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  /** The exception as the semantic conventions' `exception` event (type, message, stack trace). */
  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      const type = exception.code?.toString() ?? exception.name;
      if (type) attributes['exception.type'] = type;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined)
      this.addEvent('exception', attributes, time);
  }

  end(): void {
    if (this.ended) return;
    this.endMillis = Math.max(performance.timeOrigin + performance.now(), this.startMillis);
    this.ended = true;
    this.source.processor.onEnd(this);
  }
}

function isAttributeValue(value: unknown): value is AttributeValue {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return true;
    default:
      return Array.isArray(value);
  }
}

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || isTimeInputHrTime(value);
}

function hrTimeOf(time: TimeInput | undefined): HrTime {
  if (time === undefined) return millisToHrTime(performance.timeOrigin + performance.now());
  if (typeof time === 'number') return millisToHrTime(time);
  if (time instanceof Date) return millisToHrTime(time.getTime());
  return time;
}
