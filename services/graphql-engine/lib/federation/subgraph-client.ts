import { Agent, request } from 'undici';

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
export type SubgraphFetcher = (url: string, headers: Record<string, string>, body: { query: string; variables: Record<string, unknown> }) => Promise<SubgraphResponse>;

/** Keep-alive connection pools per subgraph origin, shared by every supergraph of the node. */
const dispatcher = new Agent({ connections: 128, keepAliveTimeout: 30_000, pipelining: 1 });

export const fetchFromSubgraph: SubgraphFetcher = async (url, headers, body) => {
  const response = await request(url, {
    method: 'POST',
    dispatcher,
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.statusCode} without a GraphQL response`);
  }
  if (!parsed || typeof parsed !== 'object' || (!('data' in parsed) && !('errors' in parsed))) throw new Error(`HTTP ${response.statusCode} without a GraphQL response`);
  return parsed as SubgraphResponse;
};
