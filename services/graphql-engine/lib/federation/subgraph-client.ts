import { request } from 'undici';
import { assertOutboundHost } from '../../../../lib/net/outbound-address';
import { tenantAgent } from '../../../../lib/net/tenant-agent';
import { readBounded } from '../../../../lib/net/read-bounded';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';
import { endWhenSettled } from '../../../../lib/observability/tracing/end-when-settled';

/** A subgraph answers one operation: bodies above this are refused rather than buffered. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Headers and each stretch of body silence; the whole request is also bounded by `SUBGRAPH_DEADLINE_MS`. */
const SUBGRAPH_TIMEOUT_MS = 30_000;
const SUBGRAPH_DEADLINE_MS = 60_000;

export interface GraphqlError {
  message: string;
  path?: Array<string | number>;
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SubgraphResponse {
  data?: Record<string, unknown> | null;
  errors?: GraphqlError[];
}

/** Sends one GraphQL request to a subgraph; rejects when there is no GraphQL answer. */
export type SubgraphFetcher = (
  url: string,
  headers: Record<string, string>,
  body: { query: string; variables: Record<string, unknown> },
) => Promise<SubgraphResponse>;

/**
 * One subgraph call, as a span of the request's trace when it is traced (the trace context goes
 * to the subgraph in the call's headers).
 */
export function fetchTraced(
  fetcher: SubgraphFetcher,
  trace: OutboundTrace | undefined,
  subgraph: string,
  url: string,
  headers: Record<string, string>,
  body: { query: string; variables: Record<string, unknown> },
): Promise<SubgraphResponse> {
  if (!trace) return fetcher(url, headers, body);
  const end = trace.start(`subgraph ${subgraph}`, url, headers);
  return endWhenSettled(fetcher(url, headers, body), end);
}

/** Keep-alive connection pools per subgraph origin, shared by every supergraph of the node. */
const dispatcher = tenantAgent({ connections: 128, keepAliveTimeout: 30_000, pipelining: 1 });

export const fetchFromSubgraph: SubgraphFetcher = async (url, headers, body) => {
  assertOutboundHost(new URL(url));
  const response = await request(url, {
    method: 'POST',
    dispatcher,
    headersTimeout: SUBGRAPH_TIMEOUT_MS,
    bodyTimeout: SUBGRAPH_TIMEOUT_MS,
    signal: AbortSignal.timeout(SUBGRAPH_DEADLINE_MS),
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await readBounded(response.body, MAX_RESPONSE_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.statusCode} without a GraphQL response`);
  }
  if (!parsed || typeof parsed !== 'object' || (!('data' in parsed) && !('errors' in parsed)))
    throw new Error(`HTTP ${response.statusCode} without a GraphQL response`);
  return parsed as SubgraphResponse;
};
