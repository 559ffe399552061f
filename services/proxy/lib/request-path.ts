/**
 * Normalises a request path before routing, into an equivalent URI (RFC 3986 §6.2.2):
 * percent-encoded unreserved characters (ALPHA, DIGIT, `-._~`) are decoded, so `/%61dmin` is
 * `/admin` for the routing table, the endpoint rules and the upstream alike (the reference
 * gateway matches its rules against the decoded path); then dot segments are resolved as the
 * reference gateway's router does (Go's `path.Clean`: `.` and `..` segments resolved, `..` above
 * the root stays at the root, runs of slashes collapsed), keeping a trailing slash. Reserved and
 * other escapes (`%2F`, `%20`, `%25`) are kept as the client wrote them. The path is returned
 * unchanged (the same string) when there is nothing to do.
 */
export function normaliseRequestPath(path: string): string {
  const decoded = path.includes('%') ? decodeUnreserved(path) : path;
  if (!mayNeedCleaning(decoded)) return decoded;
  const out: string[] = [];
  const segments = decoded.split('/');
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  const trailingSlash = out.length > 0 && decoded.endsWith('/');
  return `/${out.join('/')}${trailingSlash ? '/' : ''}`;
}

/**
 * The path as an upstream that decodes `%2F` before routing reads it (slashes decoded, dot
 * segments resolved again): endpoint rules also consult this reading, so `/a%2F..%2Fadmin` or
 * `/admin%2Fsecret` can not reach what the rules refuse. Undefined when the path has no `%2F`.
 */
export function encodedSlashReading(path: string): string | undefined {
  if (!path.includes('%2F') && !path.includes('%2f')) return undefined;
  return normaliseRequestPath(path.replace(/%2f/gi, '/'));
}

const ESCAPE = /%([0-9A-Fa-f]{2})/g;

function decodeUnreserved(path: string): string {
  return path.replace(ESCAPE, (escape, hex: string) => {
    const code = parseInt(hex, 16);
    return isUnreserved(code) ? String.fromCharCode(code) : escape;
  });
}

function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e // - . _ ~
  );
}

/** The cheap test every request pays: a dot segment or an empty one always follows a '/'. */
function mayNeedCleaning(path: string): boolean {
  return path.includes('/.') || path.includes('//');
}
