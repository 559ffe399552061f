import type { IncomingHttpHeaders } from 'node:http';
import { execute, subscribe, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { CombinedGraphConfig } from '../../../../lib/graphql/combined-graph-config';
import type { OperationPayload, OperationSink } from '../upstream-operations';
import { ExecutionLoader } from './execution-loader';
import type { DataSourceFetcher } from './fetcher';
import { parentFieldResolver } from './field-mapping';
import { attachResolvers, type ExecutionContext } from './resolvers';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';

/**
 * A combined graph (`execution_mode: "executionEngine"`): graphql-js' executor over the graph's
 * own schema, with a resolver per data-source field (resolvers.ts). Operations reach it already
 * checked by the API's gate (validation, depth, permissions, introspection), with their parsed
 * document; introspection is answered from this schema.
 */
export class CombinedGraph {
  readonly schema: GraphQLSchema;
  /** what /gw/health reports about this graph (nothing today: every kind of data source runs) */
  readonly notices: string[];

  constructor(
    config: CombinedGraphConfig,
    private readonly fetcher: DataSourceFetcher,
  ) {
    this.schema = config.schema;
    this.notices = attachResolvers(config);
  }

  execute(
    document: DocumentNode,
    payload: OperationPayload,
    headers: IncomingHttpHeaders,
    trace?: OutboundTrace,
  ): Promise<ExecutionResult> {
    return Promise.resolve(
      execute({
        schema: this.schema,
        document,
        variableValues: payload.variables,
        operationName: payload.operationName,
        contextValue: this.context(headers, trace),
        fieldResolver: parentFieldResolver,
      }),
    );
  }

  /**
   * Runs one operation of a client's WebSocket: a query or mutation answers once, a subscription
   * streams each upstream event through the graph until it ends or `stop` is called.
   */
  run(
    document: DocumentNode,
    payload: OperationPayload,
    headers: IncomingHttpHeaders,
    sink: OperationSink,
  ): () => void {
    const isSubscription = document.definitions.some(
      (d) =>
        d.kind === 'OperationDefinition' &&
        d.operation === 'subscription' &&
        (!payload.operationName || d.name?.value === payload.operationName),
    );
    if (!isSubscription) {
      this.execute(document, payload, headers).then(
        (result) => {
          sink.next(result);
          sink.complete();
        },
        (err: Error) => sink.error([{ message: err.message }]),
      );
      return () => undefined;
    }
    let stream: AsyncIterator<ExecutionResult> | undefined;
    let stopped = false;
    void (async () => {
      try {
        const result = await subscribe({
          schema: this.schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: this.context(headers),
          fieldResolver: parentFieldResolver,
        });
        if (!(Symbol.asyncIterator in result))
          return sink.error((result.errors ?? []).map((e) => ({ message: e.message })));
        stream = result;
        if (stopped) return void stream.return?.();
        for await (const event of result) sink.next(event);
        sink.complete();
      } catch (err) {
        sink.error([{ message: (err as Error).message }]);
      }
    })();
    return () => {
      stopped = true;
      void stream?.return?.();
    };
  }

  private context(headers: IncomingHttpHeaders, trace?: OutboundTrace): ExecutionContext {
    return { loader: new ExecutionLoader(this.fetcher, trace), headers };
  }
}
