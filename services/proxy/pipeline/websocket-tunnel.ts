import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { tenantWebSocketConnection } from '../../../lib/net/tenant-agent';
import { onGoingAway } from '../../../lib/http/going-away';
import { FrameRelay } from './frame-relay';
import { forwardedResponseHeaders, type HeaderMap } from './forward-headers';
import { GatewayMessages, sendGatewayError } from './gateway-errors';
import type { RequestContext } from './request-context';
import { closeFrame } from './websocket-frames';

/** The client side of an upgrade request: its socket and the bytes read past its headers. */
export interface UpgradeSocket {
  socket: Duplex;
  head: Buffer;
}

/**
 * WebSocket pass-through: replays the client's upgrade request to the target and, once the
 * upstream switches protocols, joins the two sockets. An upstream that refuses the upgrade has
 * its answer relayed; one that can not be reached is 502. An HTTPS upstream gets the same TLS
 * settings as the API's HTTP requests (`upstream_certificates`, `ssl_insecure_skip_verify`), and
 * its connection the same outbound guard: a refused address gets no connection, and 502.
 */
export function tunnel(ctx: RequestContext, client: UpgradeSocket, path: string, headers: HeaderMap): void {
  const target = ctx.targetOverride ?? ctx.target ?? ctx.version!.target;
  const https = target.protocol === 'https:';
  const tls = https ? ctx.upstreamTls : undefined;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const upstream = (https ? httpsRequest : httpRequest)({
    host,
    port: target.port,
    method: ctx.req.method,
    path,
    headers: { ...headers, connection: 'Upgrade', upgrade: ctx.req.headers.upgrade ?? 'websocket' },
    // no agent: one connection per tunnel, made by the guard (it resolves the name and judges the address)
    createConnection: tenantWebSocketConnection(https) as never,
    servername: https && isIP(host) === 0 ? host : undefined,
    ...(tls ? { cert: tls.cert, key: tls.key, rejectUnauthorized: tls.rejectUnauthorized } : {}),
  });
  upstream.on('upgrade', (response: IncomingMessage, upstreamSocket: Duplex, upstreamHead: Buffer) => {
    const lines = [`HTTP/1.1 101 ${response.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < response.rawHeaders.length; i += 2)
      lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
    client.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    const closeBoth = () => {
      client.socket.destroy();
      upstreamSocket.destroy();
    };
    upstreamSocket.on('error', closeBoth).on('close', closeBoth);
    client.socket.on('error', closeBoth).on('close', closeBoth);
    if (isWebSocket(ctx.req)) return joinWebSockets(client, upstreamSocket, upstreamHead);
    if (upstreamHead.length > 0) client.socket.write(upstreamHead);
    if (client.head.length > 0) upstreamSocket.write(client.head);
    upstreamSocket.pipe(client.socket).pipe(upstreamSocket);
    // Another protocol: a draining gateway ends the tunnel at once (both ends see it close).
    onGoingAway(client.socket, () => {
      upstreamSocket.unpipe(client.socket);
      client.socket.unpipe(upstreamSocket);
      client.socket.end();
      upstreamSocket.end();
    });
  });
  upstream.on('response', (response: IncomingMessage) => {
    ctx.res.writeHead(response.statusCode ?? 502, forwardedResponseHeaders(response.headers));
    response.pipe(ctx.res);
  });
  upstream.on('error', () => sendGatewayError(ctx.res, 502, GatewayMessages.upstreamFailed));
  client.socket.on('close', () => upstream.destroy());
  upstream.end();
}

/**
 * Relays the frames both ways. A draining gateway ends each direction between two frames with a
 * close frame (1001, going away) of its own: the client and the upstream each see the other go.
 */
function joinWebSockets(client: UpgradeSocket, upstreamSocket: Duplex, upstreamHead: Buffer): void {
  const toClient = new FrameRelay(upstreamSocket, client.socket);
  const toUpstream = new FrameRelay(client.socket, upstreamSocket);
  if (upstreamHead.length > 0) toClient.forward(upstreamHead);
  if (client.head.length > 0) toUpstream.forward(client.head);
  onGoingAway(client.socket, () => {
    toClient.close(closeFrame(1001, 'Going away', false));
    toUpstream.close(closeFrame(1001, 'Going away', true));
  });
}

function isWebSocket(req: IncomingMessage): boolean {
  return req.headers.upgrade?.trim().toLowerCase() === 'websocket';
}
