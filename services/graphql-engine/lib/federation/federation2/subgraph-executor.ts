import type { FederationSubschemaConfig } from '@graphql-tools/federation';
import { GraphQLError, print, type DocumentNode, type ExecutionResult } from 'graphql';
import { subscribeUpstream } from '../../upstream-operations';
import { fetchTraced, type GraphqlError, type SubgraphFetcher, type SubgraphResponse } from '../subgraph-client';
import type { OutboundTrace } from '../../../../../contracts/graphql-engine/hand-off';
import type { SubgraphEndpoint } from '../supergraph';
import { pushStream } from './push-stream';

export type SubgraphExecutor = FederationSubschemaConfig['executor'];

/** What every subgraph call of one client operation carries: the supergraph's global headers for it. */
export interface OperationContext {
  headers: Record<string, string>;
  /** the request's trace, when traced: each subgraph fetch is a span of it */
  trace?: OutboundTrace;
}

/** Operations are printed once per document the planner builds (it reuses them per plan). */
const printed = new WeakMap<DocumentNode, string>();

function printOnce(document: DocumentNode): string {
  let text = printed.get(document);
  if (text === undefined) {
    text = print(document);
    printed.set(document, text);
  }
  return text;
}

/**
 * How the Federation 2 planner reaches one subgraph: through gw's subgraph client (the outbound
 * policy, timeouts and a bounded answer), with the entry's headers over the request's global
 * ones, and for subscriptions over the entry's `subscription_type`. A subgraph that can not be
 * reached answers with the same error as under gw's v1 planner.
 */
export function subgraphExecutor(endpoint: SubgraphEndpoint, fetcher: SubgraphFetcher): SubgraphExecutor {
  return ((request) => {
    const context = request.context as Partial<OperationContext> | undefined;
    const headers = { ...(context?.headers ?? {}), ...endpoint.headers };
    const query = printOnce(request.document);
    const variables = (request.variables ?? {}) as Record<string, unknown>;
    if (request.operationType === 'subscription') return subscriptionOf(endpoint, headers, query, variables);
    return fetchTraced(fetcher, context?.trace, endpoint.name, endpoint.url, headers, { query, variables }).then(
      asExecutionResult,
      (err: Error) => ({
        errors: [
          new GraphQLError(`Subgraph "${endpoint.name}" could not be reached: ${err.message}`, {
            extensions: { code: 'SUBGRAPH_UNREACHABLE', serviceName: endpoint.name },
          }),
        ],
      }),
    );
  }) as SubgraphExecutor;
}

/** The planner relocates and merges GraphQLErrors: the subgraph's JSON errors become ones. */
function asExecutionResult(response: SubgraphResponse): ExecutionResult {
  return {
    data: response.data,
    errors: response.errors?.map(asGraphqlError),
  };
}

function asGraphqlError(error: GraphqlError): GraphQLError {
  return new GraphQLError(typeof error.message === 'string' ? error.message : 'Subgraph error', {
    path: Array.isArray(error.path) ? error.path : undefined,
    extensions: error.extensions && typeof error.extensions === 'object' ? error.extensions : undefined,
  });
}

/** The subgraph's event stream as the planner reads it: an async iterable of results. */
function subscriptionOf(
  endpoint: SubgraphEndpoint,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown>,
) {
  const stream = pushStream<ExecutionResult>();
  const stop = subscribeUpstream(
    { url: endpoint.url, headers, subscriptionType: endpoint.subscriptionType },
    { query, variables },
    {
      next: (event) => stream.push(asExecutionResult(event as SubgraphResponse)),
      error: (errors) => {
        stream.push({ data: undefined, errors: errors.map((error) => asGraphqlError(error)) });
        stream.end();
      },
      complete: () => stream.end(),
    },
  );
  stream.onReturn(stop);
  return stream.iterable;
}
