import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GraphqlApi, OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';
import { GraphqlGate } from '../graphql-gate';
import { isSubscription, type OperationRunner } from '../subscription-session';
import type { OperationPayload, OperationSink } from '../upstream-operations';
import { acceptSubscriptions, pickProtocol } from '../websocket-hand-off';
import { FederatedGraph, type FederatedRequest, type FederatedResponse } from './federated-graph';
import { subscribeFederated } from './federated-subscription';
import { Federation2Graph } from './federation2/federation2-graph';
import { v1SupergraphOf } from './federation2/supergraph-from-join';
import { isFederation2, type ComposedSupergraph, type Supergraph } from './supergraph';

/** What a supergraph API runs operations with: gw's v1 planner, or the Federation 2 planner. */
export interface SupergraphExecutor {
  execute(
    request: FederatedRequest,
    headers: Record<string, string>,
    trace?: OutboundTrace,
  ): Promise<FederatedResponse>;
  subscribe(payload: OperationPayload, headers: Record<string, string>, sink: OperationSink): () => void;
}

/**
 * A supergraph API (`execution_mode: "supergraph"`): requests are checked by the same gate as
 * proxy-only APIs (validation against the composed schema, depth, field rights, introspection)
 * and answered by the federated executor; WebSocket operations run through it too.
 */
export function compileSupergraphApi(
  definition: ApiDefinition,
  supergraph: ComposedSupergraph,
  initTimeoutMs: number,
  playground: GraphqlApi['playground'],
): GraphqlApi {
  const settings = ((definition.graphql as Record<string, unknown>).supergraph ?? {}) as {
    disable_query_batching?: unknown;
  };
  const batching = settings.disable_query_batching !== true;
  const executor = supergraphExecutor(supergraph, batching);
  const gate = new GraphqlGate(definition, supergraph.schema);
  return {
    playground,
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session),
    speaksProtocol: (offered) => pickProtocol(offered) !== undefined,
    executesOperations: true,
    execute: async (operation, request) => ({
      status: 200,
      body: await executor.execute(operation, request.globalHeaders, request.trace),
    }),
    notices: [],
    acceptSubscriptions: (req, socket, head, { session, upstream }) =>
      acceptSubscriptions(req, socket, head, {
        gate,
        session,
        initTimeoutMs,
        run: runnerOf(executor, upstream.headers),
      }),
  };
}

/**
 * A Federation 2 supergraph runs on gw's own planner when it uses only what that planner plans
 * correctly (v1SupergraphOf); otherwise on the Federation 2 planner.
 */
export function supergraphExecutor(composed: ComposedSupergraph, batching: boolean): SupergraphExecutor {
  let supergraph: Supergraph;
  if (!isFederation2(composed)) supergraph = composed;
  else {
    const derived = v1SupergraphOf(composed);
    if (!('supergraph' in derived)) return new Federation2Graph(composed, undefined, { batching });
    supergraph = derived.supergraph;
  }
  const graph = new FederatedGraph(supergraph, undefined, { batching });
  return {
    execute: (request, headers, trace) => graph.execute(request, headers, trace),
    subscribe: (payload, headers, sink) => subscribeFederated(graph, payload, headers, sink),
  };
}

/** WebSocket operations of one connection; `headers` are the supergraph's global headers for it. */
function runnerOf(executor: SupergraphExecutor, headers: Record<string, string>): OperationRunner {
  return (payload, _analysed, sink) => {
    if (isSubscription(payload)) return executor.subscribe(payload, headers, sink);
    void executor.execute(payload, headers).then((answer) => {
      sink.next(answer);
      sink.complete();
    });
    return () => undefined;
  };
}
