import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { GraphqlApi, GraphqlEngineHandOff } from '../../../contracts/graphql-engine/hand-off';
import { isCombinedGraph, readCombinedGraph } from '../../../lib/graphql/combined-graph-config';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { Playground } from '../../../lib/graphql/playground';
import { CombinedGraph } from './combined-graph/combined-graph';
import { DataSourceFetcher } from './combined-graph/fetcher';
import { compileSupergraphApi } from './federation/supergraph-api';
import { SupergraphCompiler } from './federation/supergraph-compiler';
import { GraphqlGate, graphqlGateFor } from './graphql-gate';
import { forwardingRunner } from './subscription-session';
import { acceptSubscriptions, pickProtocol } from './websocket-hand-off';

export interface GraphqlEngineOptions {
  /** the folder of the GraphQL playground's page and assets */
  playgroundFolder: string;
  /** how long a GraphQL WebSocket may go without `connection_init`, in ms */
  initTimeoutMs: number;
  /** how long a data source may take to answer headers and body, in ms */
  dataSourceTimeoutMs: number;
  /** logs what an operator should know (a supergraph that keeps its last good composition) */
  warn?(message: string): void;
}

export interface GraphqlEngine extends GraphqlEngineHandOff {
  close(): Promise<void>;
}

/** The engine's side of the proxy → graphql-engine hand-off (contracts/graphql-engine/hand-off.ts). */
export function createGraphqlEngine(options: GraphqlEngineOptions): GraphqlEngine {
  const fetcher = new DataSourceFetcher(options.dataSourceTimeoutMs);
  const supergraphs = new SupergraphCompiler(options.warn);
  return {
    compile(definition, lookup) {
      if (isCombinedGraph(definition.graphql)) return compileCombinedGraph(definition, options, fetcher);
      if (isSupergraphApi(definition)) {
        // composed once per set of subgraphs (the last good composition kept), executed by the federation planner
        const playground = playgroundOf(definition, options.playgroundFolder);
        return compileSupergraphApi(
          definition,
          supergraphs.supergraphOf(definition, lookup),
          options.initTimeoutMs,
          (relativePath) => playground?.site.serve(relativePath, playground.path),
        );
      }
      return compileForwardedApi(definition, options);
    },
    close: () => fetcher.close(),
  };
}

/** Proxy-only APIs and exposed subgraphs: checked here, forwarded to their target by proxy. */
function compileForwardedApi(definition: ApiDefinition, options: GraphqlEngineOptions): GraphqlApi {
  const gate = graphqlGateFor(definition);
  const playground = playgroundOf(definition, options.playgroundFolder);
  return {
    executesOperations: false,
    execute: () => Promise.reject(new Error('a proxy-only API forwards its operations to its target')),
    notices: [],
    playground: (relativePath) => playground?.site.serve(relativePath, playground.path),
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session),
    speaksProtocol: (offered) => pickProtocol(offered) !== undefined,
    acceptSubscriptions: (req, socket, head, { session, upstream }) =>
      acceptSubscriptions(req, socket, head, {
        gate,
        session,
        run: forwardingRunner(upstream),
        initTimeoutMs: options.initTimeoutMs,
      }),
  };
}

/** `execution_mode: "executionEngine"`: the engine resolves operations from the graph's data sources. */
function compileCombinedGraph(
  definition: ApiDefinition,
  options: GraphqlEngineOptions,
  fetcher: DataSourceFetcher,
): GraphqlApi {
  const read = readCombinedGraph(definition.graphql as Record<string, unknown>);
  if ('problems' in read) throw new Error(`its combined graph can not be built: ${read.problems.join('; ')}`);
  const graph = new CombinedGraph(read.config, fetcher);
  const gate = new GraphqlGate(definition, graph.schema, true);
  const playground = playgroundOf(definition, options.playgroundFolder);
  return {
    executesOperations: true,
    async execute(operation, request) {
      const analysed = gate.analyse(operation.query, operation.operationName);
      if (!analysed.document) return { status: 400, body: { errors: analysed.errors } };
      return {
        status: 200,
        body: await graph.execute(
          analysed.document,
          { ...operation, variables: operation.variables ?? undefined },
          request.headers,
          request.trace,
        ),
      };
    },
    notices: graph.notices,
    playground: (relativePath) => playground?.site.serve(relativePath, playground.path),
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session),
    speaksProtocol: (offered) => pickProtocol(offered) !== undefined,
    acceptSubscriptions: (req, socket, head, { session }) =>
      acceptSubscriptions(req, socket, head, {
        gate,
        session,
        run: (payload, analysed, sink) => graph.run(analysed.document!, payload, req.headers, sink),
        initTimeoutMs: options.initTimeoutMs,
      }),
  };
}

/** `graphql.playground {enabled, path}`: the page is served below the listen path, after the API's authentication. */
function playgroundOf(definition: ApiDefinition, folder: string): { site: Playground; path: string } | undefined {
  const settings = ((definition.graphql as Record<string, unknown>).playground ?? {}) as {
    enabled?: boolean;
    path?: string;
  };
  if (settings.enabled !== true) return undefined;
  const path = `/${(settings.path || '/playground').replace(/^\/+|\/+$/g, '')}`;
  const listen = definition.proxy.listen_path.replace(/\/+$/, '');
  return { site: new Playground(folder, `${listen}${path}`, listen || '/', definition.name), path };
}
