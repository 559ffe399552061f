/**
 * What makes a response head one the gateway refuses after the parser accepted it, whichever
 * client read it; undefined when it is fine. A 101 nobody asked for is not an answer to the
 * request. A Transfer-Encoding other than chunked alone names codings the gateway does not
 * decode, and its body would then run to the close: refused (502), as the reference gateway does.
 */
export function invalidResponseHead(statusCode: number, rawHeaders: string[]): string | undefined {
  if (statusCode === 101) return 'the upstream switched protocols on a request that did not ask to';
  if (statusCode < 200) return undefined;
  let codings: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length !== 17 || name.toLowerCase() !== 'transfer-encoding') continue;
    codings = codings === undefined ? rawHeaders[i + 1] : `${codings}, ${rawHeaders[i + 1]}`;
  }
  if (codings === undefined || codings.trim().toLowerCase() === 'chunked') return undefined;
  return `the upstream's Transfer-Encoding '${codings}' is not chunked alone`;
}
