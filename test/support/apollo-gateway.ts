import { createHash } from 'node:crypto';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { parse, type DefinitionNode, type OperationDefinitionNode } from 'graphql';

export interface ApolloRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface RunningApolloGateway {
  /** the response @apollo/gateway gives a client for this operation */
  execute(request: ApolloRequest): Promise<{ data?: unknown; errors?: unknown[]; extensions?: unknown }>;
  stop(): Promise<void>;
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** @apollo/gateway over running subgraphs (composed by introspecting them), to compare gw's answers with. */
export async function startApolloGateway(subgraphs: Array<{ name: string; url: string }>) {
  const gateway = new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }), logger: silent });
  const { schema, executor } = await gateway.load();
  const running: RunningApolloGateway = {
    async execute(request) {
      const document = parse(request.query);
      const isOperation = (d: DefinitionNode): d is OperationDefinitionNode => d.kind === 'OperationDefinition';
      const operation = document.definitions.find(isOperation);
      const response = await executor({
        request,
        document,
        source: request.query,
        queryHash: createHash('sha256').update(request.query).digest('hex'),
        operationName: request.operationName ?? null,
        operation,
        schema,
        context: {},
        logger: silent,
        metrics: {},
        overallCachePolicy: { restrict() {}, replace() {}, policyIfCacheable: () => null },
      } as never);
      return response as Awaited<ReturnType<RunningApolloGateway['execute']>>;
    },
    stop: () => gateway.stop(),
  };
  return running;
}
