import { createServer, type Server } from 'node:http';
import express from 'express';
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import {
  ORGS_SETTINGS_CHANGED,
  ORGS_SETTINGS_REVISION,
  type OrgsSettingsChangedEvent,
  type OrgsSettingsRevisionEvent,
} from '../../contracts/orgs/events';
import { callAction } from '../../lib/bus/call';
import { envelopeError } from '../../lib/http/envelope';
import { jsonFallbacks } from '../../lib/http/fallback';
import { toProblem } from '../../lib/http/problem';
import { buildRouter } from '../../lib/http/surface';
import { trackConnections } from '../../lib/http/drain';
import { close, listenAsNode } from '../../lib/http/listen';
import type { Runtime } from '../../lib/runtime';
import { metricsRoute } from './lib/metrics-route';
import { OrgPolicyCache } from './lib/open-policy/policy-cache';
import { OpenPolicyGate } from './lib/open-policy/policy-gate';
import { routePermissions } from './lib/open-policy/route-permissions';
import { webUiFolder, webUiRouter } from './lib/web-ui';
import { playgroundFolder } from '../../lib/graphql/playground';
import { dashboardGraphqlRouter } from './graphql/graphql-http';
import { adminSurface } from './routes/admin';
import { dashboardSurface } from './routes/dashboard';
import { dashboardSessionRoutes } from './routes/dashboard-session';
import { sessionCookie } from './lib/session-cookie';

/** The REST gateway of the dashboard port: `/api` (dashboard REST API) and `/admin`. */
export function apiService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  let server: Server;
  let policies: OrgPolicyCache;
  let checkTimer: NodeJS.Timeout | undefined;
  return {
    name: 'api',
    settings: { $noVersionPrefix: true },
    events: {
      [ORGS_SETTINGS_CHANGED]: {
        handler(ctx: Context<OrgsSettingsChangedEvent>) {
          policies.changed(ctx.params.org_id, ctx.params.revision);
        },
      },
      [ORGS_SETTINGS_REVISION]: {
        handler(ctx: Context<OrgsSettingsRevisionEvent>) {
          if (typeof ctx.params?.revision === 'number') policies.announced(ctx.params.revision);
        },
      },
      '$services.changed': {
        handler() {
          if (orgsReachable(this.broker)) void policies.check();
        },
      },
    },
    created() {
      const app = express();
      app.disable('x-powered-by');
      app.set('etag', false);
      policies = new OrgPolicyCache(
        (orgId) => callAction(this.broker, 'orgs.openPolicy.get', { org_id: orgId }),
        async () => (await callAction(this.broker, 'orgs.openPolicy.revision', {})).revision,
        this.logger,
      );
      // This node's own gateway's port when it runs one (GW_GATEWAY_PORT 0 picks a free one).
      const gatewayPort = () =>
        (this.broker.getLocalService('proxy') as unknown as { port?: number } | undefined)?.port ?? config.gatewayPort;
      const browser = { cookie: sessionCookie(config.dashboardUrl), trustedOrigin: config.dashboardUrl };
      const dashboard = dashboardSurface(browser);
      const routes = [
        ...dashboard.routes,
        ...dashboardSessionRoutes({ port: gatewayPort, host: config.host }, browser.cookie),
      ];
      const gate = new OpenPolicyGate(
        policies,
        routePermissions('/api', routes),
        { debug: config.openPolicyDebug },
        this.logger,
      );
      app.use(
        '/api',
        buildRouter(
          this.broker,
          { ...dashboard, routes, admit: (caller, admission) => gate.admit(caller, admission) },
          runtime.tracing,
        ),
      );
      app.use('/admin', buildRouter(this.broker, adminSurface(config.adminSecret), runtime.tracing));
      app.use(dashboardGraphqlRouter(this.broker, playgroundFolder(config.templatePath), dashboard));
      // The single sign-on landing: a nonce from POST /api/sso becomes a login session, once.
      app.get('/tap', async (req, res) => {
        try {
          const login = await callAction(this.broker, 'users.sso.consume', { nonce: String(req.query.nonce ?? '') });
          res.append('set-cookie', browser.cookie.set(login)).redirect(302, '/');
        } catch (err) {
          const problem = toProblem(err, (unexpected) => this.logger.error('single sign-on failed', unexpected));
          res.status(problem.status).json(envelopeError(problem));
        }
      });
      // Prometheus scrapers rarely send secrets: GW_DASHBOARD_METRICS turns this off instead.
      if (config.dashboardMetrics)
        app.get('/metrics', metricsRoute(runtime.metrics, config.metricsToken ?? config.adminSecret));
      app.use(webUiRouter(webUiFolder(config.dashboardUiPath)));
      app.get('/', (_req, res) => {
        res.json({ name: 'gw dashboard', api: '/api', admin: '/admin' });
      });
      app.use(
        ...jsonFallbacks(envelopeError, (err) => this.logger.error('unexpected error on the dashboard port', err)),
      );
      server = createServer(app);
      this.connections = trackConnections(server);
    },
    async started() {
      const port = await listenAsNode(server, config.dashboardPort, config.host, 'dashboardPort');
      this.port = port;
      this.logger.info(`dashboard listening on http://${config.host}:${port}`);
      // A backstop for a node that missed broadcasts of changed policy rules.
      checkTimer = setInterval(() => {
        if (orgsReachable(this.broker)) void policies.check();
      }, config.storeCheckInterval * 1000);
      checkTimer.unref();
    },
    async stopped() {
      clearInterval(checkTimer);
      await close(server);
    },
  };
}

function orgsReachable(broker: ServiceBroker): boolean {
  return (broker.registry as unknown as { hasService(name: string): boolean }).hasService('orgs');
}
