import type { RequestContext } from '../request-context';

/** Request headers that belong to one connection, or that the gateway sets itself. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'accept-encoding',
  'te',
  'trailer',
  'proxy-connection',
]);
/** Response headers the gateway sets itself (fetch has already decoded the body). */
const NOT_RETURNED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/**
 * Where a request below the listen path goes: the listen path itself is the MCP endpoint, the
 * target URL; any other path is that path on the target's origin (the older transport's message
 * endpoint the upstream named, rewritten by endpointForClient).
 */
export function upstreamUrl(target: URL, relativePath: string, search: string): string {
  if (relativePath === '/' || relativePath === '')
    return search ? `${target.origin}${target.pathname}${search}` : target.href;
  return `${target.origin}${relativePath}${search}`;
}

/**
 * The older HTTP+SSE transport's `endpoint` event names where the client POSTs its messages:
 * an upstream URL, given to the client below the gateway's listen path instead. Undefined when
 * it points at another origin, where the gateway does not send a client.
 */
export function endpointForClient(data: string, target: URL, listenPrefix: string): string | undefined {
  let url: URL;
  try {
    url = new URL(data.trim(), target);
  } catch {
    return undefined;
  }
  if (url.origin !== target.origin) return undefined;
  return `${listenPrefix.replace(/\/$/, '')}${url.pathname}${url.search}`;
}

/** The client's headers as the API's chain left them, for the upstream MCP server. */
export function headersForUpstream(ctx: RequestContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.upstreamHeaders())) {
    if (value === undefined || NOT_FORWARDED.has(name.toLowerCase())) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** The upstream's response headers for the client, with those the gateway adds (X-RateLimit-*). */
export function headersForClient(response: Response, ctx: RequestContext): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (!NOT_RETURNED.has(name) && name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return { ...headers, ...ctx.responseHeaders };
}
