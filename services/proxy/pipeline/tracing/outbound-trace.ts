import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';
import type { RequestTrace } from './request-trace';

/**
 * What a service the gateway hands the request to (graphql-engine, streams) uses to put its own
 * calls in the request's trace: each is a client (or, for a broker, producer) span below the
 * server span, its context sent along.
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
      return ender(span, 'unreachable');
    },
    publish(system, destination, headers) {
      const span = trace.tracing.startSpan(`send ${destination}`, SpanKind.PRODUCER, trace.span, {
        'messaging.system': system,
        'messaging.destination.name': destination,
        'messaging.operation.type': 'send',
      });
      trace.tracing.inject(span, headers);
      return ender(span, 'not_delivered');
    },
  };
}

function ender(span: Span, errorType: string): (failure?: Error) => void {
  return (failure) => {
    if (failure) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    span.end();
  };
}
