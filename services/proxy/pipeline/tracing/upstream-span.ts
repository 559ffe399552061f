import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ParsedTarget } from '../target';
import type { UpstreamRequest } from '../upstream-client/exchange';
import type { RequestTrace } from './request-trace';

/**
 * Starts the client span of one upstream call below the request's server span and writes its
 * trace context into the headers going upstream (replacing what the client sent). `attempt`
 * counts the calls made before this one for the same request (another target after a refusal).
 * The URL is recorded without its query string, where keys may travel.
 */
export function startUpstreamSpan(
  trace: RequestTrace,
  target: ParsedTarget,
  request: UpstreamRequest,
  attempt: number,
): Span {
  const query = request.path.indexOf('?');
  const path = query === -1 ? request.path : request.path.slice(0, query);
  const span = trace.tracing.startSpan(request.method, SpanKind.CLIENT, trace.span, {
    'http.request.method': request.method,
    'server.address': target.hostname,
    'server.port': target.port,
    'url.full': `${target.protocol === 'h2c:' ? 'http:' : target.protocol}//${target.hostname}:${target.port}${path}`,
    ...(attempt > 0 ? { 'http.request.resend_count': attempt } : {}),
  });
  trace.tracing.inject(span, request.headers);
  return span;
}

export function upstreamAnswered(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
}

/** Ends the span: `failure` says why the upstream did not answer (refused, timed out, reset). */
export function endUpstreamSpan(span: Span, failure?: string): void {
  if (failure !== undefined) {
    span.setAttribute('error.type', 'upstream_failed');
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  }
  span.end();
}
