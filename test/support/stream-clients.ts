import { request, type IncomingMessage } from 'node:http';
import { eventually } from './eventually';

/**
 * An EventSource-style reader of a Server-Sent Events response, as a browser would read it:
 * `data:` lines of one event are joined with newlines, an event ends at a blank line. `pause`
 * stops reading the socket (a slow consumer: TCP back-pressure reaches the sender).
 */
export class SseReader {
  readonly events: string[] = [];
  status = 0;
  contentType = '';
  /** resolves when the server ends the stream (its last chunk arrived) */
  finished: Promise<void> = new Promise(() => undefined);
  private response: IncomingMessage | undefined;
  private buffer = '';
  private data: string[] = [];
  private closed = false;

  private constructor(private readonly req: ReturnType<typeof request>) {}

  static open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers } });
      const reader = new SseReader(req);
      req.on('response', (res) => {
        reader.response = res;
        reader.status = res.statusCode ?? 0;
        reader.contentType = String(res.headers['content-type'] ?? '');
        reader.finished = new Promise((ended) => res.once('end', ended));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => reader.feed(chunk));
        res.on('error', () => undefined);
        resolve(reader);
      });
      req.on('error', (err) => (reader.closed ? undefined : reject(err)));
      req.end();
    });
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, at).replace(/\r$/, '');
      this.buffer = this.buffer.slice(at + 1);
      if (line === '') {
        if (this.data.length > 0) this.events.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) this.data.push(line.slice(5).replace(/^ /, ''));
    }
  }

  /** Waits until at least `count` events arrived. */
  async waitFor(count: number, withinMs = 5000): Promise<string[]> {
    return eventually(() => {
      if (this.events.length < count)
        throw new Error(`${this.events.length} of ${count} events arrived: ${JSON.stringify(this.events.slice(-5))}`);
      return this.events;
    }, withinMs);
  }

  pause(): void {
    this.response?.pause();
  }

  resume(): void {
    this.response?.resume();
  }

  close(): void {
    this.closed = true;
    this.req.destroy();
  }
}
