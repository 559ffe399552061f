import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';
import { GatewayMessages, sendGatewayError } from './gateway-errors';

/** Headers that describe one connection, not the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization']);
/** Request headers the gateway sets itself. `expect` is answered by the gateway's own server. */
const SET_BY_GATEWAY = new Set(['host', 'expect']);

/** One keep-alive connection pool per upstream origin, shared by every API that targets it. */
export class UpstreamPools {
  private readonly pools = new Map<string, Pool>();

  get(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 256, keepAliveTimeout: 30_000 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => pool.destroy())));
  }
}

export interface UpstreamTarget {
  pool: Pool;
  /** path and query string to request upstream */
  path: string;
}

export interface ForwardOptions {
  onError(err: Error): void;
}

/**
 * Sends the client's request upstream and streams the answer back; neither body is buffered.
 * A client that goes away aborts the upstream request.
 */
export function forward(req: IncomingMessage, res: ServerResponse, target: UpstreamTarget, options: ForwardOptions): void {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  target.pool
    .request({
      method: req.method as 'GET',
      path: target.path,
      headers: upstreamHeaders(req),
      body: hasBody(req) ? req : null,
      signal: abort.signal,
    })
    .then(
      (upstream) => {
        res.writeHead(upstream.statusCode, clientHeaders(upstream.headers));
        pipeline(upstream.body, res, (err) => {
          if (err && !abort.signal.aborted) options.onError(err);
        });
      },
      (err: Error) => {
        if (abort.signal.aborted) return;
        options.onError(err);
        sendGatewayError(res, 502, GatewayMessages.upstreamFailed);
      },
    );
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function upstreamHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const connectionScoped = connectionTokens(req.headers.connection);
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || SET_BY_GATEWAY.has(name) || connectionScoped?.has(name)) continue;
    headers[name] = value;
  }
  const clientAddress = req.socket.remoteAddress ?? '';
  const forwardedFor = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${clientAddress}` : clientAddress;
  headers['x-forwarded-proto'] ??= (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (req.headers.host !== undefined) headers['x-forwarded-host'] ??= req.headers.host;
  return headers;
}

function clientHeaders(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const connectionScoped = connectionTokens(headers.connection as string | undefined);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connectionScoped?.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function connectionTokens(connection: string | string[] | undefined): Set<string> | undefined {
  if (connection === undefined) return undefined;
  const value = Array.isArray(connection) ? connection.join(',') : connection;
  return new Set(value.split(',').map((token) => token.trim().toLowerCase()));
}
