import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Output } from '../components';
import { httpClientSettings, succeeded, type HttpClientConfig, type HttpClientSettings } from '../http-client-settings';
import { newMessage, type StreamMessage } from '../message';
import { outboundCall, type OutboundPolicy } from '../outbound';
import type { RateLimits } from '../rate-limits';
import type { ConnectorCounters } from '../stats';

export interface HttpClientOutputConfig extends HttpClientConfig {
  propagate_response?: boolean;
}

/**
 * Bento's `http_client` output: each message is sent as the body of a request to `url`. A
 * status in `drop_on` drops the message (counted as an error, not retried); any other failure
 * is retried `retries` times `retry_period` apart, then handed back to the stream, which keeps
 * retrying with backoff and pauses the input. `propagate_response` makes the response the
 * message an `http_server` input with `sync_response` answers with.
 */
export class HttpClientOutput implements Output {
  private readonly settings: HttpClientSettings;
  private readonly closing = new AbortController();

  constructor(
    private readonly config: HttpClientOutputConfig,
    limits: RateLimits,
    private readonly policy: OutboundPolicy,
    private readonly counters: ConnectorCounters,
  ) {
    this.settings = httpClientSettings(config, limits, 'POST');
    // Every write in flight listens for the close.
    setMaxListeners(0, this.closing.signal);
  }

  async write(message: StreamMessage): Promise<StreamMessage | void> {
    let lastError: Error = new Error('not sent');
    for (let attempt = 0; attempt <= this.settings.retries; attempt++) {
      if (attempt > 0) await sleep(this.settings.retryPeriodMs, undefined, { signal: this.closing.signal });
      await this.settings.rateLimit?.access(this.closing.signal);
      this.counters.connectionAttempts++;
      try {
        const target = this.settings.target(message);
        const response = await outboundCall(target.url, this.policy, {
          method: this.settings.verb,
          headers: { 'content-type': 'application/octet-stream', ...target.headers },
          body: message.content,
          timeoutMs: this.settings.timeoutMs,
          signal: this.closing.signal,
        });
        if (this.settings.dropOn.has(response.status)) {
          this.counters.errors++;
          return;
        }
        if (succeeded(this.settings, response.status)) {
          if (this.config.propagate_response) return newMessage(response.body, { ...response.headers, http_status_code: response.status });
          return;
        }
        this.counters.connectionFailures++;
        lastError = new Error(`HTTP request returned unexpected response code (${response.status})`);
      } catch (err) {
        this.counters.connectionFailures++;
        lastError = err as Error;
        if ((err as { code?: string }).code === 'GW_ERR_STREAMS_OUTBOUND_REFUSED' || (err as { type?: string }).type === 'GW_ERR_STREAMS_OUTBOUND_REFUSED') break;
      }
    }
    throw lastError;
  }

  async close(): Promise<void> {
    this.closing.abort();
  }
}
