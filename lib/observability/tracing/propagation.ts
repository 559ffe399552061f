import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { B3InjectEncoding, B3Propagator } from '@opentelemetry/propagator-b3';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The propagators GW_OTEL_CONTEXT_PROPAGATION names. Reading tries each in turn; writing sends
 * every one. B3 is read in either form (one `b3` header or the `X-B3-*` set) whichever is named.
 */
export function createPropagator(list: string): TextMapPropagator {
  const names = [...new Set(list.split(',').map((name) => name.trim()))];
  const propagators = names.map((name) =>
    name === 'b3'
      ? new B3Propagator({ injectEncoding: B3InjectEncoding.SINGLE_HEADER })
      : name === 'b3multi'
        ? new B3Propagator({ injectEncoding: B3InjectEncoding.MULTI_HEADER })
        : new W3CTraceContextPropagator(),
  );
  return propagators.length === 1 ? propagators[0] : new CompositePropagator({ propagators });
}

/** Reads a request's headers (Node keeps their names in lower case). */
export const requestHeaderGetter: TextMapGetter<IncomingHttpHeaders> = {
  keys: (headers) => Object.keys(headers),
  get: (headers, key) => headers[key.toLowerCase()],
};

/** Writes into the header map that goes upstream, replacing what the client sent under the name. */
export const headerMapSetter: TextMapSetter<Record<string, unknown>> = {
  set: (headers, key, value) => {
    headers[key.toLowerCase()] = value;
  },
};

export type { Context };
