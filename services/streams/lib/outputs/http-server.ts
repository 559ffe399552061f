import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StreamRequest } from '../../../../contracts/streams/hand-off';
import { onGoingAway } from '../../../../lib/http/going-away';
import { parseDuration } from '../../../../lib/streams/duration';
import type { Endpoint, Output } from '../components';
import type { StreamMessage } from '../message';
import type { ConnectorCounters } from '../stats';
import { ConsumerRing, type Consumer } from './consumers';

export interface HttpServerOutputConfig {
  path?: string;
  stream_path?: string;
  ws_path?: string;
  allowed_verbs?: string[];
  timeout?: string;
}

/**
 * Bento's `http_server` output on the gateway port: `path` answers one message per GET (a long
 * poll, 408 after `timeout`), `stream_path` holds a Server-Sent Events response and `ws_path` a
 * WebSocket, each pushed messages as they arrive. Several consumers share the messages
 * round-robin; a message is accepted once written to a consumer's connection.
 */
export class HttpServerOutput implements Output {
  private readonly ring = new ConsumerRing();
  private readonly open = new Set<() => void>();
  private readonly verbs: Set<string>;
  private readonly timeoutMs: number;
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(
    private readonly config: HttpServerOutputConfig,
    private readonly counters: ConnectorCounters,
  ) {
    this.verbs = new Set((config.allowed_verbs ?? ['GET']).map((v) => v.toUpperCase()));
    this.timeoutMs = parseDuration(config.timeout ?? '5s') ?? 5000;
  }

  /** The paths configured, or Bento's three defaults (/get, /get/stream, /get/ws) when none is. */
  endpoints(): Endpoint[] {
    const none =
      this.config.path === undefined && this.config.stream_path === undefined && this.config.ws_path === undefined;
    const path = this.config.path ?? (none ? '/get' : undefined);
    const streamPath = this.config.stream_path ?? (none ? '/get/stream' : undefined);
    const wsPath = this.config.ws_path ?? (none ? '/get/ws' : undefined);
    const endpoints: Endpoint[] = [];
    if (path) endpoints.push({ path, request: (request) => this.guard(request, () => this.longPoll(request.res)) });
    if (streamPath)
      endpoints.push({ path: streamPath, request: (request) => this.guard(request, () => this.eventStream(request)) });
    if (wsPath) {
      endpoints.push({
        path: wsPath,
        upgrade: (request, socket, head) =>
          this.wss.handleUpgrade(request.req, socket, head, (ws) => this.webSocket(ws, socket)),
      });
    }
    return endpoints;
  }

  get consumers(): number {
    return this.ring.size;
  }

  async write(message: StreamMessage): Promise<void> {
    await this.ring.deliver(message);
  }

  async close(): Promise<void> {
    this.ring.close();
    for (const end of [...this.open]) end();
  }

  private guard(request: StreamRequest, serve: () => void): void {
    if (!this.verbs.has(request.req.method ?? ''))
      return void request.res.writeHead(405, { 'content-type': 'text/plain' }).end('Method not allowed');
    serve();
  }

  private longPoll(res: ServerResponse): void {
    let done = false;
    const consumer: Consumer = {
      once: true,
      ready: () => !done,
      send: (message) =>
        new Promise<void>((resolve, reject) => {
          done = true;
          clearTimeout(timer);
          if (res.destroyed) return reject(new Error('consumer gone'));
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': message.content.length });
          res.end(message.content, () => resolve());
          res.once('close', () => (res.writableFinished ? undefined : reject(new Error('consumer gone'))));
        }),
    };
    const timer = setTimeout(() => {
      done = true;
      this.ring.remove(consumer);
      res.writeHead(408, { 'content-type': 'text/plain' }).end('Request timed out');
    }, this.timeoutMs);
    res.once('close', () => {
      done = true;
      clearTimeout(timer);
      this.ring.remove(consumer);
    });
    this.ring.add(consumer);
  }

  private eventStream({ req, res }: StreamRequest): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    let busy = false;
    let gone = false;
    const consumer: Consumer = {
      once: false,
      ready: () => !busy && !gone && !res.writableNeedDrain,
      send: (message) =>
        new Promise<void>((resolve, reject) => {
          if (gone) return reject(new Error('consumer gone'));
          busy = true;
          res.write(sseEvent(message), (err) => {
            busy = false;
            if (err || gone) reject(err ?? new Error('consumer gone'));
            else resolve();
          });
        }),
    };
    res.on('drain', () => this.ring.wake());
    let forget: () => void = () => undefined;
    const end = () => {
      gone = true;
      this.ring.remove(consumer);
      this.open.delete(end);
      forget();
      if (!res.writableEnded) res.end();
    };
    this.open.add(end);
    res.once('close', end);
    this.ring.add(consumer);
    this.counters.connectionAttempts++;
    // A draining gateway ends the stream (its client reconnects to another node) instead of waiting for it.
    forget = onGoingAway(req.socket, end);
  }

  private webSocket(ws: WebSocket, socket: Duplex): void {
    let busy = false;
    let gone = false;
    const consumer: Consumer = {
      once: false,
      ready: () => !busy && !gone && ws.bufferedAmount < 64 * 1024,
      send: (message) =>
        new Promise<void>((resolve, reject) => {
          if (gone) return reject(new Error('consumer gone'));
          busy = true;
          ws.send(message.content, { binary: false }, (err) => {
            busy = false;
            if (err) reject(err);
            else resolve();
          });
        }),
    };
    const end = () => {
      gone = true;
      this.ring.remove(consumer);
      this.open.delete(end);
      if (ws.readyState === ws.OPEN) ws.close(1001, 'stream stopped');
    };
    this.open.add(end);
    ws.once('close', end);
    this.ring.add(consumer);
    onGoingAway(socket, end);
  }
}

/** One Server-Sent Event: every line of the body is a `data:` line, the event ends with a blank line. */
export function sseEvent(message: StreamMessage): string {
  const lines = message.content.toString('utf8').split(/\r\n|\r|\n/);
  return `${lines.map((line) => `data: ${line}`).join('\n')}\n\n`;
}
