import { setTimeout as sleep } from 'node:timers/promises';
import { StreamsErrors } from '../errors';
import { statusOutcome, type HttpClientSettings } from './http-client-settings';
import type { StreamMessage } from './message';
import { outboundCall, outboundRefusal, type OutboundPolicy, type OutboundResponse } from './outbound';
import type { ConnectorCounters } from './stats';

/** A response whose status is a failure; `dropped` when the status is in `drop_on` (never retried). */
export class HttpStatusFailure extends Error {
  constructor(
    readonly status: number,
    readonly dropped: boolean,
  ) {
    super(`HTTP request returned unexpected response code (${status})`);
    this.name = 'HttpStatusFailure';
  }
}

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

/** The request that sends a message (http_client output, http processor): its content is the body. */
export function messageRequest(settings: HttpClientSettings, message: StreamMessage): HttpRequest {
  const target = settings.target(message);
  const headers = { 'content-type': 'application/octet-stream', ...target.headers };
  return { url: target.url, headers, body: message.content };
}

export interface RetrySignals {
  /** ends the retries at once: no attempt starts after it and a wait between attempts ends */
  stop: AbortSignal;
  /** cuts off an attempt in flight as well; `stop` when not given */
  abort?: AbortSignal;
}

/**
 * One request of an HTTP component (http_client input and output, http processor) with Bento's
 * retries: up to `retries` more attempts after a failed one, each after `retry_period`; a status
 * in `backoff_on` (429 by default) doubles the wait from the second retry on, up to
 * `max_retry_backoff`; a status in `drop_on` fails at once. A refusal of the outbound policy is
 * never retried (asking again can not succeed) and is thrown as it is. Once `signals.stop` is
 * aborted, no attempt starts and the call fails with the stream's stopped error.
 */
export async function sendWithRetries(
  settings: HttpClientSettings,
  policy: OutboundPolicy,
  counters: ConnectorCounters,
  request: () => HttpRequest,
  signals: RetrySignals,
): Promise<OutboundResponse> {
  const abort = signals.abort ?? signals.stop;
  let waitMs = settings.retryPeriodMs;
  for (let attempt = 0; ; attempt++) {
    await untilStopped(settings.rateLimit?.access(signals.stop), signals.stop);
    if (signals.stop.aborted) throw StreamsErrors.stopped();
    const { url, headers, body } = request();
    counters.connectionAttempts++;
    let failure: Error;
    let backoff = false;
    try {
      const options = { method: settings.verb, headers, body, timeoutMs: settings.timeoutMs, signal: abort };
      const response = await outboundCall(url, policy, options);
      const outcome = statusOutcome(settings, response.status);
      if (outcome === 'success') return response;
      failure = new HttpStatusFailure(response.status, outcome === 'drop');
      backoff = outcome === 'backoff';
    } catch (err) {
      if (abort.aborted) throw StreamsErrors.stopped();
      failure = outboundRefusal(err) ?? (err as Error);
    }
    counters.connectionFailures++;
    const dropped = failure instanceof HttpStatusFailure && failure.dropped;
    if (dropped || outboundRefusal(failure) || attempt >= settings.retries) throw failure;
    if (backoff && attempt > 0 && waitMs < settings.maxBackoffMs) {
      waitMs = Math.min(waitMs * 2, settings.maxBackoffMs);
    }
    await untilStopped(sleep(waitMs, undefined, { signal: signals.stop }), signals.stop);
  }
}

/** Waits for `pending`; an abort of `stop` becomes the stream's stopped error. */
async function untilStopped(pending: Promise<unknown> | undefined, stop: AbortSignal): Promise<void> {
  try {
    await pending;
  } catch (err) {
    if (stop.aborted) throw StreamsErrors.stopped();
    throw err;
  }
}
