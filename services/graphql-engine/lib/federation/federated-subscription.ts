import { subscribeUpstream, type OperationPayload, type OperationSink } from '../upstream-operations';
import type { FederatedGraph } from './federated-graph';
import type { SubgraphResponse } from './subgraph-client';

/**
 * A subscription through the supergraph: the subscription root's subgraph streams (over its
 * `subscription_type`), and each event is completed by the plan's entity fetches before it
 * reaches the client, in the order the events came. Returns the function that stops it.
 */
export function subscribeFederated(
  graph: FederatedGraph,
  payload: OperationPayload,
  headers: Record<string, string>,
  sink: OperationSink,
): () => void {
  let plan;
  try {
    plan = graph.planFor(payload.query, payload.operationName);
  } catch (err) {
    sink.error([{ message: (err as Error).message }]);
    return () => undefined;
  }
  const stream = plan.fetches[0];
  if (plan.operation.operation !== 'subscription' || !stream || stream.entity) {
    sink.error([{ message: 'A subscription must select one field of the Subscription type.' }]);
    return () => undefined;
  }
  const endpoint = graph.subgraphs.get(stream.subgraph)!;
  const variables: Record<string, unknown> = {};
  for (const name of stream.variables)
    if (payload.variables?.[name] !== undefined) variables[name] = payload.variables[name];
  let stopped = false;
  let queue: Promise<void> = Promise.resolve();
  const inOrder = (step: () => Promise<void> | void) => {
    queue = queue.then(step).catch((err: Error) => sink.error([{ message: err.message }]));
  };
  const stop = subscribeUpstream(
    { url: endpoint.url, headers: { ...headers, ...endpoint.headers }, subscriptionType: endpoint.subscriptionType },
    { query: stream.query, variables },
    {
      next: (event) =>
        inOrder(async () => {
          const answer = await graph.run(plan, payload, headers, event as SubgraphResponse);
          if (!stopped) sink.next(answer);
        }),
      error: (errors) => inOrder(() => sink.error(errors)),
      complete: () => inOrder(() => sink.complete()),
    },
  );
  return () => {
    stopped = true;
    stop();
  };
}
