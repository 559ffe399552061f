/**
 * What a listen path may hold beyond starting with '/' (the action's validator checks that):
 * the gateway resolves `.` and `..` segments (also written `%2e`) and collapses empty ones in
 * every request path before routing, so a listen path holding one could never be reached.
 */
export function listenPathProblem(listenPath: string): string | undefined {
  const segments = listenPath.split('/').slice(1);
  // A trailing slash leaves one empty last segment, which is allowed.
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  for (const segment of segments) {
    if (segment === '') return `Listen path ${listenPath} has an empty segment ('//'); requests never reach it`;
    const plain = segment.replace(/%2e/gi, '.');
    if (plain === '.' || plain === '..')
      return `Listen path ${listenPath} has a dot segment ('${segment}'); requests never reach it`;
  }
  return undefined;
}
