import { createServer, type Server } from 'node:http';
import type { Http2Server } from 'node:http2';
import { resolve } from 'node:path';
import express from 'express';
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import { CERTS_CHANGED, type CertsChangedEvent } from '../../contracts/certs/events';
import {
  APIS_CHANGED,
  APIS_REVISION,
  GATEWAY_CACHE_INVALIDATE,
  GATEWAY_JWKS_FLUSH,
  GATEWAY_RELOAD,
  type ApisChangedEvent,
  type ApisRevisionEvent,
  type GatewayCacheInvalidateEvent,
  type GatewayJwksFlushEvent,
} from '../../contracts/apis/events';
import { fetchJson } from '../../lib/jwt/fetch-json';
import { IdentityProviders } from '../../lib/jwt/identity-providers';
import { DEFAULT_KEY_SET_LIMITS } from '../../lib/jwt/key-sets';
import { GATEWAY_EVENT_PREFIX, type GatewayEvent } from '../../contracts/events';
import { callAction, callerOf } from '../../lib/bus/call';
import { hotCaller } from '../../lib/bus/hot-call';
import { buildRouter } from '../../lib/http/surface';
import { trackConnections } from '../../lib/http/drain';
import { close, listenAsNode } from '../../lib/http/listen';
import type { Runtime } from '../../lib/runtime';
import { gatewaySurface, type GatewayView } from './management/gateway';
import { runDebug } from './lib/debug-run';
import { readAppFiles } from './lib/app-files';
import { metricsEndpoint } from './lib/metrics-endpoint';
import { endSessionUpstream } from './pipeline/mcp/end-session';
import { McpSessionTable } from './pipeline/mcp/session-table';
import { seriesOf } from '../../lib/observability/metrics';
import { DefinitionRegistry } from './lib/definition-registry';
import { Gateway } from './lib/gateway';
import { StoreSync, type LocalChange } from './lib/store-sync';
import { OrgSessionTable } from './lib/org-session-table';
import {
  ORG_SESSIONS_CHANGED,
  ORG_SESSIONS_REVISION,
  type OrgSessionsChangedEvent,
  type OrgSessionsRevisionEvent,
} from '../../contracts/keys/org-sessions';
import { SiblingWorkers } from './lib/sibling-workers';
import { CertificateCache } from './lib/certificate-cache';
import { createTlsPort, loadStoredTlsCredentials, readTlsFiles, type TlsPortServer } from './lib/tls-port';
import { acceptPriorKnowledge, createH2cServer } from './lib/http2-port';
import { UpstreamPools } from './pipeline/upstream-pools';
import { MemoryResponseCache, RedisResponseCache, type ResponseCache } from './pipeline/cache/response-cache';
import { createRecorder, type AnalyticsRecorder } from './analytics/create-recorder';
import { accessLogLine, type AccessLogField } from './lib/access-log';

/**
 * The gateway port: a plain node:http server (docs/performance.md#proxy-rest says why not
 * express) that routes to compiled APIs and serves the `/gw` management API. With GW_GATEWAY_H2C
 * it hands connections that open with the HTTP/2 preface to a node:http2 server; the HTTPS port
 * speaks HTTP/2 too unless GW_GATEWAY_HTTP2 is off. Definitions come
 * from the `apis` service (a snapshot, then `apis.changed` broadcasts, re-synced on any revision
 * gap: see lib/store-sync.ts) and from GW_APPS_DIR; this node never opens the database.
 */
