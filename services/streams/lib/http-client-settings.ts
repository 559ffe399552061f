import { parseDuration } from '../../../lib/streams/duration';
import { interpolated, type Interpolated } from './interpolated';
import { newMessage, type StreamMessage } from './message';
import type { LocalRateLimit, RateLimits } from './rate-limits';

/** The fields http_client (input, output) and the http processor share, with Bento's defaults. */
export interface HttpClientConfig {
  url: string;
  verb?: string;
  headers?: Record<string, string>;
  rate_limit?: string;
  timeout?: string;
  retry_period?: string;
  max_retry_backoff?: string;
  retries?: number;
  successful_on?: number[];
  drop_on?: number[];
  backoff_on?: number[];
}

export interface HttpClientSettings {
  /** the url as configured (for logs); `target` resolves its interpolations */
  url: string;
  verb: string;
  /** the url and headers for one message, `${! … }` interpolations resolved (Bento) */
  target: (message?: StreamMessage) => { url: string; headers: Record<string, string> };
  rateLimit: LocalRateLimit | undefined;
  timeoutMs: number;
  retryPeriodMs: number;
  maxBackoffMs: number;
  retries: number;
  successfulOn: Set<number>;
  dropOn: Set<number>;
  backoffOn: Set<number>;
}

export function httpClientSettings(
  config: HttpClientConfig,
  limits: RateLimits,
  defaultVerb: string,
): HttpClientSettings {
  return {
    url: config.url,
    verb: (config.verb ?? defaultVerb).toUpperCase(),
    target: targetOf(config),
    rateLimit: config.rate_limit ? limits.get(config.rate_limit) : undefined,
    timeoutMs: parseDuration(config.timeout ?? '5s') ?? 5000,
    retryPeriodMs: parseDuration(config.retry_period ?? '1s') ?? 1000,
    maxBackoffMs: parseDuration(config.max_retry_backoff ?? '300s') ?? 300_000,
    retries: config.retries ?? 3,
    successfulOn: new Set(config.successful_on ?? []),
    dropOn: new Set(config.drop_on ?? []),
    backoffOn: new Set(config.backoff_on ?? [429]),
  };
}

/**
 * What a response status means, in Bento's order: `drop_on` fails without retries, `backoff_on`
 * fails and retries with growing waits, `successful_on` or any other 2xx succeeds, and anything
 * else fails and retries `retry_period` apart.
 */
export type StatusOutcome = 'success' | 'retry' | 'backoff' | 'drop';

export function statusOutcome(settings: HttpClientSettings, status: number): StatusOutcome {
  if (settings.dropOn.has(status)) return 'drop';
  if (settings.backoffOn.has(status)) return 'backoff';
  if (settings.successfulOn.has(status)) return 'success';
  return status >= 200 && status < 300 ? 'success' : 'retry';
}

/**
 * Bento resolves the url and header values of HTTP components per message; an input has no
 * message yet, so its interpolations see an empty one (`${! timestamp_unix() }`, `${! uuid_v4() }`).
 */
function targetOf(config: HttpClientConfig): HttpClientSettings['target'] {
  const url = interpolated(config.url);
  const headers: Array<[string, Interpolated]> = Object.entries(config.headers ?? {}).map(([k, v]) => [
    k.toLowerCase(),
    interpolated(v),
  ]);
  return (message = newMessage('')) => ({
    url: url(message),
    headers: Object.fromEntries(headers.map(([name, value]) => [name, value(message)])),
  });
}
