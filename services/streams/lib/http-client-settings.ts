import { parseDuration } from '../../../lib/streams/duration';
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
  url: string;
  verb: string;
  headers: Record<string, string>;
  rateLimit: LocalRateLimit | undefined;
  timeoutMs: number;
  retryPeriodMs: number;
  maxBackoffMs: number;
  retries: number;
  successfulOn: Set<number>;
  dropOn: Set<number>;
}

export function httpClientSettings(config: HttpClientConfig, limits: RateLimits, defaultVerb: string): HttpClientSettings {
  return {
    url: config.url,
    verb: (config.verb ?? defaultVerb).toUpperCase(),
    headers: Object.fromEntries(Object.entries(config.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    rateLimit: config.rate_limit ? limits.get(config.rate_limit) : undefined,
    timeoutMs: parseDuration(config.timeout ?? '5s') ?? 5000,
    retryPeriodMs: parseDuration(config.retry_period ?? '1s') ?? 1000,
    maxBackoffMs: parseDuration(config.max_retry_backoff ?? '300s') ?? 300_000,
    retries: config.retries ?? 3,
    successfulOn: new Set(config.successful_on ?? []),
    dropOn: new Set(config.drop_on ?? []),
  };
}

/** Bento: a status listed in successful_on, or any 2xx, is a success. */
export function succeeded(settings: HttpClientSettings, status: number): boolean {
  return settings.successfulOn.has(status) || (status >= 200 && status < 300);
}
