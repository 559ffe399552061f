import type { ApisCreateParams } from '../../../contracts/apis/actions';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { compositionHintsOf } from '../../../lib/graphql/federation/federated-definitions';
import { headerValue, secretMatches } from '../../../lib/http/credentials';
import { HttpProblem, type Problem } from '../../../lib/http/problem';
import type { Surface } from '../../../lib/http/surface';
import type { DebugOutcome, DebugRequest } from '../lib/debug-run';
import { createClassicMaybeVersion, refreshBasesOf } from './classic-versions';
import { gatewayCertRoutes } from './gateway-certs';
import { gatewayDebugRoutes } from './gateway-debug';
import { gatewayKeyRoutes } from './gateway-keys';
import { gatewayOrgKeyRoutes } from './gateway-org-keys';
import { gatewayOAuthRoutes } from './gateway-oauth';
import { gatewayOAuthTokenRoutes } from './gateway-oauth-tokens';
import { gatewayOasRoutes } from './gateway-oas';
import { gatewayMcpRoutes } from './gateway-mcps';
import { gatewayOasImportRoutes } from './gateway-oas-import';
import { gatewaySchemaRoutes } from './gateway-schema';
import { gatewayVersionRoutes } from './gateway-versions';

/**
 * What the gateway node running this surface exposes to it: the definitions it has loaded
 * and its own reload. proxy implements it; the surface never reaches into proxy otherwise.
 */
export interface GatewayView {
  loadedApis(): ApiDefinition[];
  /** Serve a definition the store just accepted, before its change event arrives (on every worker of the node). */
  applyLocally(definition: ApiDefinition): Promise<void>;
  /** Stop serving a definition the store just deleted, before its change event arrives (on every worker of the node). */
  forgetLocally(id: string): Promise<void>;
  /** Reload this node's definitions from the store and GW_APPS_DIR (every worker of the node). */
  reload(): Promise<void>;
  /** Ask every gateway node to reload. */
  reloadGroup(): Promise<void>;
  health(): Record<string, unknown>;
  /** Drop the cached responses of an API (on every gateway node). */
  /** false when the cache store failed (the reference gateway then answers 500 "Cache invalidation failed") */
  invalidateCache(apiId: string): Promise<boolean>;
  /** Forget the fetched JSON Web Key Sets of an API, or of every API (on every gateway node). */
  flushKeySets(apiId?: string): Promise<void>;
  /** Run a request through a definition that is not saved or served (POST /gw/debug). */
  debug(definition: ApiDefinition, request: DebugRequest): Promise<DebugOutcome>;
}

const FORBIDDEN = 'Attempted administrative access with invalid or missing key!';

/**
 * The gateway management API (`/gw`) on the gateway port, guarded by `x-gw-authorization`.
 * Writes go to the `apis` service, so the gateway and the dashboard share one store; reads show
 * what this gateway node has loaded (including definition files from GW_APPS_DIR).
 */
