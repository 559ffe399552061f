import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { Input, Sink } from '../components';
import { httpClientSettings, statusOutcome } from '../http-client-settings';
import type { HttpClientConfig, HttpClientSettings } from '../http-client-settings';
import { sendWithRetries } from '../http-retry';
import { newMessage } from '../message';
import { checkOutbound, outboundAgent, type OutboundPolicy } from '../outbound';
import type { RateLimits } from '../rate-limits';
import type { ConnectorCounters } from '../stats';

export interface HttpClientInputConfig extends HttpClientConfig {
  payload?: string;
  body?: string;
  drop_empty_bodies?: boolean;
  stream?: { enabled?: boolean; reconnect?: boolean };
}

/**
 * Bento's `http_client` input: polls `url` (with `verb`, `headers`, `payload`), each successful
 * response body one message, the next poll once the output accepted it (paced by
 * `rate_limit`), each poll with the retries of http-retry.ts. With `stream.enabled` it holds one
 * long-lived response and takes each line as a message, reconnecting when it ends. A failed poll
 * or connection waits `retry_period`, doubling up to `max_retry_backoff`, before the next.
 */
/** The longest line a streamed http_client response may send before the connection is dropped. */
const MAX_STREAM_LINE_CHARS = 16 * 1024 * 1024;

export class HttpClientInput implements Input {
  private readonly settings: HttpClientSettings;
  private readonly stopping = new AbortController();

  constructor(
    private readonly config: HttpClientInputConfig,
    limits: RateLimits,
    private readonly policy: OutboundPolicy,
    private readonly counters: ConnectorCounters,
    private readonly log: (message: string) => void,
  ) {
    this.settings = httpClientSettings(config, limits, 'GET');
  }

  start(sink: Sink): void {
    void (this.config.stream?.enabled ? this.streamLoop(sink) : this.pollLoop(sink)).catch(() => undefined);
  }

  /** Stops polling; a message already taken is still delivered by the draining stream. */
  async stop(): Promise<void> {
    this.stopping.abort();
  }

  private get signal(): AbortSignal {
    return this.stopping.signal;
  }

  private async pollLoop(sink: Sink): Promise<void> {
    let wait = this.settings.retryPeriodMs;
    const request = () => ({ ...this.settings.target(), body: this.config.payload ?? this.config.body });
    while (!this.signal.aborted) {
      try {
        const signals = { stop: this.signal };
        const response = await sendWithRetries(this.settings, this.policy, this.counters, request, signals);
        wait = this.settings.retryPeriodMs;
        if (response.body.length === 0 && this.config.drop_empty_bodies !== false) continue;
        this.counters.received++;
        const message = newMessage(response.body, { ...response.headers, http_status_code: response.status });
        await sink([message]);
        this.counters.delivered(message.receivedAt);
      } catch (err) {
        if (this.signal.aborted) return;
        this.counters.errors++;
        this.log(`http_client input ${this.settings.url}: ${(err as Error).message}`);
        await sleep(wait, undefined, { signal: this.signal });
        wait = Math.min(wait * 2, this.settings.maxBackoffMs);
      }
    }
  }

  private async streamLoop(sink: Sink): Promise<void> {
    let wait = this.settings.retryPeriodMs;
    while (!this.signal.aborted) {
      try {
        await this.settings.rateLimit?.access(this.signal);
        const target = this.settings.target();
        await checkOutbound(target.url, this.policy);
        this.counters.connectionAttempts++;
        const response = await request(target.url, {
          method: this.settings.verb as 'GET',
          headers: target.headers,
          body: this.settings.verb === 'GET' ? undefined : (this.config.payload ?? this.config.body),
          headersTimeout: this.settings.timeoutMs,
          bodyTimeout: 0,
          signal: this.signal,
          dispatcher: outboundAgent(this.policy),
        });
        if (statusOutcome(this.settings, response.statusCode) !== 'success') {
          await response.body.dump();
          throw new Error(`HTTP request returned unexpected response code (${response.statusCode})`);
        }
        wait = this.settings.retryPeriodMs;
        let rest = '';
        // a decoder keeps characters split across chunks whole; a line may not grow without end
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          const lines = (rest + decoder.decode(chunk as Buffer, { stream: true })).split('\n');
          rest = lines.pop() ?? '';
          if (rest.length > MAX_STREAM_LINE_CHARS) {
            response.body.destroy();
            throw new Error(`the stream sent a line longer than ${MAX_STREAM_LINE_CHARS} characters`);
          }
          for (const line of lines) {
            if (line === '' && this.config.drop_empty_bodies !== false) continue;
            this.counters.received++;
            const message = newMessage(line);
            await sink([message]);
            this.counters.delivered(message.receivedAt);
          }
        }
        if (rest !== '') {
          this.counters.received++;
          await sink([newMessage(rest)]);
        }
        if (this.config.stream?.reconnect === false) return;
      } catch (err) {
        if (this.signal.aborted) return;
        this.counters.connectionFailures++;
        this.counters.errors++;
        this.log(`http_client input ${this.settings.url}: ${(err as Error).message}`);
        await sleep(wait, undefined, { signal: this.signal });
        wait = Math.min(wait * 2, this.settings.maxBackoffMs);
      }
    }
  }
}