export function proxyService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  const registry = new DefinitionRegistry();
  let pools: UpstreamPools;
  let gateway: Gateway;
  let server: Server;
  /** the HTTPS port (GW_GATEWAY_TLS_PORT), when configured */
  let tlsServer: TlsPortServer | undefined;
  /** cleartext HTTP/2 on the plain port (GW_GATEWAY_H2C), when on */
  let h2cServer: Http2Server | undefined;
  let certificates: CertificateCache;
  let sync: StoreSync;
  /** the organisation sessions, held only when they are enforced (GW_ENFORCE_ORG_QUOTAS) */
  let orgSessions: OrgSessionTable | undefined;
  let checkTimer: NodeJS.Timeout | undefined;
  let analytics: AnalyticsRecorder | undefined;
  let responseCache: ResponseCache;
  /** the other gateway workers of this node, when it has several (app/workers/) */
  let siblings: SiblingWorkers | undefined;
  /** the MCP sessions keys hold, outside the compiled APIs so a reload that keeps an API keeps them */
  let mcpSessions: McpSessionTable | undefined;
  const identityProviders = new IdentityProviders(fetchJson, {
    ...DEFAULT_KEY_SET_LIMITS,
    defaultTtlMs: config.jwksCacheTimeout * 1000,
    refetchIntervalMs: config.jwksRefetchInterval * 1000,
  });

  return {
    name: 'proxy',
    events: {
      [APIS_CHANGED]: {
        handler(ctx: Context<ApisChangedEvent>) {
          sync.onChange(ctx.params);
        },
      },
      [APIS_REVISION]: {
        handler(ctx: Context<ApisRevisionEvent>) {
          if (typeof ctx.params?.revision === 'number') sync.onAnnounced(ctx.params.revision);
        },
      },
      [ORG_SESSIONS_CHANGED]: {
        handler(ctx: Context<OrgSessionsChangedEvent>) {
          orgSessions?.onChange(ctx.params);
        },
      },
      [ORG_SESSIONS_REVISION]: {
        handler(ctx: Context<OrgSessionsRevisionEvent>) {
          if (typeof ctx.params?.revision === 'number') orgSessions?.onAnnounced(ctx.params.revision);
        },
      },
      [GATEWAY_RELOAD]: {
        handler() {
          return this.reload();
        },
      },
      [GATEWAY_CACHE_INVALIDATE]: {
        handler(ctx: Context<GatewayCacheInvalidateEvent>) {
          // a failure is logged by the cache and ends there
          if (typeof ctx.params?.api_id === 'string') void responseCache.invalidate(ctx.params.api_id);
        },
      },
      [GATEWAY_JWKS_FLUSH]: {
        handler(ctx: Context<GatewayJwksFlushEvent>) {
          identityProviders.flush(typeof ctx.params?.api_id === 'string' ? ctx.params.api_id : undefined);
        },
      },
      [CERTS_CHANGED]: {
        handler(ctx: Context<CertsChangedEvent>) {
          if (typeof ctx.params?.id === 'string') certificates.forget(ctx.params.id);
        },
      },
      // A store node (re)appeared: compare revisions, it may hold changes this node missed.
      '$services.changed': {
        handler() {
          if (storeReachable(this.broker)) void sync.check();
          if (keyStoreReachable(this.broker)) void orgSessions?.check();
          // The analytics service appeared or went: build records again, or stop building them.
          analytics?.refreshAvailability();
        },
      },
      // A node that goes away takes its services without a $services.changed.
      '$node.disconnected': {
        handler() {
          analytics?.refreshAvailability();
        },
      },
    },
    methods: {
      async loadAppFiles(): Promise<void> {
        // OAS files are compiled by the apis service; at start it may still be coming up.
        const compileOas = async (text: string) => {
          await this.broker.waitForServices('apis', 10_000);
          return (await callAction(this.broker, 'apis.compileOas', { document_text: text })).api_definition;
        };
        const { definitions, problems } = await readAppFiles(config.appsDir, compileOas);
        for (const problem of problems) this.logger.warn(`skipped API definition file ${problem}`);
        registry.replaceFiles(definitions);
      },
      async reload(): Promise<void> {
        await this.loadAppFiles();
        if (storeReachable(this.broker)) await sync.sync();
        gateway.rebuild();
      },
    },
    created() {
      // First: a certificate file gw can not use stops the start before any service has started.
      const tlsFiles = config.gatewayTlsPort !== undefined ? readTlsFiles(config) : undefined;
      pools = new UpstreamPools({ warn: (message) => this.logger.warn(message) });
      certificates = new CertificateCache((ids, orgId) =>
        callAction(this.broker, 'certs.material', { ids, org_id: orgId }),
      );
      sync = new StoreSync({
        snapshot: () => callAction(this.broker, 'apis.snapshot'),
        currentRevision: async () => (await callAction(this.broker, 'apis.currentRevision')).revision,
        replaceStore: (definitions) => registry.replaceStore(definitions),
        apply: (change) => registry.apply(change),
        changed: () => gateway.rebuild(),
        logger: this.logger,
      });
      if (config.enforceOrgQuotas)
        orgSessions = new OrgSessionTable({
          snapshot: () => callAction(this.broker, 'keys.orgSessions.snapshot'),
          currentRevision: async () => (await callAction(this.broker, 'keys.orgSessions.currentRevision')).revision,
          logger: this.logger,
        });
      responseCache = config.redisUrl
        ? new RedisResponseCache(config.redisUrl, this.logger)
        : new MemoryResponseCache(config.responseCacheBytes);
      // A write through /gw/apis answers once every worker of this node serves it (app/workers/).
      const applyEverywhere = async (change: LocalChange) => {
        void sync.applyLocal(change);
        await siblings?.applied(change);
      };
      const view: GatewayView = {
        loadedApis: () => registry.all(),
        invalidateCache: async (apiId) => {
          const dropped = await responseCache.invalidate(apiId);
          // Memory caches are per node: the other gateway nodes drop theirs too.
          if (!config.redisUrl)
            await this.broker.broadcast(GATEWAY_CACHE_INVALIDATE, {
              api_id: apiId,
            } satisfies GatewayCacheInvalidateEvent);
          return dropped;
        },
        flushKeySets: async (apiId) => {
          identityProviders.flush(apiId);
          await this.broker.broadcast(
            GATEWAY_JWKS_FLUSH,
            (apiId === undefined ? {} : { api_id: apiId }) satisfies GatewayJwksFlushEvent,
          );
        },
        debug: (definition, request) => runDebug(gateway, definition, request),
        applyLocally: (definition) => applyEverywhere({ action: 'updated', definition }),
        forgetLocally: (id) => applyEverywhere({ action: 'deleted', id }),
        reload: async () => {
          await this.reload();
          await siblings?.reloaded();
        },
        reloadGroup: async () => {
          await this.broker.broadcast(GATEWAY_RELOAD, {});
        },
        health: () => ({
          status: 'pass',
          description: 'gw gateway',
          node: this.broker.nodeID,
          apis_served: gateway.servedCount,
          apis_failed: Object.fromEntries(gateway.loadFailures),
          apis_notices: gateway.notices,
          ...streamsHealth(runtime),
          ...(siblings?.health() ?? {}),
          store:
            sync.syncedAt === undefined
              ? 'not loaded yet'
              : `loaded at ${new Date(sync.syncedAt).toISOString()} (revision ${sync.revision})`,
        }),
      };
      const management = express();
      management.disable('x-powered-by');
      management.set('etag', false);
      management.use('/gw', buildRouter(this.broker, gatewaySurface(config.secret, view), runtime.tracing));
      // GW_ACCESS_LOGS: the fields of a line (all of them when the template names none)
      const accessLogTemplate = config.accessLogs ? new Set(config.accessLogsTemplate as AccessLogField[]) : undefined;
      mcpSessions = new McpSessionTable(
        { maxPerKey: config.mcpMaxSessionsPerKey, idleMs: config.mcpSessionIdleTimeout * 1000 },
        endSessionUpstream,
      );
      gateway = new Gateway(
        registry,
        {
          pools,
          enableHttp2: config.proxyEnableHttp2,
          logger: this.logger,
          pluginsDir: resolve(config.pluginsDir),
          pluginPackages: config.pluginPackages,
          defaultTimeoutMs: config.proxyTimeout * 1000,
          maxResponseBody: config.maxResponseBodyBuffer,
          mcp: {
            maxMessageBytes: config.mcpMaxMessageBytes,
            toolCallTimeoutMs: config.mcpToolCallTimeout * 1000,
            sessions: mcpSessions,
          },
          virtualAnswers: {
            maxHeaders: config.virtualMaxResponseHeaders,
            maxHeaderBytes: config.virtualMaxResponseHeaderBytes,
            maxBodyBytes: config.virtualMaxResponseBodyBytes,
          },
          call: callerOf(this.broker),
          check: hotCaller(callerOf(this.broker), runtime.handOffs),
          responseHeaders: config.rateLimitResponseHeaders,
          orgSessions,
          graphqlEngine: () => runtime.handOffs.get('graphql-engine'),
          streams: () => runtime.handOffs.get('streams'),
          emitEvent: (event, ctx, message, details) => {
            const { api_id, org_id } = ctx.api.definition;
            const payload: GatewayEvent = {
              event,
              time: new Date().toISOString(),
              api_id,
              org_id,
              key: details?.key ?? ctx.keyHash ?? '',
              message,
              origin: this.broker.nodeID,
              meta: { path: ctx.path, client_ip: ctx.clientIp, ...details?.meta },
              ...(ctx.trace ? { trace_headers: ctx.trace.propagationHeaders() } : {}),
            };
            void this.broker.emit(`${GATEWAY_EVENT_PREFIX}${event}`, payload);
          },
          publishEvent: (event, definition, message, meta) => {
            const payload: GatewayEvent = {
              event,
              time: new Date().toISOString(),
              api_id: definition.api_id,
              org_id: definition.org_id,
              key: '',
              message,
              origin: this.broker.nodeID,
              meta,
            };
            void this.broker.emit(`${GATEWAY_EVENT_PREFIX}${event}`, payload);
          },
          certificates,
          identityProviders,
          responseCache,
          templatesDir: resolve(config.templatePath),
          metrics: runtime.metrics.gateway,
          tracing: runtime.tracing,
          serveMetrics: config.gatewayMetrics
            ? metricsEndpoint(runtime.metrics, config.metricsToken ?? config.secret, this.logger, () =>
                siblings ? siblings.series() : Promise.resolve([]),
              )
            : undefined,
          // the recorder starts later (started()): looked up per request
          requests: {
            started: (ctx) => analytics?.started(ctx),
            finished: (ctx) => {
              analytics?.finished(ctx);
              if (accessLogTemplate)
                this.logger.info(accessLogLine(ctx, accessLogTemplate.size ? accessLogTemplate : undefined));
            },
          },
          selfOrigin: () => `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${this.port}`,
        },
        management,
      );
      server = createServer({ keepAliveTimeout: 65_000 }, gateway.handle);
      server.on('upgrade', gateway.handleUpgrade);
      const drainable = [trackConnections(server)];
      if (config.gatewayH2c) {
        h2cServer = createH2cServer(config, gateway.handle as never);
        drainable.push(trackConnections(h2cServer));
        // after trackConnections(server): it only sees the HTTP/1.1 connections
        acceptPriorKnowledge(server, h2cServer);
      }
      if (config.gatewayTlsPort !== undefined) {
        tlsServer = createTlsPort(gateway.handle, gateway.handleUpgrade, config.gatewayHttp2 ? config : undefined);
        if (tlsFiles) tlsServer.setSecureContext(tlsFiles);
        drainable.push(trackConnections(tlsServer));
      }
      this.connections = drainable;
    },
    async started() {
      if (runtime.host) {
        siblings = new SiblingWorkers(runtime.host, {
          reload: () => this.reload(),
          apply: (change) => void sync.applyLocal(change),
          series: () => seriesOf(runtime.metrics),
        });
      }
      analytics = await createRecorder(config, this.broker, this.logger);
      await this.loadAppFiles();
      gateway.rebuild();
      // the workers of a node share its gateway ports (app/workers/)
      const shared = runtime.host !== undefined;
      this.port = await listenAsNode(server, config.gatewayPort, config.host, 'gatewayPort', shared);
      this.logger.info(`gateway listening on http://${config.host}:${this.port}`);
      if (tlsServer) {
        if (config.gatewayTlsCertId !== undefined) {
          await this.broker.waitForServices('certs', 30_000);
          const fromStore = async (id: string) => (await certificates.get([id], undefined)).get(id);
          tlsServer.setSecureContext(await loadStoredTlsCredentials(config.gatewayTlsCertId, fromStore));
        }
        this.tlsPort = await listenAsNode(tlsServer, config.gatewayTlsPort!, config.host, 'gatewayTlsPort', shared);
        this.logger.info(`gateway listening on https://${config.host}:${this.tlsPort}`);
      }
      if (storeReachable(this.broker)) void sync.sync();
      if (keyStoreReachable(this.broker)) void orgSessions?.load();
      // A backstop for a node that missed broadcasts and saw no event at all (e.g. it was paused).
      checkTimer = setInterval(() => {
        if (storeReachable(this.broker)) void sync.check();
        if (keyStoreReachable(this.broker)) void orgSessions?.check();
      }, config.storeCheckInterval * 1000);
      checkTimer.unref();
    },
    async stopped() {
      siblings?.close();
      clearInterval(checkTimer);
      sync.stop();
      orgSessions?.stop();
      await close(server);
      h2cServer?.close();
      if (tlsServer) await close(tlsServer);
      gateway.stop();
      mcpSessions?.stop();
      await pools.close();
      await responseCache.close();
      await analytics?.stop();
    },
  };
}

/** The counters of the streams this node runs, by API id (none when it runs no streams). */
function streamsHealth(runtime: Runtime): Record<string, unknown> {
  const streams = runtime.handOffs.get('streams');
  return streams ? { streams: streams.stats() } : {};
}

/** Whether some node of the cluster (this one included) runs the `apis` service. */
function storeReachable(broker: ServiceBroker): boolean {
  return (broker.registry as unknown as { hasService(name: string): boolean }).hasService('apis');
}

/** Whether some node of the cluster (this one included) runs the `keys` service. */
function keyStoreReachable(broker: ServiceBroker): boolean {
  return (broker.registry as unknown as { hasService(name: string): boolean }).hasService('keys');
}
