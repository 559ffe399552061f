import type { Request } from 'express';
import type { ApisCreateParams, ApisSyncGraphqlSchemaParams } from '../../../contracts/apis/actions';
import type { Caller } from '../../../contracts/users/actions';
import { compositionHintsOf } from '../../../lib/graphql/federation/federated-definitions';
import { envelopeError, ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route, RouteContext, Surface } from '../../../lib/http/surface';
import { headerValue } from '../../../lib/http/credentials';
import { pageFromQuery } from '../lib/page-param';
import { allows } from '../../../lib/permissions';
import { hashSecret } from '../../../lib/secret-hash';
import { dashboardAnalyticsRoutes } from './dashboard-analytics';
import { dashboardCertRoutes } from './dashboard-certs';
import { dashboardDataGraphRoutes } from './dashboard-data-graphs';
import { dashboardHookRoutes } from './dashboard-hooks';
import { dashboardKeyRoutes } from './dashboard-keys';
import { dashboardOAuthRoutes } from './dashboard-oauth';
import { dashboardOasRoutes } from './dashboard-oas';
import { dashboardMcpRoutes } from './dashboard-mcps';
import { dashboardStreamsRoutes } from './dashboard-streams';
import { dashboardOrgRoutes } from './dashboard-org';
import { dashboardOrgSessionRoutes } from './dashboard-org-session';
import { dashboardUserRoutes } from './dashboard-users';
import type { SessionCookie } from '../lib/session-cookie';
import { refuseCrossSiteSession, refuseCrossSiteWrite } from '../../../lib/http/cross-site';

/** How the dashboard recognises a browser: its login cookie and, when configured, its public origin. */
export interface DashboardBrowser {
  cookie: SessionCookie;
  /** GW_DASHBOARD_URL: the only origin whose pages may change things with the cookie */
  trustedOrigin: string | undefined;
}

/**
 * The dashboard REST API (`/api`, docs/apis.md#three-management-surfaces). Callers send their
 * access key in `Authorization` (a browser signed in to the web UI sends its login cookie
 * instead); every action is scoped to the caller's organisation. The session routes (`/me`,
 * `/login`, `/logout`) need to know the cookie and where the gateway listens, and are added by
 * the service.
 */
export function dashboardSurface(browser: DashboardBrowser): Surface<Caller> {
  return {
    name: 'dashboard',
    screen(req, route) {
      // Signing in or out sets or ends the cookie; any other route is at risk only when the cookie is the credential.
      if (route.open) refuseCrossSiteSession(req, browser.trustedOrigin);
      else if (presentedCredential(req, browser.cookie)?.session !== undefined) {
        refuseCrossSiteWrite(req, { trustedOrigin: browser.trustedOrigin, anyBodyType: route.anyBodyType });
      }
    },
    async authenticate(req, call) {
      const presented = presentedCredential(req, browser.cookie);
      // Only the hash goes on the bus (NATS in distributed mode); the users service looks it up by hash.
      if (presented?.accessKey) return call('users.authenticate', { access_key_hash: hashSecret(presented.accessKey) });
      if (presented?.session) return call('users.authenticate', { session: presented.session });
      throw new HttpProblem(401, 'Authorization header missing: send your dashboard access key');
    },
    authorize(caller, route, params) {
      if (route.anyCaller) return;
      if (route.ownUserParam !== undefined && params[route.ownUserParam] === caller.user_id) return;
      if (!route.permission)
        throw new HttpProblem(500, `route ${route.method.toUpperCase()} ${route.path} declares no permission`);
      requirePermission(caller, route.permission);
    },
    renderError: envelopeError,
    routes: dashboardRoutes,
  };
}

/** The access key in `Authorization` wins over the login cookie. */
function presentedCredential(
  req: Request,
  cookie: SessionCookie,
): { accessKey?: string; session?: string } | undefined {
  const accessKey = headerValue(req.headers.authorization)?.replace(/^Bearer\s+/i, '');
  if (accessKey) return { accessKey };
  const session = cookie.read(req.headers.cookie);
  return session ? { session } : undefined;
}

