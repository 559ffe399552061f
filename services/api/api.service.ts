import { createServer, type Server } from 'node:http';
import express from 'express';
import type { ServiceSchema } from 'moleculer';
import { buildRouter } from '../../lib/http/surface';
import { close, listen } from '../../lib/http/listen';
import type { Runtime } from '../../lib/runtime';
import { adminSurface } from './routes/admin';
import { dashboardSurface } from './routes/dashboard';

/** The REST gateway of the dashboard port: `/api` (dashboard REST API) and `/admin`. */
export function apiService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  let server: Server;
  return {
    name: 'api',
    settings: { $noVersionPrefix: true },
    created() {
      const app = express();
      app.disable('x-powered-by');
      app.set('etag', false);
      app.use('/api', buildRouter(this.broker, dashboardSurface));
      app.use('/admin', buildRouter(this.broker, adminSurface(config.adminSecret)));
      app.get('/', (_req, res) => {
        res.json({ name: 'gw dashboard', api: '/api', admin: '/admin' });
      });
      server = createServer(app);
    },
    async started() {
      const port = await listen(server, config.dashboardPort, config.host);
      this.port = port;
      this.logger.info(`dashboard listening on http://${config.host}:${port}`);
    },
    async stopped() {
      await close(server);
    },
  };
}
