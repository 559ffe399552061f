import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApiLookup, GraphqlApi, GraphqlEngineHandOff } from '../../../contracts/graphql-engine/hand-off';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { SupergraphCompiler } from './federation/supergraph-compiler';
import { graphqlGateFor } from './graphql-gate';
import { Playground } from '../../../lib/graphql/playground';
import { acceptSubscriptions, pickProtocol } from './websocket-hand-off';
import { compileSupergraphApi } from './federation/supergraph-api';

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

function compileGraphqlApi(definition: ApiDefinition, options: GraphqlEngineOptions, supergraphs: SupergraphCompiler, lookup: ApiLookup | undefined): GraphqlApi {
  if (isSupergraphApi(definition)) {
    // composed once per set of subgraphs (the last good composition kept), executed by the federation planner
    const playground = playgroundOf(definition, options.playgroundFolder);
    return compileSupergraphApi(definition, supergraphs.supergraphOf(definition, lookup), options.initTimeoutMs, (relativePath) => playground?.site.serve(relativePath, playground.path));
  }
  const gate = graphqlGateFor(definition);
  const playground = playgroundOf(definition, options.playgroundFolder);
  return {
    playground: (relativePath) => playground?.site.serve(relativePath, playground.path),
    refusal: (query, operationName, session) => gate.refusal(gate.analyse(query, operationName), session),
    speaksProtocol: (offered) => pickProtocol(offered) !== undefined,
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
