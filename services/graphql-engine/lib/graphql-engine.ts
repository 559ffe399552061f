import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApiLookup, GraphqlApi, GraphqlEngineHandOff, GraphqlRefusal } from '../../../contracts/graphql-engine/hand-off';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { SupergraphCompiler } from './federation/supergraph-compiler';
import { GraphqlGate, graphqlGateFor } from './graphql-gate';
import { Playground } from '../../../lib/graphql/playground';
import { acceptSubscriptions, pickProtocol } from './websocket-hand-off';

export interface GraphqlEngineOptions {
  /** the folder of the GraphQL playground's page and assets */
  playgroundFolder: string;
  /** how long a GraphQL WebSocket may go without `connection_init`, in ms */
  initTimeoutMs: number;
  /** logs what an operator should know (a supergraph that keeps its last good composition) */
  warn?(message: string): void;
}

/** The engine's side of the proxy → graphql-engine hand-off (contracts/graphql-engine/hand-off.ts). */
export function createGraphqlEngine(options: GraphqlEngineOptions): GraphqlEngineHandOff {
  const supergraphs = new SupergraphCompiler(options.warn);
  return { compile: (definition, lookup) => compileGraphqlApi(definition, options, supergraphs, lookup) };
}

/** Until the federation planner serves supergraphs, a valid operation on one is answered this. */
const SUPERGRAPH_NOT_SERVED: GraphqlRefusal = { status: 503, body: { errors: [{ message: 'This gateway can not execute operations on a supergraph yet' }] } };

function compileGraphqlApi(definition: ApiDefinition, options: GraphqlEngineOptions, supergraphs: SupergraphCompiler, lookup: ApiLookup | undefined): GraphqlApi {
  const supergraph = isSupergraphApi(definition) ? supergraphs.supergraphOf(definition, lookup) : undefined;
  const gate = supergraph ? new GraphqlGate(definition, supergraph.schema) : graphqlGateFor(definition);
  const playground = playgroundOf(definition, options.playgroundFolder);
  return {
    playground: (relativePath) => playground?.site.serve(relativePath, playground.path),
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session) ?? (supergraph ? SUPERGRAPH_NOT_SERVED : undefined),
    speaksProtocol: (offered) => !supergraph && pickProtocol(offered) !== undefined,
    acceptSubscriptions: (req, socket, head, { session, upstream }) => acceptSubscriptions(req, socket, head, { gate, session, upstream, initTimeoutMs: options.initTimeoutMs }),
  };
}

/** `graphql.playground {enabled, path}`: the page is served below the listen path, after the API's authentication. */
function playgroundOf(definition: ApiDefinition, folder: string): { site: Playground; path: string } | undefined {
  const settings = ((definition.graphql as Record<string, unknown>).playground ?? {}) as { enabled?: boolean; path?: string };
  if (settings.enabled !== true) return undefined;
  const path = `/${(settings.path || '/playground').replace(/^\/+|\/+$/g, '')}`;
  const listen = definition.proxy.listen_path.replace(/\/+$/, '');
  return { site: new Playground(folder, `${listen}${path}`, listen || '/', definition.name), path };
}
