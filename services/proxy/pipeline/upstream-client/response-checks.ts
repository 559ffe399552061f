/**
 * What makes a response head one the gateway refuses after the parser accepted it, whichever
 * client read it; undefined when it is fine. A 101 nobody asked for is not an answer to the
 * request. A body whose Transfer-Encoding is other than chunked alone is in codings the gateway
 * does not decode, and would run to the close: refused (502), as the reference gateway does. (The
 * answer to a HEAD, a 204 and a 304 have no body, whatever codings they name.)
 */
export function invalidResponseHead(status: number, rawHeaders: string[], method: string): string | undefined {
  if (status === 101) return 'the upstream switched protocols on a request that did not ask to';
  if (status < 200 || status === 204 || status === 304 || method === 'HEAD') return undefined;
  let codings: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length !== 17 || name.toLowerCase() !== 'transfer-encoding') continue;
    codings = codings === undefined ? rawHeaders[i + 1] : `${codings}, ${rawHeaders[i + 1]}`;
  }
  if (codings === undefined || codings.trim().toLowerCase() === 'chunked') return undefined;
  return `the upstream's Transfer-Encoding '${codings}' is not chunked alone`;
}
