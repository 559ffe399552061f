import { setMaxListeners } from 'node:events';
import type { Output } from '../components';
import { httpClientSettings, type HttpClientConfig, type HttpClientSettings } from '../http-client-settings';
import { HttpStatusFailure, messageRequest, sendWithRetries } from '../http-retry';
import { newMessage, type StreamMessage } from '../message';
import type { OutboundPolicy } from '../outbound';
import type { RateLimits } from '../rate-limits';
import type { ConnectorCounters } from '../stats';

export interface HttpClientOutputConfig extends HttpClientConfig {
  propagate_response?: boolean;
}

/**
 * Bento's `http_client` output: each message is sent as the body of a request to `url`, with
 * the retries of http-retry.ts. A status in `drop_on` drops the message (counted as an error);
 * any other failure is handed back to the stream, which keeps retrying with backoff and pauses
 * the input. `propagate_response` makes the response the message an `http_server` input with
 * `sync_response` answers with.
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
    // each attempt of a message from a traced request is a span of that request's trace
    let endAttempt: ((failure?: Error) => void) | undefined;
    const request = () => {
      const built = messageRequest(this.settings, message);
      if (message.trace) {
        endAttempt?.(new Error('the attempt failed; retried'));
        endAttempt = message.trace.start('stream output http_client', built.url, built.headers, this.settings.verb);
      }
      return built;
    };
    try {
      const signals = { stop: this.closing.signal };
      const response = await sendWithRetries(this.settings, this.policy, this.counters, request, signals).catch(
        (err: Error) => {
          endAttempt?.(err);
          throw err;
        },
      );
      endAttempt?.();
      if (!this.config.propagate_response) return;
      return newMessage(response.body, { ...response.headers, http_status_code: response.status });
    } catch (err) {
      if (!(err instanceof HttpStatusFailure && err.dropped)) throw err;
      this.counters.errors++;
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
  }
}