const dashboardRoutes: Array<Route<Caller>> = [
  ...dashboardOasRoutes,
  ...dashboardMcpRoutes,
  ...dashboardStreamsRoutes,
  {
    method: 'get',
    path: '/apis/search',
    permission: { name: 'apis', level: 'read' },
    handle: async ({ caller, query, call }) => ({ body: await listApis(call, caller, query) }),
  },
  {
    method: 'get',
    path: '/apis',
    permission: { name: 'apis', level: 'read' },
    handle: async ({ caller, query, call }) => ({ body: await listApis(call, caller, query) }),
  },
  {
    method: 'get',
    path: '/apis/:id',
    permission: { name: 'apis', level: 'read' },
    handle: async ({ caller, params, call }) => ({
      body: await call('apis.get', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'post',
    path: '/apis',
    permission: { name: 'apis', level: 'write' },
    handle: async ({ caller, body, call }) => {
      const { api_definition, hook_references } = body<ApisCreateParams>();
      // Ids are generated on the dashboard, whatever the client sent.
      const definition = isObject(api_definition) ? withoutIds(api_definition) : api_definition;
      const created = await call('apis.create', {
        org_scope: caller.org_id,
        api_definition: definition,
        hook_references,
      });
      return {
        body: ok('API created', created.api_definition.id, {
          ID: created.api_definition.api_id,
          ...hintsOf(created.api_definition),
        }),
      };
    },
  },
  {
    method: 'put',
    path: '/apis/:id',
    permission: { name: 'apis', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      const { api_definition, hook_references } = body<ApisCreateParams>();
      const updated = await call('apis.update', {
        id: params.id,
        org_scope: caller.org_id,
        api_definition,
        hook_references,
      });
      return { body: ok('Api updated', null, hintsOf(updated.api_definition)) };
    },
  },
  {
    method: 'delete',
    path: '/apis/:id',
    permission: { name: 'apis', level: 'write' },
    handle: async ({ caller, params, call }) => {
      await call('apis.remove', { id: params.id, org_scope: caller.org_id });
      return { body: ok('API deleted') };
    },
  },
  {
    method: 'post',
    path: '/apis/:id/graphql/schema/sync',
    permission: { name: 'apis', level: 'write' },
    handle: async ({ caller, params, body, call }) => {
      const { introspection_headers, persist_headers } = body<ApisSyncGraphqlSchemaParams>();
      const synced = await call('apis.syncGraphqlSchema', {
        id: params.id,
        org_scope: caller.org_id,
        introspection_headers,
        persist_headers,
      });
      const graphql = synced.api_definition.graphql as { last_schema_update?: string };
      return { body: ok('Schema synchronised', { last_schema_update: graphql.last_schema_update }) };
    },
  },
  ...dashboardOAuthRoutes,
  ...dashboardKeyRoutes,
  ...dashboardUserRoutes,
  ...dashboardOrgRoutes,
  ...dashboardOrgSessionRoutes,
  ...dashboardHookRoutes,
  ...dashboardCertRoutes,
  ...dashboardDataGraphRoutes,
  ...dashboardAnalyticsRoutes,
];

/** Throws a 403 Problem unless the caller holds the permission (the dashboard REST and GraphQL APIs). */
export function requirePermission(caller: Caller, needed: NonNullable<Route<Caller>['permission']>): void {
  const granted = needed.level === 'admin' ? caller.is_admin : allows(caller, needed.name, needed.level);
  if (!granted) {
    throw new HttpProblem(
      403,
      needed.level === 'admin'
        ? 'Access denied: only administrators may do this'
        : `Access denied: this needs the '${needed.name}' permission at level '${needed.level}'`,
    );
  }
}

function listApis(call: RouteContext<Caller>['call'], caller: Caller, query: Record<string, unknown>) {
  const q = typeof query.q === 'string' && query.q !== '' ? query.q : undefined;
  return call('apis.list', { org_scope: caller.org_id, q, page: pageFromQuery(query) });
}

function isObject<T>(value: T): value is T & object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutIds<T extends object>(definition: T): T {
  const { id: _id, api_id: _apiId, ...rest } = definition as T & { id?: unknown; api_id?: unknown };
  return rest as T;
}

/** A saved supergraph's composition hints go back with the save (`Hints`); other APIs' answers are unchanged. */
function hintsOf(definition: Parameters<typeof compositionHintsOf>[0]): { Hints?: unknown[] } {
  const hints = compositionHintsOf(definition);
  return hints ? { Hints: hints } : {};
}
