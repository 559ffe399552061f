import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { GraphqlApi, GraphqlEngineHandOff } from '../../../contracts/graphql-engine/hand-off';
import { graphqlGateFor } from './graphql-gate';
import { Playground } from '../../../lib/graphql/playground';
import { acceptSubscriptions, pickProtocol } from './websocket-hand-off';
import { compileSupergraphApi } from './federation/supergraph-api';
import type { Supergraph } from './federation/supergraph';

export interface GraphqlEngineOptions {
  /** the folder of the GraphQL playground's page and assets */
  playgroundFolder: string;
  /** how long a GraphQL WebSocket may go without `connection_init`, in ms */
  initTimeoutMs: number;
  /** the composed supergraph of a supergraph API; throws when it can not be composed */
  supergraphOf?: (definition: ApiDefinition) => Supergraph;
}

/** The engine's side of the proxy → graphql-engine hand-off (contracts/graphql-engine/hand-off.ts). */
export function createGraphqlEngine(options: GraphqlEngineOptions): GraphqlEngineHandOff {
  return { compile: (definition) => compileGraphqlApi(definition, options) };
}

function compileGraphqlApi(definition: ApiDefinition, options: GraphqlEngineOptions): GraphqlApi {
  if ((definition.graphql as { execution_mode?: unknown }).execution_mode === 'supergraph') {
    if (!options.supergraphOf) throw new Error('supergraph APIs need federation composition on this node');
    const playground = playgroundOf(definition, options.playgroundFolder);
    return compileSupergraphApi(definition, options.supergraphOf(definition), options.initTimeoutMs, (relativePath) => playground?.site.serve(relativePath, playground.path));
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
