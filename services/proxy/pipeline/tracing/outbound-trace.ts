import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';
import type { RequestTrace } from './request-trace';

/**
 * What a service the gateway hands the request to (graphql-engine) uses to put its own calls in
 * the request's trace: each is a client span below the server span, its context sent along.
 */
export function outboundTrace(trace: RequestTrace): OutboundTrace {
  return {
    start(name, url, headers, method = 'POST') {
      let target: URL | undefined;
      try {
        target = new URL(url);
      } catch {
        target = undefined;
      }
      const span = trace.tracing.startSpan(name, SpanKind.CLIENT, trace.span, {
        'http.request.method': method,
        ...(target
          ? {
              'url.full': `${target.origin}${target.pathname}`,
              'server.address': target.hostname,
              ...(target.port ? { 'server.port': Number(target.port) } : {}),
            }
          : {}),
      });
      trace.tracing.inject(span, headers);
      return (failure) => {
        if (failure) {
          span.setAttribute('error.type', 'unreachable');
          span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
        }
        span.end();
      };
    },
  };
}
