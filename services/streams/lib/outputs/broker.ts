import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Output } from '../components';
import type { StreamMessage } from '../message';
import type { ConnectorCounters } from '../stats';

export type BrokerPattern = 'fan_out' | 'fan_out_sequential' | 'round_robin' | 'greedy';

export interface BrokerChild {
  output: Output;
  counters: ConnectorCounters;
}

/**
 * Bento's `broker` output. `fan_out` writes each message to every child at once and
 * `fan_out_sequential` one after the other; a failing child is retried on its own (with
 * backoff) until it accepts, so the others never get a message twice. `round_robin` gives each
 * message to the next child, `greedy` to the child with the fewest messages in flight; there a
 * failure goes back to the stream, which retries (the next child may take it).
 */
export class BrokerOutput implements Output {
  private next = 0;
  private readonly busy: number[];
  private readonly closing = new AbortController();

  constructor(
    private readonly children: BrokerChild[],
    private readonly pattern: BrokerPattern,
    private readonly backoffMs: number,
    private readonly maxBackoffMs: number,
  ) {
    this.busy = children.map(() => 0);
    setMaxListeners(0, this.closing.signal);
  }

  async write(message: StreamMessage): Promise<StreamMessage | void> {
    switch (this.pattern) {
      case 'fan_out': {
        const replies = await Promise.all(this.children.map((_, i) => this.untilAccepted(i, message)));
        return replies.find((r) => r !== undefined);
      }
      case 'fan_out_sequential': {
        let reply: StreamMessage | void = undefined;
        for (let i = 0; i < this.children.length; i++) reply = (await this.untilAccepted(i, message)) ?? reply;
        return reply;
      }
      case 'round_robin': {
        const at = this.next;
        this.next = (this.next + 1) % this.children.length;
        return this.once(at, message);
      }
      case 'greedy': {
        let at = 0;
        for (let i = 1; i < this.children.length; i++) if (this.busy[i] < this.busy[at]) at = i;
        return this.once(at, message);
      }
    }
  }

  private async once(at: number, message: StreamMessage): Promise<StreamMessage | void> {
    const child = this.children[at];
    this.busy[at]++;
    child.counters.received++;
    try {
      const reply = await child.output.write(message);
      child.counters.delivered(message.receivedAt);
      return reply;
    } catch (err) {
      child.counters.errors++;
      throw err;
    } finally {
      this.busy[at]--;
    }
  }

  private async untilAccepted(at: number, message: StreamMessage): Promise<StreamMessage | void> {
    let wait = this.backoffMs;
    for (;;) {
      try {
        return await this.once(at, message);
      } catch (err) {
        if (this.closing.signal.aborted) throw err;
        await sleep(wait, undefined, { signal: this.closing.signal }).catch(() => undefined);
        if (this.closing.signal.aborted) throw err;
        wait = Math.min(wait * 2, this.maxBackoffMs);
      }
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all(this.children.map((c) => c.output.close()));
  }
}
