import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import type { Tracing } from './tracing';

/**
 * A server span for each request of a management surface (`/gw`, `/api`, `/admin`), in the
 * caller's trace when it sent one. The route is the matched route pattern (`/gw/apis/:apiId`),
 * and there is no `url.path`: management paths carry keys, key hashes and OAuth tokens
 * (`/gw/keys/{key}`, `/gw/oauth/refresh/{token}`). No header, query or body is recorded.
 */
export function traceSurfaceRequests(tracing: Tracing, surface: string): RequestHandler {
  return (req, res, next) => {
    const method = req.method;
    const span = tracing.startSpan(`${method} ${req.baseUrl}`, SpanKind.SERVER, tracing.extract(req.headers), {
      'http.request.method': method,
      'client.address': req.socket.remoteAddress ?? '',
      'gw.surface': surface,
    });
    res.once('close', () => {
      const pattern = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : req.baseUrl;
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500 || res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 429)
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(res.statusCode) });
      span.end();
    });
    next();
  };
}
