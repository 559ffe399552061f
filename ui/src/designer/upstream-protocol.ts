/**
 * How the gateway speaks HTTP/2 to an API's upstream, read from the target URL's scheme:
 * `h2c://` is cleartext HTTP/2 by itself, an `https://` target speaks it only when the API sets
 * `proxy.transport.enable_http2`, and a plain `http://` target never does.
 */
export type UpstreamHttp2 = 'implied' | 'optional' | 'unavailable';

export function upstreamHttp2(targetUrl: string): UpstreamHttp2 {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):\/\//i.exec(targetUrl)?.[1]?.toLowerCase();
  if (scheme === 'h2c') return 'implied';
  if (scheme === 'https') return 'optional';
  return 'unavailable';
}
