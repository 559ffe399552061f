import type { StreamMessage } from '../message';

/** Someone holding a connection to an `http_server` output (an SSE reader, a WebSocket, a long poll). */
export interface Consumer {
  /** false while it is still writing the previous message (a slow reader holds its turn) */
  ready(): boolean;
  /** resolves once the message left for the client; rejects when the connection broke */
  send(message: StreamMessage): Promise<void>;
  /** one message only (a long poll): removed once it got one */
  readonly once: boolean;
}

/**
 * The consumers of one output, served round-robin: each message goes to the next
 * ready consumer; with none ready, it waits for one (back-pressure reaches the input). A
 * consumer that breaks while sending is dropped and the message goes to another.
 */
export class ConsumerRing {
  private consumers: Consumer[] = [];
  private next = 0;
  private readonly wakers = new Set<() => void>();
  private closed = false;

  get size(): number {
    return this.consumers.length;
  }

  add(consumer: Consumer): void {
    this.consumers.push(consumer);
    this.wake();
  }

  remove(consumer: Consumer): void {
    const at = this.consumers.indexOf(consumer);
    if (at === -1) return;
    this.consumers.splice(at, 1);
    if (this.next > at) this.next--;
  }

  /** a consumer became ready again */
  wake(): void {
    for (const waker of [...this.wakers]) waker();
  }

  async deliver(message: StreamMessage): Promise<void> {
    for (;;) {
      if (this.closed) throw new Error('output closed');
      const consumer = this.pick();
      if (!consumer) {
        await new Promise<void>((resolve) => {
          const waker = () => {
            this.wakers.delete(waker);
            resolve();
          };
          this.wakers.add(waker);
        });
        continue;
      }
      if (consumer.once) this.remove(consumer);
      try {
        await consumer.send(message);
        this.wake();
        return;
      } catch {
        this.remove(consumer);
      }
    }
  }

  private pick(): Consumer | undefined {
    const count = this.consumers.length;
    for (let i = 0; i < count; i++) {
      const at = (this.next + i) % count;
      const consumer = this.consumers[at];
      if (consumer.ready()) {
        this.next = (at + 1) % count;
        return consumer;
      }
    }
    return undefined;
  }

  close(): void {
    this.closed = true;
    this.wake();
  }
}
