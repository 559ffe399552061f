import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export type HeaderMap = Record<string, string | string[]>;

/** Headers that describe one connection, not the message: never forwarded (RFC 9110 §7.6.1). */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);

/**
 * The client's headers as they go upstream: hop-by-hop headers (and those the client's
 * `Connection` names) removed, `Host` left to the target unless the API preserves it, `Expect`
 * answered by the gateway's own server, and the `X-Forwarded-*` headers added.
 */
export function forwardedRequestHeaders(req: IncomingMessage, preserveHost: boolean): HeaderMap {
  const headers: HeaderMap = {};
  const source = req.headers;
  const connectionScoped = source.connection === undefined ? undefined : connectionTokens(source.connection);
  for (const name in source) {
    const value = source[name];
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'expect' || (name === 'host' && !preserveHost))
      continue;
    if (connectionScoped?.has(name)) continue;
    headers[name] = value;
  }
  const clientAddress = req.socket.remoteAddress ?? '';
  const forwardedFor = source['x-forwarded-for'];
  const earlier = Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor;
  headers['x-forwarded-for'] = earlier ? `${earlier}, ${clientAddress}` : clientAddress;
  if (source['x-forwarded-proto'] === undefined)
    headers['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (source['x-forwarded-host'] === undefined && source.host !== undefined) headers['x-forwarded-host'] = source.host;
  return headers;
}

/** The upstream's response headers as they go to the client, without hop-by-hop headers. */
export function forwardedResponseHeaders(headers: IncomingHttpHeaders): HeaderMap {
  const out: HeaderMap = {};
  const connectionScoped = headers.connection === undefined ? undefined : connectionTokens(headers.connection);
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || connectionScoped?.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function connectionTokens(connection: string | string[]): Set<string> | undefined {
  return connectionHeaders(Array.isArray(connection) ? connection.join(',') : connection);
}

/** The headers a `Connection` header names (scoped to that connection); undefined when it names none. */
export function connectionHeaders(value: string): Set<string> | undefined {
  // The usual values name no extra header: skip building a set on every request.
  if (
    value === 'keep-alive' ||
    value === 'close' ||
    value === 'Keep-Alive' ||
    value === 'Upgrade' ||
    value === 'upgrade'
  )
    return undefined;
  return new Set(value.split(',').map((token) => token.trim().toLowerCase()));
}
