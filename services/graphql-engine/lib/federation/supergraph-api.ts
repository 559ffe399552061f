import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GraphqlApi, GraphqlPageReply } from '../../../../contracts/graphql-engine/hand-off';
import { GraphqlGate } from '../graphql-gate';
import type { OperationRunner } from '../subscription-session';
import { acceptSubscriptions, pickProtocol } from '../websocket-hand-off';
import { FederatedGraph } from './federated-graph';
import { subscribeFederated } from './federated-subscription';
import type { Supergraph } from './supergraph';

/**
 * A supergraph API (`execution_mode: "supergraph"`): requests are checked by the same gate as
 * proxy-only APIs (validation against the composed schema, depth, field rights, introspection)
 * and answered by the federated executor; WebSocket operations run through it too.
 */
export function compileSupergraphApi(definition: ApiDefinition, supergraph: Supergraph, initTimeoutMs: number, playground: GraphqlApi['playground']): GraphqlApi {
  const gate = new GraphqlGate(definition, supergraph.schema);
  const settings = ((definition.graphql as Record<string, unknown>).supergraph ?? {}) as { disable_query_batching?: unknown };
  const graph = new FederatedGraph(supergraph, undefined, { batching: settings.disable_query_batching !== true });
  return {
    playground,
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session),
    speaksProtocol: (offered) => pickProtocol(offered) !== undefined,
    execute: async (request, headers) => jsonReply(await graph.execute(request, headers)),
    acceptSubscriptions: (req, socket, head, { session, upstream }) =>
      acceptSubscriptions(req, socket, head, { gate, session, upstream, initTimeoutMs, runner: runnerOf(graph, upstream.headers) }),
  };
}

/** WebSocket operations of one connection; `headers` are the supergraph's global headers for it. */
function runnerOf(graph: FederatedGraph, headers: Record<string, string>): OperationRunner {
  return {
    query: (payload, sink) =>
      void graph.execute(payload, headers).then((answer) => {
        sink.next(answer);
        sink.complete();
      }),
    subscribe: (payload, sink) => subscribeFederated(graph, payload, headers, sink),
  };
}

function jsonReply(body: unknown): GraphqlPageReply {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}
