import { setTimeout as sleep } from 'node:timers/promises';
import type { StreamStats } from '../../../contracts/streams/actions';
import { StreamsErrors } from '../errors';
import type { Input, Output, Processor } from './components';
import type { StreamMessage } from './message';
import type { ConnectorCounters } from './stats';
import { StreamLifecycle } from './stream-lifecycle';

export interface StreamParts {
  name: string;
  input: Input;
  processors: Processor[];
  output: Output;
  /** every connector's counters, input first */
  counters: ConnectorCounters[];
  outputCounters: ConnectorCounters;
  /** the signals its components were built with; a fresh one when none of them listens */
  lifecycle?: StreamLifecycle;
}

export interface StreamOptions {
  /** the most messages between input and output at once; further inputs wait (back-pressure) */
  maxInFlight: number;
  /** first and highest wait between retries of a failing output, in ms */
  backoffMs: number;
  maxBackoffMs: number;
  /** how long a stopping stream keeps retrying its in-flight messages */
  drainMs: number;
  log(level: 'warn' | 'info', message: string): void;
}

/**
 * One stream: input → processors → output, at least once. A message is acknowledged to its
 * input only once the output accepted it; a failing output is retried with growing waits and,
 * meanwhile, the input is paused (new messages wait for a slot). Stopping drains: the input
 * takes nothing new and the messages in flight are still delivered (until `drainMs`); a message
 * whose processor is waiting to retry a request is refused to its input instead.
 */
export class Stream {
  private state: StreamStats['state'] = 'running';
  private inFlight = 0;
  private messagesIn = 0;
  private messagesOut = 0;
  private errors = 0;
  private retrying = false;
  private readonly waiting: Array<() => void> = [];
  private readonly idle: Array<() => void> = [];
  private readonly lifecycle: StreamLifecycle;
  private lastWarning = 0;
  /** the message that retries a failing output while the others wait */
  private prober: StreamMessage | undefined;
  private readonly recovered: Array<() => void> = [];

  constructor(
    private readonly parts: StreamParts,
    private readonly options: StreamOptions,
  ) {
    this.lifecycle = parts.lifecycle ?? new StreamLifecycle();
  }

  start(): void {
    this.parts.input.start((messages) => this.deliver(messages));
  }

  /** Runs messages through the pipeline and the output; resolves once all were accepted. */
  async deliver(messages: StreamMessage[]): Promise<StreamMessage[]> {
    if (this.state !== 'running') throw StreamsErrors.stopped();
    await this.slot();
    this.messagesIn += messages.length;
    try {
      let batch = messages;
      for (const processor of this.parts.processors) batch = await processor.process(batch);
      const replies: StreamMessage[] = [];
      for (const message of batch) {
        const reply = await this.write(message);
        replies.push(reply ?? message);
      }
      return replies;
    } finally {
      this.release();
    }
  }

  private async write(message: StreamMessage): Promise<StreamMessage | void> {
    let wait = this.options.backoffMs;
    // While the output fails, one message probes it; the others wait for it to recover.
    while (this.retrying && this.prober !== undefined && this.prober !== message)
      await new Promise<void>((resolve) => this.recovered.push(resolve));
    for (;;) {
      try {
        const reply = await this.parts.output.write(message);
        this.messagesOut++;
        this.parts.outputCounters.delivered(message.receivedAt);
        if (this.prober === message) this.prober = undefined;
        if (this.retrying) {
          this.retrying = false;
          this.recovered.splice(0).forEach((resolve) => resolve());
        }
        return reply;
      } catch (err) {
        this.errors++;
        this.parts.outputCounters.errors++;
        this.retrying = true;
        this.prober ??= message;
        this.warn(`stream ${this.parts.name}: output failed, retrying in ${wait} ms: ${(err as Error).message}`);
        if (this.lifecycle.abandoned.aborted) throw StreamsErrors.stopped();
        await sleep(wait, undefined, { signal: this.lifecycle.abandoned }).catch(() => undefined);
        if (this.lifecycle.abandoned.aborted) throw StreamsErrors.stopped();
        wait = Math.min(wait * 2, this.options.maxBackoffMs);
      }
    }
  }

  /** Waits for a free slot: none while the output is failing beyond the messages already in flight. */
  private async slot(): Promise<void> {
    while (this.inFlight >= this.options.maxInFlight || (this.retrying && this.inFlight > 0)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (this.state !== 'running') throw StreamsErrors.stopped();
    }
    this.inFlight++;
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.();
    if (this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
  }

  /** Stops taking messages, delivers those in flight (until drainMs), then closes the connectors. */
  async stop(): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'draining';
    this.lifecycle.stop();
    await this.parts.input.stop();
    this.waiting.splice(0).forEach((resolve) => resolve());
    if (this.inFlight > 0) {
      const drained = new Promise<void>((resolve) => this.idle.push(resolve));
      const timer = sleep(this.options.drainMs, 'timeout' as const);
      if ((await Promise.race([drained, timer])) === 'timeout') {
        this.options.log(
          'warn',
          `stream ${this.parts.name}: ${this.inFlight} messages not delivered within ${this.options.drainMs} ms of stopping`,
        );
        this.lifecycle.abandon();
        this.recovered.splice(0).forEach((resolve) => resolve());
      }
    }
    this.state = 'stopped';
    await this.parts.output.close();
  }

  stats(): StreamStats {
    return {
      state: this.state,
      in_flight: this.inFlight,
      messages_in: this.messagesIn,
      messages_out: this.messagesOut,
      errors:
        this.errors +
        this.parts.counters.reduce((sum, c) => (c === this.parts.outputCounters ? sum : sum + c.errors), 0),
      output_retrying: this.retrying,
      connectors: this.parts.counters.map((c) => c.snapshot()),
    };
  }

  /** At most one warning a second per stream: a failing output must not flood the log. */
  private warn(message: string): void {
    const now = Date.now();
    if (now - this.lastWarning < 1000) return;
    this.lastWarning = now;
    this.options.log('warn', message);
  }
}
