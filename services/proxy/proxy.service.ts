import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import express from 'express';
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import type { ApiDefinition } from '../../contracts/apis/api-definition';
import { APIS_CHANGED, GATEWAY_RELOAD, type ApisChangedEvent } from '../../contracts/apis/events';
import { GATEWAY_EVENT_PREFIX, type GatewayEvent } from '../../contracts/events';
import { buildRouter } from '../../lib/http/surface';
import { trackConnections } from '../../lib/http/drain';
import { close, listen } from '../../lib/http/listen';
import { projectFile } from '../../lib/project-file';
import type { Runtime } from '../../lib/runtime';
import { gatewaySurface, type GatewayView } from '../api/routes/gateway';
import { readAppFiles } from './lib/app-files';
import { DefinitionRegistry } from './lib/definition-registry';
import { Gateway } from './lib/gateway';
import { UpstreamPools } from './pipeline/upstream-pools';

/**
 * The gateway port: a plain node:http server (PERFORMANCE.md says why not express) that routes
 * to compiled APIs and serves the `/gw` management API. Definitions come from the `apis`
 * service (a snapshot whenever that service appears, then `apis.changed` broadcasts) and from
 * GW_APPS_DIR; this node never opens the database.
 */
export function proxyService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  const registry = new DefinitionRegistry();
  const pools = new UpstreamPools();
  let gateway: Gateway;
  let server: Server;
  let storeAvailable = false;
  let syncedAt: number | undefined;
  /** Changes that arrive while a snapshot is in flight, replayed on top of it. */
  let pendingChanges: ApisChangedEvent[] | undefined;

  return {
    name: 'proxy',
    events: {
      [APIS_CHANGED]: {
        handler(ctx: Context<ApisChangedEvent>) {
          pendingChanges?.push(ctx.params);
          registry.apply(ctx.params);
          gateway.rebuild();
        },
      },
      [GATEWAY_RELOAD]: {
        handler() {
          return this.reload();
        },
      },
      '$services.changed': {
        handler() {
          const available = storeReachable(this.broker);
          if (available && !storeAvailable) void this.syncFromStore();
          storeAvailable = available;
        },
      },
    },
    methods: {
      async syncFromStore(): Promise<void> {
        pendingChanges = [];
        try {
          const snapshot = await this.broker.call<ApiDefinition[]>('apis.snapshot');
          registry.replaceStore(snapshot);
          for (const change of pendingChanges) registry.apply(change);
          syncedAt = Date.now();
          gateway.rebuild();
          this.logger.info(`loaded ${snapshot.length} API definitions from the store`);
        } catch (err) {
          this.logger.warn(`could not load API definitions from the store: ${(err as Error).message}`);
        } finally {
          pendingChanges = undefined;
        }
      },
      async loadAppFiles(): Promise<void> {
        const { definitions, problems } = await readAppFiles(config.appsDir);
        for (const problem of problems) this.logger.warn(`skipped API definition file ${problem}`);
        registry.replaceFiles(definitions);
      },
      async reload(): Promise<void> {
        await this.loadAppFiles();
        if (storeReachable(this.broker)) await this.syncFromStore();
        else gateway.rebuild();
      },
    },
    created() {
      const view: GatewayView = {
        loadedApis: () => registry.all(),
        applyLocally: (definition) => {
          registry.upsert(definition);
          gateway.rebuild();
        },
        forgetLocally: (id) => {
          if (registry.remove(id)) gateway.rebuild();
        },
        reload: () => this.reload(),
        reloadGroup: async () => {
          await this.broker.broadcast(GATEWAY_RELOAD, {});
        },
        health: () => ({
          status: 'pass',
          description: 'gw gateway',
          node: this.broker.nodeID,
          apis_served: gateway.servedCount,
          apis_failed: Object.fromEntries(gateway.loadFailures),
          store: syncedAt === undefined ? 'not loaded yet' : `loaded at ${new Date(syncedAt).toISOString()}`,
        }),
      };
      const management = express();
      management.disable('x-powered-by');
      management.set('etag', false);
      management.use('/gw', buildRouter(this.broker, gatewaySurface(config.secret, view)));
      gateway = new Gateway(
        registry,
        {
          pools,
          logger: this.logger,
          pluginsDir: resolve(config.pluginsDir),
          defaultTimeoutMs: config.proxyTimeout * 1000,
          call: <T>(action: string, params: object) => this.broker.call<T, object>(action, params),
          responseHeaders: config.rateLimitResponseHeaders,
          graphqlWsInitTimeoutMs: config.graphqlWsInitTimeout * 1000,
          playgroundFolder: join(config.templatePath ? resolve(config.templatePath) : projectFile('templates'), 'playground'),
          emitEvent: (event, ctx, message) => {
            const { api_id, org_id } = ctx.api.definition;
            const payload: GatewayEvent = { event, time: new Date().toISOString(), api_id, org_id, key: ctx.keyHash ?? '', message, origin: this.broker.nodeID, meta: { path: ctx.path, client_ip: ctx.clientIp } };
            void this.broker.emit(`${GATEWAY_EVENT_PREFIX}${event}`, payload);
          },
          selfOrigin: () => `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${this.port}`,
        },
        management,
      );
      server = createServer({ keepAliveTimeout: 65_000 }, gateway.handle);
      server.on('upgrade', gateway.handleUpgrade);
      this.connections = trackConnections(server);
    },
    async started() {
      await this.loadAppFiles();
      gateway.rebuild();
      this.port = await listen(server, config.gatewayPort, config.host);
      this.logger.info(`gateway listening on http://${config.host}:${this.port}`);
      storeAvailable = storeReachable(this.broker);
      if (storeAvailable) void this.syncFromStore();
    },
    async stopped() {
      await close(server);
      await pools.close();
    },
  };
}

/** Whether some node of the cluster (this one included) runs the `apis` service. */
function storeReachable(broker: ServiceBroker): boolean {
  return (broker.registry as unknown as { hasService(name: string): boolean }).hasService('apis');
}
