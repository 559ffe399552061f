import { request } from 'undici';
import { tenantAgent } from '../../../../lib/net/tenant-agent';
import { assertOutboundHost, guardedLookup, OutboundAddressRefused } from '../../../../lib/net/outbound-address';
import { isGwError } from '../../../../lib/errors';
import { ApisErrors } from '../../errors';
import { BodyTooLarge, readBounded } from '../../../../lib/net/read-bounded';

/** Bounds of a document fetch: real OpenAPI and AsyncAPI documents are well under a few MiB. */
export interface FetchLimits {
  /** @default 5 MiB */
  maxBytes: number;
  /** whole fetch, redirects included; @default 10 s */
  timeoutMs: number;
  /** @default 3 */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a document a tenant names by URL, on the tenant's behalf: http(s) only, bounded in
 * size and time, through the outbound-address policy (lib/net/outbound-address.ts) at every
 * redirect. The response status is ignored: the body is the document. Network failures are
 * 500s, refused addresses and oversized bodies 400s.
 */
export async function fetchDocument(
  rawUrl: string,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
  lookup = guardedLookup(),
): Promise<{ text: string; url: string }> {
  let url = httpUrl(rawUrl);
  const agent = tenantAgent({
    lookup,
    connectTimeout: limits.timeoutMs,
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
  });
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      assertOutboundHost(url);
      const response = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
      });
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string' && redirects < limits.maxRedirects) {
        await response.body.dump();
        url = httpUrl(new URL(location, url).href);
        continue;
      }
      try {
        return { text: await readBounded(response.body, limits.maxBytes), url: url.href };
      } catch (err) {
        if (err instanceof BodyTooLarge)
          throw ApisErrors.importInvalid(`The document is larger than ${limits.maxBytes} bytes`);
        throw err;
      }
    }
  } catch (err) {
    if (isGwError(err)) throw err;
    const refused = refusal(err);
    if (refused)
      throw ApisErrors.importUrlRefused(
        rawUrl,
        `${refused.message}; the management server does not fetch from such addresses`,
      );
    throw ApisErrors.importFetchFailed(rawUrl, describe(err));
  } finally {
    agent.close().catch(() => {});
  }
}

function httpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ApisErrors.importInvalid(`'url' must be an absolute http:// or https:// URL, not '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw ApisErrors.importInvalid(`'url' must be an http:// or https:// URL, not ${url.protocol}`);
  if (url.username || url.password) throw ApisErrors.importInvalid("'url' may not carry credentials");
  return url;
}

/** The policy's refusal, wherever undici wrapped it. */
function refusal(err: unknown): OutboundAddressRefused | undefined {
  for (let current = err, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof OutboundAddressRefused) return current;
  }
  return undefined;
}

function describe(err: unknown): string {
  const error = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') return 'no complete answer in time';
  return error?.cause?.code ?? error?.code ?? error?.message ?? String(err);
}
