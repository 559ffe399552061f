import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One kept-alive client connection, written to by hand so the test decides what goes on it and when. */
export class RawConnection {
  private readonly socket: Socket;
  private data = Buffer.alloc(0);
  closed = false;
  /** requests written so far */
  sent = 0;
  /** what broke the connection (ECONNRESET, EPIPE), if anything did */
  error: NodeJS.ErrnoException | undefined;
  readonly ready: Promise<void>;
  /** resolves once the connection has closed */
  readonly gone: Promise<void>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.ready = new Promise((resolve, reject) => this.socket.once('connect', resolve).once('error', reject));
    this.gone = new Promise((resolve) => this.socket.once('close', () => resolve()));
    this.socket.on('data', (chunk: Buffer) => (this.data = Buffer.concat([this.data, chunk])));
    this.socket.on('error', (err) => (this.error ??= err));
    this.socket.on('close', () => (this.closed = true));
  }

  send(path: string): void {
    this.sent++;
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: gw.test\r\n\r\n`);
  }

  /** Calls `listener` after each chunk received (once the responses it completes are parsed). */
  onData(listener: () => void): void {
    this.socket.on('data', listener);
  }

  /** The complete responses received so far, in order. */
  responses(): RawResponse[] {
    const out: RawResponse[] = [];
    let rest = this.data.toString('latin1');
    for (;;) {
      const head = rest.indexOf('\r\n\r\n');
      if (head < 0) return out;
      const [statusLine, ...lines] = rest.slice(0, head).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      let body = '';
      let end: number;
      if (headers['content-length'] !== undefined) {
        end = head + 4 + Number(headers['content-length']);
        if (rest.length < end) return out;
        body = rest.slice(head + 4, end);
      } else if (headers['transfer-encoding'] === 'chunked') {
        let at = head + 4;
        for (;;) {
          const lineEnd = rest.indexOf('\r\n', at);
          if (lineEnd < 0) return out;
          const size = parseInt(rest.slice(at, lineEnd), 16);
          if (rest.length < lineEnd + 2 + size + 2) return out;
          body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
          at = lineEnd + 2 + size + 2;
          if (size === 0) break;
        }
        end = at;
      } else return out;
      out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
      rest = rest.slice(end);
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}
