import { normalizedExecutor } from '@graphql-tools/executor';
import { getStitchedSchemaFromSupergraphSdl } from '@graphql-tools/federation';
import { getOperationAST, parse, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { DocumentCache } from '../../document-cache';
import type { OperationPayload, OperationSink } from '../../upstream-operations';
import { SUBSCRIPTIONS_OVER_WEBSOCKET, type FederatedRequest, type FederatedResponse } from '../federated-graph';
import { fetchFromSubgraph, type GraphqlError, type SubgraphFetcher } from '../subgraph-client';
import type { Federation2Supergraph } from '../supergraph';
import { endpointsByGraph } from './graph-endpoints';
import { subgraphExecutor, type OperationContext } from './subgraph-executor';
import type { OutboundTrace } from '../../../../../contracts/graphql-engine/hand-off';

/** Parsed operations kept per supergraph, bounded by the bytes of their texts. */
const DOCUMENT_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * One Federation 2 supergraph API's executor. The supergraph SDL (with its `join__` directives)
 * becomes a stitched schema whose resolvers plan each operation across the subgraphs: shareable
 * fields from whichever owner the selection reaches, overrides, interface objects, `@requires`
 * with arguments, `@provides`. Operations arrive validated by the gate (against `schema`).
 */
export class Federation2Graph {
  readonly schema: GraphQLSchema;
  private readonly documents = new DocumentCache<DocumentNode>(DOCUMENT_CACHE_BYTES);

  constructor(
    readonly supergraph: Federation2Supergraph,
    fetcher: SubgraphFetcher = fetchFromSubgraph,
    options: { batching?: boolean } = {},
  ) {
    const endpoints = endpointsByGraph(supergraph.supergraphSdl, supergraph.subgraphs);
    this.schema = getStitchedSchemaFromSupergraphSdl({
      supergraphSdl: supergraph.supergraphSdl,
      batch: options.batching !== false,
      onSubschemaConfig: (config) => {
        const endpoint = endpoints.get(config.name) ?? {
          name: config.name,
          url: config.endpoint,
          headers: {},
          subscriptionType: 'graphql-ws' as const,
        };
        config.executor = subgraphExecutor(endpoint, fetcher);
      },
    });
  }

  /** Runs a query or mutation; `headers` are the global headers of this request. */
  async execute(
    request: FederatedRequest,
    headers: Record<string, string>,
    trace?: OutboundTrace,
  ): Promise<FederatedResponse> {
    const document = this.documentOf(request.query);
    if ('errors' in document) return document;
    // refused before executing: executing it would open the subscription upstream
    if (getOperationAST(document, request.operationName)?.operation === 'subscription')
      return { errors: [{ message: SUBSCRIPTIONS_OVER_WEBSOCKET }] };
    // graphql-tools' executor, not graphql-js's: a planner error marked critical (a supergraph
    // that can not answer the operation at all) nulls the whole answer rather than one field
    const result = await normalizedExecutor({
      schema: this.schema,
      document,
      variableValues: request.variables ?? {},
      operationName: request.operationName,
      contextValue: { headers, trace } satisfies OperationContext,
    });
    if (Symbol.asyncIterator in result) {
      void result[Symbol.asyncIterator]().return?.();
      return { errors: [{ message: SUBSCRIPTIONS_OVER_WEBSOCKET }] };
    }
    return asResponse(result);
  }

  /** A subscription: every event of the root subgraph's stream, completed across the subgraphs. */
  subscribe(payload: OperationPayload, headers: Record<string, string>, sink: OperationSink): () => void {
    const document = this.documentOf(payload.query);
    if ('errors' in document) {
      sink.error(document.errors);
      return () => undefined;
    }
    let iterator: AsyncIterator<ExecutionResult> | undefined;
    let stopped = false;
    void Promise.resolve(
      normalizedExecutor({
        schema: this.schema,
        document,
        variableValues: payload.variables ?? {},
        operationName: payload.operationName,
        contextValue: { headers } satisfies OperationContext,
      }),
    )
      .then(async (result) => {
        if (!(Symbol.asyncIterator in result)) {
          sink.error(asResponse(result).errors ?? [{ message: 'The subscription did not start' }]);
          return;
        }
        iterator = result[Symbol.asyncIterator]();
        if (stopped) return void iterator.return?.();
        for (;;) {
          const step = await iterator.next();
          if (step.done || stopped) break;
          sink.next(asResponse(step.value));
        }
        if (!stopped) sink.complete();
      })
      .catch((err: Error) => sink.error([{ message: err.message }]));
    return () => {
      stopped = true;
      void iterator?.return?.();
    };
  }

  private documentOf(query: string): DocumentNode | { errors: GraphqlError[] } {
    let document = this.documents.get(query);
    if (!document) {
      try {
        document = parse(query);
      } catch (err) {
        return { errors: [{ message: (err as Error).message }] };
      }
      this.documents.set(query, document);
    }
    return document;
  }
}

/** An execution result as JSON: errors with their message, path and extensions (locations are the gateway's). */
function asResponse(result: ExecutionResult): FederatedResponse {
  const errors = result.errors?.map((error) => error.toJSON() as GraphqlError);
  if (!errors || errors.length === 0) return { data: result.data ?? null };
  return result.data === undefined ? { errors } : { errors, data: result.data };
}
