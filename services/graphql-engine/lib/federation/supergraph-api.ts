import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GraphqlApi } from '../../../../contracts/graphql-engine/hand-off';
import { GraphqlGate } from '../graphql-gate';
import { isSubscription, type OperationRunner } from '../subscription-session';
import { acceptSubscriptions, pickProtocol } from '../websocket-hand-off';
import { FederatedGraph } from './federated-graph';
import { subscribeFederated } from './federated-subscription';
import type { Supergraph } from './supergraph';

/**
 * A supergraph API (`execution_mode: "supergraph"`): requests are checked by the same gate as
 * proxy-only APIs (validation against the composed schema, depth, field rights, introspection)
 * and answered by the federated executor; WebSocket operations run through it too.
 */
export function compileSupergraphApi(
  definition: ApiDefinition,
  supergraph: Supergraph,
  initTimeoutMs: number,
  playground: GraphqlApi['playground'],
): GraphqlApi {
  const gate = new GraphqlGate(definition, supergraph.schema);
  const settings = ((definition.graphql as Record<string, unknown>).supergraph ?? {}) as {
    disable_query_batching?: unknown;
  };
  const graph = new FederatedGraph(supergraph, undefined, { batching: settings.disable_query_batching !== true });
  return {
    playground,
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session),
    speaksProtocol: (offered) => pickProtocol(offered) !== undefined,
    executesOperations: true,
    execute: async (operation, request) => ({
      status: 200,
      body: await graph.execute(operation, request.globalHeaders),
    }),
    notices: [],
    acceptSubscriptions: (req, socket, head, { session, upstream }) =>
      acceptSubscriptions(req, socket, head, { gate, session, initTimeoutMs, run: runnerOf(graph, upstream.headers) }),
  };
}

/** WebSocket operations of one connection; `headers` are the supergraph's global headers for it. */
function runnerOf(graph: FederatedGraph, headers: Record<string, string>): OperationRunner {
  return (payload, _analysed, sink) => {
    if (isSubscription(payload)) return subscribeFederated(graph, payload, headers, sink);
    void graph.execute(payload, headers).then((answer) => {
      sink.next(answer);
      sink.complete();
    });
    return () => undefined;
  };
}
