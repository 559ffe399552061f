import { DONE, type Step } from '../compose';
import { sendGatewayError } from '../gateway-errors';
import type { CompiledVersion } from '../compiled-api';
import { compileEndpointEntries, type EndpointLookup } from '../endpoint-entries';
import { CircuitBreaker, readBreaker, type BreakerListener } from '../upstream-health/circuit-breaker';

/** the reference gateway's answer while a breaker is open */
export const BREAKER_OPEN_MESSAGE = 'Service temporarily unavailable.';

/** `extended_paths.circuit_breakers` of a version: one breaker per entry, kept in `all` so they can be disposed. */
export function compileBreakers(
  entries: unknown,
  ignoreCase: boolean,
  listener: BreakerListener,
  all: CircuitBreaker[],
): EndpointLookup<CircuitBreaker> | undefined {
  return compileEndpointEntries(entries, ignoreCase, (entry) => {
    const settings = readBreaker(entry);
    if (!settings) return undefined;
    const breaker = new CircuitBreaker(settings, listener);
    all.push(breaker);
    return breaker;
  });
}

/**
 * Refuses a request with 503, without calling the upstream, while its endpoint's breaker is
 * open; otherwise lets it through and records whether the upstream failed (5xx or no answer).
 */
export const circuitBreakerStep: Step = (ctx) => {
  const version = ctx.version as CompiledVersion;
  const breaker = version.breakers?.find(ctx.req.method ?? 'GET', ctx.relativePath);
  if (!breaker) return;
  if (!breaker.allow()) {
    sendGatewayError(ctx.res, 503, BREAKER_OPEN_MESSAGE);
    return DONE;
  }
  ctx.upstreamOutcome = (status) => breaker.record(status === 0 || status >= 500);
};
