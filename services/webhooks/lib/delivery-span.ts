import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { GatewayEvent } from '../../../contracts/events';
import type { Webhook } from '../../../contracts/webhooks/actions';
import type { Tracing } from '../../../lib/observability/tracing/tracing';

/**
 * One delivery attempt as a client span: in the trace of the request the event is about when
 * the event carries its context (a new trace otherwise), that context sent to the webhook in
 * `headers`. The URL is recorded without its query string (tenants put tokens there).
 */
export function startDeliverySpan(
  tracing: Tracing,
  hook: Webhook,
  event: GatewayEvent,
  traceHeaders: Record<string, string> | undefined,
  headers: Record<string, string>,
  attempt: number,
): Span {
  const method = (hook.method || 'POST').toUpperCase();
  let url = '';
  try {
    const target = new URL(hook.target_path);
    url = `${target.origin}${target.pathname}`;
  } catch {
    url = '';
  }
  const span = tracing.startSpan(
    `webhook ${event.event}`,
    SpanKind.CLIENT,
    traceHeaders ? tracing.extract(traceHeaders) : ROOT_CONTEXT,
    {
      'http.request.method': method,
      'url.full': url,
      'gw.api.id': event.api_id,
      'gw.org.id': event.org_id,
      'gw.event': event.event,
      ...(attempt > 1 ? { 'http.request.resend_count': attempt - 1 } : {}),
    },
  );
  tracing.inject(span, headers);
  return span;
}

export function endDeliverySpan(span: Span, outcome: number | Error): void {
  if (typeof outcome === 'number') {
    span.setAttribute('http.response.status_code', outcome);
    if (outcome >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${outcome}` });
  } else span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message });
  span.end();
}
