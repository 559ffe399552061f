/** An API's `proxy.target_url`, split once when the API is compiled. */
export interface ParsedTarget {
  origin: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** path of the target without its trailing slash ('' for the root) */
  basePath: string;
  /** the target's path exactly as written, used when nothing is appended to it */
  fullPath: string;
}

export function parseTarget(targetUrl: string): ParsedTarget {
  const url = new URL(targetUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`target_url '${targetUrl}' must be http:// or https://`);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    origin: url.origin,
    protocol: url.protocol,
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
