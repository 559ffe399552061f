import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ServerResponse } from 'node:http';
import type { Tracing } from '../../../../lib/observability/tracing/tracing';
import { answeredStatus } from '../grpc/grpc-status';
import type { RequestContext } from '../request-context';
import { routeOf } from './route-pattern';

/** The response header that carries the trace id when GW_OTEL_TRACE_ID_HEADER is on. */
export const TRACE_ID_HEADER = 'X-Gw-Trace-Id';

/**
 * One request's server span, and which step of the chain is running (once the chain stopped:
 * which step answered). Made only when tracing is on; a request without tracing has none.
 */
export class RequestTrace {
  /** the step that runs now; after the chain, the one that answered */
  step: string | undefined;

  constructor(
    readonly tracing: Tracing,
    readonly span: Span,
  ) {}

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  /** The server span's context as propagation headers, for work the request hands on (webhook deliveries). */
  propagationHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    this.tracing.inject(this.span, headers);
    return headers;
  }
}

const TRACED = Symbol('gw.requestTrace');
type TracedResponse = ServerResponse & { [TRACED]?: RequestContext };

/**
 * Starts the server span of a request routed to an API, as a child of the trace context the
 * client sent (a new trace when it sent none), and ends it when the response is closed. Its
 * route is the listen path until then, when the endpoint the request fell under is added.
 * Attributes follow the OpenTelemetry HTTP semantic conventions (the required and a few
 * recommended ones: each attribute costs on every request); no header value is recorded
 * (credentials travel in headers), nor the query string (keys may be sent as query parameters).
 */
export function startRequestTrace(tracing: Tracing, ctx: RequestContext): void {
  const { req } = ctx;
  const method = req.method ?? 'GET';
  const { definition } = ctx.api;
  const route = definition.proxy.listen_path;
  const span = tracing.startSpan(`${method} ${route}`, SpanKind.SERVER, tracing.extract(req.headers), {
    'http.request.method': method,
    'http.route': route,
    'url.path': ctx.path,
    'url.scheme': (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
    'client.address': ctx.clientIp,
    'gw.api.id': definition.api_id,
    'gw.api.name': definition.name,
  });
  // an API of no organisation has none to name (an empty attribute is encoded all the same)
  if (definition.org_id) span.setAttribute('gw.org.id', definition.org_id);
  ctx.trace = new RequestTrace(tracing, span);
  if (tracing.traceIdHeader) ctx.res.setHeader(TRACE_ID_HEADER, ctx.trace.traceId);
  (ctx.res as TracedResponse)[TRACED] = ctx;
  // `on`, not `once` (which wraps the listener): a response closes once
  ctx.res.on('close', endRequestTrace);
}

/** Refusals that mark the server span as failed (any 5xx does too); other 4xx are named, not failed. */
const REFUSALS = new Set([401, 403, 429]);

function endRequestTrace(this: TracedResponse): void {
  const ctx = this[TRACED];
  this[TRACED] = undefined;
  if (!ctx?.trace) return;
  const { span, step } = ctx.trace;
  if (!this.writableFinished) {
    span.setAttribute('gw.client_aborted', true);
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection before the answer ended' });
    return span.end();
  }
  const status = answeredStatus(this);
  span.setAttribute('http.response.status_code', status);
  const method = ctx.req.method ?? 'GET';
  const route = routeOf(ctx.api.definition, method, ctx.relativePath);
  if (route !== ctx.api.definition.proxy.listen_path) {
    span.setAttribute('http.route', route);
    span.updateName(`${method} ${route}`);
  }
  // the version a base API handed over to, when versioned
  if (ctx.version && ctx.version.name !== 'Default' && ctx.version.name !== '')
    span.setAttribute('gw.api.version', ctx.version.name);
  const byGateway = step !== undefined && step !== 'upstream';
  if (byGateway && status >= 400) {
    span.setAttribute('gw.refused_by', step);
    if (status >= 500 || REFUSALS.has(status))
      span.setStatus({ code: SpanStatusCode.ERROR, message: `${status} from the ${step} step` });
  } else if (status >= 500) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${status}` });
    span.setAttribute('error.type', String(status));
  }
  span.end();
}
