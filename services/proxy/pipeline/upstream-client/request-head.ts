import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { HeaderMap } from '../forward-headers';
import type { UpstreamRequest } from './exchange';
import { UpstreamError } from './upstream-error';

/** RFC 9110 token: a method (header names and values are checked by Node's own validators) */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** a request target of visible bytes only (as undici) */
const INVALID_PATH = /[^\u0021-\u00ff]/;
/** headers of the connection, which the client sets itself (the chain removed the client's; a transform may add them again) */
export const CONNECTION_SCOPED: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'upgrade',
  'expect',
  'host',
  'content-length',
]);
/** methods whose request is expected to carry a body: without one, they state a length of 0 (as undici) */
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The request line and headers of an HTTP/1.1 request, ready to write (latin1). `host` is the
 * `Host` to send unless the headers carry one (an API that preserves the client's); `length` is
 * the body's length in bytes, or 'chunked' for a body streamed without a stated length. A
 * method, target or header that could split the request (a CR or LF from a tenant's transform)
 * is refused with UPSTREAM_INVALID_REQUEST, never sent.
 */
export function requestHead(
  method: string,
  path: string,
  host: string,
  headers: HeaderMap,
  length: number | 'chunked' | undefined,
): string {
  if (!TOKEN.test(method)) throw new UpstreamError(`invalid request method '${method}'`, 'UPSTREAM_INVALID_REQUEST');
  if (path === '' || INVALID_PATH.test(path))
    throw new UpstreamError('invalid request target', 'UPSTREAM_INVALID_REQUEST');
  const ownHost = headers.host;
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${typeof ownHost === 'string' ? checked('host', ownHost) : host}\r\n`;
  for (const name in headers) {
    const value: unknown = headers[name];
    if (value === undefined || CONNECTION_SCOPED.has(name)) continue;
    if (Array.isArray(value)) for (const one of value) head += `${name}: ${checked(name, String(one))}\r\n`;
    // a plugin written in JavaScript may set a number
    else head += `${name}: ${checked(name, String(value))}\r\n`;
  }
  if (length === 'chunked') head += 'transfer-encoding: chunked\r\n';
  else if (length !== undefined) head += `content-length: ${length}\r\n`;
  else if (PAYLOAD_METHODS.has(method)) head += 'content-length: 0\r\n';
  return `${head}\r\n`;
}

/** The header's value, when name and value are what Node's own http would send (no CR, LF, NUL, a token name). */
function checked(name: string, value: string): string {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  } catch (err) {
    throw new UpstreamError(`invalid request header '${name}': ${(err as Error).message}`, 'UPSTREAM_INVALID_REQUEST');
  }
  return value;
}

/** The body's length for the request head: a held body's bytes, a streamed body's stated length, or chunked */
export function bodyLength(request: UpstreamRequest): number | 'chunked' | undefined {
  const { body } = request;
  if (body === null) return undefined;
  if (Buffer.isBuffer(body)) return body.length;
  const stated = request.headers['content-length'];
  return typeof stated === 'string' && /^\d+$/.test(stated) ? Number(stated) : 'chunked';
}
