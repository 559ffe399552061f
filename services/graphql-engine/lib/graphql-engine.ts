import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { GraphqlApi, GraphqlCompileContext, GraphqlEngineHandOff } from '../../../contracts/graphql-engine/hand-off';
import { graphqlGateFor } from './graphql-gate';
import { Playground } from '../../../lib/graphql/playground';
import { acceptSubscriptions, pickProtocol } from './websocket-hand-off';
import { compileSupergraphApi } from './federation/supergraph-api';
import type { Supergraph } from './federation/supergraph';
import { supergraphOfDefinition } from './federation/supergraph-of-definition';

export interface GraphqlEngineOptions {
  /** the folder of the GraphQL playground's page and assets */
  playgroundFolder: string;
  /** how long a GraphQL WebSocket may go without `connection_init`, in ms */
  initTimeoutMs: number;
  /** the composed supergraph of a supergraph API; throws when it can not be composed (default: compose its stored subgraphs) */
  supergraphOf?: (definition: ApiDefinition, context: GraphqlCompileContext | undefined) => Supergraph;
}

/** The engine's side of the proxy → graphql-engine hand-off (contracts/graphql-engine/hand-off.ts). */
export function createGraphqlEngine(options: GraphqlEngineOptions): GraphqlEngineHandOff {
  return { compile: (definition, context) => compileGraphqlApi(definition, options, context) };
}

function compileGraphqlApi(definition: ApiDefinition, options: GraphqlEngineOptions, context: GraphqlCompileContext | undefined): GraphqlApi {
  if ((definition.graphql as { execution_mode?: unknown }).execution_mode === 'supergraph') {
    const supergraph = (options.supergraphOf ?? supergraphOfDefinition)(definition, context);
    const playground = playgroundOf(definition, options.playgroundFolder);
    return compileSupergraphApi(definition, supergraph, options.initTimeoutMs, (relativePath) => playground?.site.serve(relativePath, playground.path));
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
