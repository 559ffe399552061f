import type { Mapping } from '../../bloblang';
import type { Processor } from '../components';
import { isGwError } from '../../../../lib/errors';
import { httpClientSettings, type HttpClientConfig, type HttpClientSettings } from '../http-client-settings';
import { messageRequest, sendWithRetries, type RetrySignals } from '../http-retry';
import { copyMessage, type StreamMessage } from '../message';
import type { OutboundPolicy } from '../outbound';
import type { RateLimits } from '../rate-limits';
import type { ConnectorCounters } from '../stats';
import { checkMessage, mapMessage, mapOnto, type MappingSite } from './mapping';

/**
 * Processors follow Bento's error model: a processor that fails on a message flags it
 * (`error`, readable by `error()` in later mappings) and passes it on unchanged; the error is
 * counted. Only a mapping that deletes the message removes it.
 */
function flag(message: StreamMessage, error: string, counters: ConnectorCounters): StreamMessage {
  counters.failed(error);
  return { ...message, error };
}

export class MappingProcessor implements Processor {
  private readonly counters: ConnectorCounters;

  constructor(
    private readonly mapping: Mapping,
    private readonly site: MappingSite,
  ) {
    this.counters = site.counters;
  }

  async process(messages: StreamMessage[]): Promise<StreamMessage[]> {
    const out: StreamMessage[] = [];
    for (const message of messages) {
      this.counters.received++;
      const result = await mapMessage(this.site, this.mapping, message);
      if (result.kind === 'deleted') continue;
      out.push(result.kind === 'error' ? flag(message, result.error, this.counters) : result.message);
      this.counters.sent++;
    }
    return out;
  }
}

/**
 * Bento's `http` processor: the message is sent to `url` and replaced by the response. A request
 * that still fails after its retries flags the message; one the stream stopped before the
 * retries were over refuses the message to its input.
 */
export class HttpProcessor implements Processor {
  private readonly settings: HttpClientSettings;

  constructor(
    config: HttpClientConfig,
    limits: RateLimits,
    private readonly policy: OutboundPolicy,
    private readonly counters: ConnectorCounters,
    private readonly signals: RetrySignals,
  ) {
    this.settings = httpClientSettings(config, limits, 'POST');
  }

  async process(messages: StreamMessage[]): Promise<StreamMessage[]> {
    return Promise.all(messages.map((message) => this.one(message)));
  }

  private async one(message: StreamMessage): Promise<StreamMessage> {
    this.counters.received++;
    const request = () => messageRequest(this.settings, message);
    try {
      const { settings, policy, counters, signals } = this;
      const response = await sendWithRetries(settings, policy, counters, request, signals);
      this.counters.delivered(message.receivedAt);
      const metadata = { ...message.metadata, ...response.headers, http_status_code: response.status };
      return copyMessage(message, { content: response.body, metadata });
    } catch (err) {
      if (isGwError(err, 'GW_ERR_STREAMS_STOPPED')) throw err;
      return flag(message, (err as Error).message, this.counters);
    }
  }
}

/**
 * Bento's `branch`: `request_map` builds a copy of the message, `processors` run on the copy,
 * `result_map` maps the result back onto the original (which keeps its content when there is
 * no result_map). A request_map that deletes the copy skips the branch for that message.
 */
export class BranchProcessor implements Processor {
  private readonly counters: ConnectorCounters;

  constructor(
    private readonly requestMap: Mapping | undefined,
    private readonly processors: Processor[],
    private readonly resultMap: Mapping | undefined,
    private readonly site: MappingSite,
  ) {
    this.counters = site.counters;
  }

  async process(messages: StreamMessage[]): Promise<StreamMessage[]> {
    return Promise.all(messages.map((message) => this.one(message)));
  }

  private async one(original: StreamMessage): Promise<StreamMessage> {
    this.counters.received++;
    let branch: StreamMessage = copyMessage(original);
    if (this.requestMap) {
      const mapped = await mapMessage(this.site, this.requestMap, original);
      if (mapped.kind === 'deleted') return original;
      if (mapped.kind === 'error') return flag(original, mapped.error, this.counters);
      branch = mapped.message;
    }
    let results = [branch];
    for (const processor of this.processors) results = await processor.process(results);
    const result = results[0];
    if (!result) return original;
    if (result.error) return flag(original, result.error, this.counters);
    this.counters.sent++;
    if (!this.resultMap) return original;
    const merged = await mapOnto(this.site, this.resultMap, result, original);
    if (merged.kind === 'message') return merged.message;
    return merged.kind === 'error' ? flag(original, merged.error, this.counters) : original;
  }
}

export interface SwitchCase {
  check: Mapping | undefined;
  processors: Processor[];
  fallthrough: boolean;
}

/**
 * Bento's `switch` processor: a message runs the processors of the first case whose `check`
 * is true (a case without check always matches); with `fallthrough` it also runs the next
 * case's, and so on. A check that fails flags the message and counts as false.
 */
export class SwitchProcessor implements Processor {
  private readonly counters: ConnectorCounters;

  constructor(
    private readonly cases: SwitchCase[],
    private readonly site: MappingSite,
  ) {
    this.counters = site.counters;
  }

  async process(messages: StreamMessage[]): Promise<StreamMessage[]> {
    const out: StreamMessage[] = [];
    for (const message of messages) out.push(...(await this.one(message)));
    return out;
  }

  private async one(message: StreamMessage): Promise<StreamMessage[]> {
    this.counters.received++;
    let current = [message];
    let running = false;
    for (const c of this.cases) {
      if (!running) {
        const matched = c.check ? await checkMessage(this.site, c.check, current[0]) : true;
        if (typeof matched === 'string') {
          current = [flag(current[0], matched, this.counters)];
          continue;
        }
        running = matched;
      }
      if (!running) continue;
      for (const processor of c.processors) current = await processor.process(current);
      if (!c.fallthrough || current.length === 0) break;
    }
    this.counters.sent += current.length;
    return current;
  }
}
