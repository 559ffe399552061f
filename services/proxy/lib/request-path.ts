/**
 * Resolves the dot segments of a request path before routing, as the reference gateway's router
 * does (Go's `path.Clean`: `.` and `..` segments resolved, `..` above the root stays at the
 * root, runs of slashes collapsed), keeping a trailing slash. `%2e` counts as a dot, so
 * `/a/%2e%2e/b` is `/b`; no other escape is decoded, so what goes upstream keeps the client's
 * encoding. The path is returned unchanged (the same string) when it has nothing to resolve.
 */
export function normaliseRequestPath(path: string): string {
  if (!mayNeedCleaning(path)) return path;
  const out: string[] = [];
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '') continue;
    const dots = dotSegment(segment);
    if (dots === 1) continue;
    if (dots === 2) out.pop();
    else out.push(segment);
  }
  const trailingSlash = out.length > 0 && path.endsWith('/');
  return `/${out.join('/')}${trailingSlash ? '/' : ''}`;
}

/** The cheap test every request pays: a dot segment or an empty one always follows a '/'. */
function mayNeedCleaning(path: string): boolean {
  return path.includes('/.') || path.includes('//') || path.includes('/%2e') || path.includes('/%2E');
}

/** 1 for `.`, 2 for `..` (either dot may be written `%2e`), 0 for any other segment. */
function dotSegment(segment: string): 0 | 1 | 2 {
  if (segment.length > 6) return 0;
  const plain = segment.replace(/%2e/gi, '.');
  return plain === '.' ? 1 : plain === '..' ? 2 : 0;
}
