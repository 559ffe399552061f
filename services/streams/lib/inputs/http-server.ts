import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { StreamRequest } from '../../../../contracts/streams/hand-off';
import { onGoingAway } from '../../../../lib/http/going-away';
import { parseDuration } from '../../../../lib/streams/duration';
import type { Endpoint, Input, Sink } from '../components';
import { newMessage, type StreamMessage } from '../message';
import { interpolated, type Interpolated } from '../interpolated';
import type { LocalRateLimit } from '../rate-limits';
import type { ConnectorCounters } from '../stats';

export interface HttpServerInputConfig {
  path?: string;
  ws_path?: string;
  allowed_verbs?: string[];
  timeout?: string;
  sync_response?: {
    status?: string;
    headers?: Record<string, string>;
    metadata_headers?: { include_prefixes?: string[] };
  };
}

const TIMED_OUT = Symbol('timed out');

/**
 * Bento's `http_server` input on the gateway port, below the API's listen path: a request's
 * body becomes a message; the client gets 200 once the output accepted it (with
 * `sync_response`, the processed message), 408 when that took longer than `timeout` (the
 * message may still be delivered: the client may send again, at least once). `ws_path` takes
 * each WebSocket message as one message, in order.
 */
export class HttpServerInput implements Input {
  private sink: Sink | undefined;
  private stopped = false;
  private readonly verbs: Set<string>;
  private readonly timeoutMs: number;
  private readonly sockets = new Set<WebSocket>();
  private readonly wss = new WebSocketServer({ noServer: true });
  /** sync_response `status` and `headers`, interpolated from the processed message */
  private readonly syncStatus: Interpolated;
  private readonly syncHeaders: Array<[string, Interpolated]>;

  constructor(
    private readonly config: HttpServerInputConfig,
    private readonly counters: ConnectorCounters,
    /** `rate_limit`: requests beyond it are answered 429 (Bento's http_server) */
    private readonly rateLimit?: LocalRateLimit,
  ) {
    this.verbs = new Set((config.allowed_verbs ?? ['POST']).map((v) => v.toUpperCase()));
    this.timeoutMs = parseDuration(config.timeout ?? '5s') ?? 5000;
    this.syncStatus = interpolated(config.sync_response?.status ?? '200');
    this.syncHeaders = Object.entries({
      'Content-Type': 'application/octet-stream',
      ...(config.sync_response?.headers ?? {}),
    }).map(([k, v]) => [k.toLowerCase(), interpolated(v)]);
  }

  /**
   * The paths it serves: those configured, or Bento's default `path` (/post) when none is. (A
   * default for every path would make two streams of one API collide on paths neither uses.)
   */
  endpoints(): Endpoint[] {
    const { path, ws_path: wsPath } = this.config;
    const endpoints: Endpoint[] = [];
    if (path !== undefined || wsPath === undefined)
      endpoints.push({ path: path ?? '/post', request: (request) => void this.onRequest(request) });
    if (wsPath !== undefined) {
      endpoints.push({
        path: wsPath,
        upgrade: (request, socket, head) =>
          this.wss.handleUpgrade(request.req, socket, head, (ws) => this.onSocket(ws, request.req, socket)),
      });
    }
    return endpoints;
  }

  start(sink: Sink): void {
    this.sink = sink;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const ws of this.sockets) ws.close(1001, 'stream stopped');
  }

  private async onRequest({ req, res, search, relativePath, readBody, trace }: StreamRequest): Promise<void> {
    if (!this.verbs.has(req.method ?? '')) {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    if (this.stopped || !this.sink) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Stream is stopping');
      return;
    }
    if (this.rateLimit && !this.rateLimit.tryAccess()) {
      res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests');
      return;
    }
    let body: Buffer;
    try {
      body = await readBody();
    } catch (err) {
      // Too large (over the gateway's body limit) or the client went away while sending.
      const tooLarge = (err as Error).name === 'BodyTooLarge';
      if (!res.headersSent && !res.destroyed)
        res
          .writeHead(tooLarge ? 413 : 400, { 'content-type': 'text/plain' })
          .end(tooLarge ? 'Request body too large' : 'Request body could not be read');
      return;
    }
    this.counters.received++;
    const message = newMessage(body, requestMetadata(req, relativePath, search));
    if (trace) message.trace = trace;
    const delivery = this.sink([message]);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>(
      (resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), this.timeoutMs)),
    );
    try {
      const outcome = await Promise.race([delivery, timeout]);
      if (outcome === TIMED_OUT) {
        delivery.catch(() => undefined);
        res.writeHead(408, { 'content-type': 'text/plain' }).end('Request timed out');
        return;
      }
      this.counters.delivered(message.receivedAt);
      this.respond(res, outcome);
    } catch (err) {
      this.counters.errors++;
      const status = typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 500;
      if (!res.headersSent)
        res
          .writeHead(status >= 400 && status < 600 ? status : 500, { 'content-type': 'text/plain' })
          .end((err as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  private respond(res: ServerResponse, messages: StreamMessage[]): void {
    const sync = this.config.sync_response;
    if (!sync) {
      res.writeHead(200, { 'content-length': 0 }).end();
      return;
    }
    const first = messages[0];
    const headers: Record<string, string> = Object.fromEntries(
      this.syncHeaders.map(([name, value]) => [name, value(first)]),
    );
    const prefixes = sync.metadata_headers?.include_prefixes ?? [];
    for (const [key, value] of Object.entries(messages[0]?.metadata ?? {})) {
      if (prefixes.some((p) => key.startsWith(p)) && typeof value === 'string') headers[key] = value;
    }
    const status = Number(this.syncStatus(first));
    const body = Buffer.concat(
      messages.map((m, i) => (i === 0 ? m.content : Buffer.concat([Buffer.from('\n'), m.content]))),
    );
    res
      .writeHead(Number.isInteger(status) && status >= 100 && status < 600 ? status : 200, {
        ...headers,
        'content-length': body.length,
      })
      .end(body);
  }

  private onSocket(ws: WebSocket, req: IncomingMessage, socket: Duplex): void {
    if (this.stopped || !this.sink) return void ws.close(1001, 'stream stopped');
    this.sockets.add(ws);
    // A draining gateway closes the socket; the messages it already took are still delivered.
    onGoingAway(socket, () => ws.close(1001, 'Going away'));
    const metadata = requestMetadata(req, req.url ?? '', '');
    // One at a time, in order: the next frame is read once the previous message was accepted.
    let chain = Promise.resolve();
    ws.on('message', (data: RawData) => {
      this.counters.received++;
      const message = newMessage(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer), { ...metadata });
      chain = chain.then(async () => {
        try {
          await this.sink!([message]);
          this.counters.delivered(message.receivedAt);
        } catch (err) {
          this.counters.errors++;
          ws.close(1011, (err as Error).message.slice(0, 120));
        }
      });
    });
    ws.on('close', () => this.sockets.delete(ws));
  }
}

function requestMetadata(req: IncomingMessage, path: string, search: string): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) metadata[name] = Array.isArray(value) ? value.join(', ') : value;
  for (const [name, value] of new URLSearchParams(search)) metadata[name] = value;
  metadata.http_server_user_agent = req.headers['user-agent'] ?? '';
  metadata.http_server_request_path = path;
  metadata.http_server_verb = req.method ?? '';
  metadata.http_server_remote_ip = req.socket.remoteAddress ?? '';
  return metadata;
}
