import { request } from 'undici';
import { assertOutboundHost } from '../net/outbound-address';
import { readBounded } from '../net/read-bounded';
import { tenantAgent } from '../net/tenant-agent';

/** Fetches a small JSON document (a key set, a discovery document) from a URL a tenant configured. */
export type FetchJson = (url: string) => Promise<unknown>;

/** Real key sets and discovery documents are a few KiB; an identity provider answers in well under this. */
const MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 5_000;

const identityProviderAgent = tenantAgent({
  keepAliveTimeout: 30_000,
  connectTimeout: TIMEOUT_MS,
  headersTimeout: TIMEOUT_MS,
  bodyTimeout: TIMEOUT_MS,
});

/**
 * GETs a JSON document on a tenant's behalf: http(s) only, through the outbound-address policy
 * (the connection is refused when the host is forbidden), bounded in size and time, no
 * redirects (a provider's published URL is the document's own). Anything but a 200 with a JSON
 * body is an error naming the URL.
 */
export const fetchJson: FetchJson = async (raw) => {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${raw}: not an http(s) URL`);
  assertOutboundHost(url);
  const response = await request(url, {
    method: 'GET',
    dispatcher: identityProviderAgent,
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { accept: 'application/json' },
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`${url.origin}${url.pathname} answered ${response.statusCode}`);
  }
  const text = await readBounded(response.body, MAX_BYTES);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${url.origin}${url.pathname} did not answer JSON`);
  }
};