export function gatewaySurface(secret: string, view: GatewayView): Surface<'gateway-admin'> {
  return {
    name: 'gateway',
    async authenticate(req) {
      if (!secretMatches(headerValue(req.headers['x-gw-authorization']), secret)) throw new HttpProblem(403, FORBIDDEN);
      return 'gateway-admin';
    },
    renderError: (problem: Problem) => ({ status: 'error', message: withChecks(problem) }),
    routes: [
      // Before /apis/:id and /apis/oas/:id, which would take `oas` and `import` for ids.
      ...gatewayOasImportRoutes(view),
      ...gatewayVersionRoutes(view),
      ...gatewayOasRoutes(view),
      ...gatewayMcpRoutes(view),
      { method: 'get', path: '/apis', handle: async () => ({ body: view.loadedApis() }) },
      {
        method: 'get',
        path: '/apis/:id',
        handle: async ({ params }) => {
          const found = view.loadedApis().find((api) => api.api_id === params.id || api.id === params.id);
          if (!found) throw new HttpProblem(404, 'API not found');
          return { body: found };
        },
      },
      {
        method: 'post',
        path: '/apis',
        handle: async ({ body, query, call }) => {
          const definition = body<ApisCreateParams['api_definition']>();
          const create = () => call('apis.create', { api_definition: definition });
          const created = await createClassicMaybeVersion(view, call, query, create);
          return {
            body: {
              key: created.api_definition.api_id,
              status: 'ok',
              action: 'added',
              ...hintsOf(created.api_definition),
            },
          };
        },
      },
      {
        method: 'put',
        path: '/apis/:id',
        handle: async ({ params, body, call }) => {
          const definition = body<ApisCreateParams['api_definition']>();
          if (definition.api_id !== undefined && definition.api_id !== params.id) {
            throw new HttpProblem(
              400,
              `Request API id '${params.id}' does not match the api_id '${String(definition.api_id)}' in the definition; for updates these must match`,
            );
          }
          const updated = await call('apis.update', { id: params.id, api_definition: definition });
          await view.applyLocally(updated.api_definition);
          return {
            body: {
              key: updated.api_definition.api_id,
              status: 'ok',
              action: 'modified',
              ...hintsOf(updated.api_definition),
            },
          };
        },
      },
      {
        method: 'delete',
        path: '/apis/:id',
        handle: async ({ params, call }) => {
          const removed = await call('apis.remove', { id: params.id });
          await view.forgetLocally(removed.id);
          await refreshBasesOf(view, call, removed.api_id);
          return { body: { key: removed.api_id, status: 'ok', action: 'deleted' } };
        },
      },
      {
        method: 'get',
        path: '/reload/group',
        handle: async () => {
          await view.reloadGroup();
          return { body: { status: 'ok', message: '' } };
        },
      },
      {
        method: 'get',
        path: '/reload',
        handle: async () => {
          await view.reload();
          return { body: { status: 'ok', message: '' } };
        },
      },
      // Before /cache/:id, which would take `jwks` for an API id. Idempotent, as in the reference.
      {
        method: 'delete',
        path: '/cache/jwks',
        handle: async () => {
          await view.flushKeySets();
          return { body: { status: 'ok', message: 'cache invalidated' } };
        },
      },
      {
        method: 'delete',
        path: '/cache/jwks/:id',
        handle: async ({ params }) => {
          await view.flushKeySets(params.id);
          return { body: { status: 'ok', message: 'cache invalidated' } };
        },
      },
      // Idempotent too: an id this node does not serve has nothing cached, which is not an error.
      {
        method: 'delete',
        path: '/cache/:id',
        handle: async ({ params }) => {
          if (!(await view.invalidateCache(params.id))) throw new HttpProblem(500, 'Cache invalidation failed');
          return { body: { status: 'ok', message: 'cache invalidated' } };
        },
      },
      { method: 'get', path: '/health', handle: async () => ({ body: view.health() }) },
      ...gatewaySchemaRoutes,
      ...gatewayDebugRoutes(view),
      ...gatewayKeyRoutes,
      ...gatewayOrgKeyRoutes(view),
      ...gatewayOAuthRoutes,
      ...gatewayOAuthTokenRoutes,
      ...gatewayCertRoutes,
    ],
  };
}

/** One message: the checks that failed (an invalid schema's problems) are part of it. */
function withChecks(problem: Problem): string {
  const missing = (problem.errors ?? []).filter((check) => !problem.message.includes(check));
  return missing.length > 0 ? `${problem.message}: ${missing.join('; ')}` : problem.message;
}

/** A saved supergraph's composition hints go back with the save (`hints`); other APIs' answers are unchanged. */
function hintsOf(definition: ApiDefinition): { hints?: unknown[] } {
  const hints = compositionHintsOf(definition);
  return hints ? { hints } : {};
}
