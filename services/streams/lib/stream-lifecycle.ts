import { setMaxListeners } from 'node:events';
import type { RetrySignals } from './http-retry';

/**
 * The two moments of a stream's stop that its components react to. `stopped`: the stream takes
 * nothing new and its processors start no further retry (the message is refused to its input,
 * which may send it again). `abandoned`: the drain time is over and work still in flight is cut
 * off.
 */
export class StreamLifecycle {
  private readonly stopping = new AbortController();
  private readonly abandoning = new AbortController();

  constructor() {
    // every message in flight listens
    setMaxListeners(0, this.stopping.signal, this.abandoning.signal);
  }

  get stopped(): AbortSignal {
    return this.stopping.signal;
  }

  get abandoned(): AbortSignal {
    return this.abandoning.signal;
  }

  /** what a processor's HTTP retries end with */
  get retrySignals(): RetrySignals {
    return { stop: this.stopped, abort: this.abandoned };
  }

  stop(): void {
    this.stopping.abort();
  }

  abandon(): void {
    this.abandoning.abort();
  }
}
