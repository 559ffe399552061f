/** An API's `proxy.target_url`, split once when the API is compiled. */
export interface ParsedTarget {
  /** scheme, host and port (`h2c://host:port` for an h2c target, which URL gives no origin) */
  origin: string;
  /** 'h2c:': HTTP/2 in cleartext with prior knowledge (http on the wire, as the reference gateway's h2c://) */
  protocol: 'http:' | 'https:' | 'h2c:';
  hostname: string;
  port: number;
  /** path of the target without its trailing slash ('' for the root) */
  basePath: string;
  /** the target's path exactly as written, used when nothing is appended to it */
  fullPath: string;
}

export function parseTarget(targetUrl: string): ParsedTarget {
  const url = new URL(targetUrl);
  const protocol = url.protocol;
  if (protocol !== 'http:' && protocol !== 'https:' && protocol !== 'h2c:')
    throw new Error(`target_url '${targetUrl}' must be http://, https:// or h2c://`);
  if (protocol === 'h2c:' && url.hostname === '') throw new Error(`target_url '${targetUrl}' names no host`);
  const port = url.port !== '' ? Number(url.port) : protocol === 'https:' ? 443 : 80;
  return {
    origin: protocol === 'h2c:' ? `h2c://${url.host}` : url.origin,
    protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    basePath: url.pathname.replace(/\/+$/, ''),
    fullPath: url.pathname,
  };
}

/**
 * The path to request upstream: the target's path joined with the request path (without the
 * listen path when `strip_listen_path` is on), and the query string unchanged.
 */
export function upstreamPath(
  target: ParsedTarget,
  requestPath: string,
  search: string,
  stripPrefixLength: number,
): string {
  const rest = stripPrefixLength > 0 ? requestPath.slice(stripPrefixLength) : requestPath;
  if (rest === '' || rest === '/') return (rest === '' ? target.fullPath : `${target.basePath}/`) + search;
  return target.basePath + rest + search;
}
