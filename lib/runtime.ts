import { dirname } from 'node:path';
import type { Knex } from 'knex';
import type { GwConfig } from './config/load-config';
import { createHandOffs, type HandOffs } from './hand-offs';
import { createNodeMetrics, type NodeMetrics } from './observability/metrics';
import { OPTIONS } from './config/options';
import { createTracing, type Tracing } from './observability/tracing/tracing';
import { openDatabase } from './store/database';
import type { WorkerHost } from './workers/worker-host';

/** The resolved secrets are part of a running node's configuration. */
export type NodeConfig = Readonly<GwConfig & { secret: string; adminSecret: string }>;

/**
 * What a service factory gets: the node's configuration and a lazily opened database. A node
 * that runs no service with tables (a gateway node) never opens a connection.
 */
export interface Runtime {
  config: NodeConfig;
  database(): Knex;
  /** Whether this node has opened its database (a gateway node never does). */
  hasOpenedDatabase(): boolean;
  /** what the services of this node hand each other in process (proxy → graphql-engine) */
  handOffs: HandOffs;
  /** this node's Prometheus registry and the counters its services feed */
  metrics: NodeMetrics;
  /** set on a gateway worker thread of a node with GW_WORKERS > 1 */
  host?: WorkerHost;
  /** this node's (or worker's) OpenTelemetry tracer; undefined when tracing is off (no endpoint configured) */
  tracing: Tracing | undefined;
  close(): Promise<void>;
}

export function createRuntime(config: NodeConfig, host?: WorkerHost): Runtime {
  let db: Knex | undefined;
  const tracing = createTracing(config);
  return {
    config,
    host,
    database() {
      db ??= openDatabase(config.databaseUrl, { ownFolders: ownFolders(config) });
      return db;
    },
    hasOpenedDatabase: () => db !== undefined,
    handOffs: createHandOffs(),
    metrics: createNodeMetrics(),
    tracing,
    async close() {
      const open = db;
      db = undefined;
      // the spans still queued go out (bounded by the export timeout); a collector that is down does not hold the stop
      await Promise.all([open?.destroy(), tracing?.shutdown().catch(() => undefined)]);
    },
  };
}

/** GW_DATA_DIR, and the folder of the default database (`./data`, GW_DATA_DIR's default). */
function ownFolders(config: NodeConfig): string[] {
  const defaultUrl = OPTIONS.databaseUrl.default;
  const defaultFolder = dirname(defaultUrl.slice('sqlite:'.length));
  return config.databaseUrl === defaultUrl ? [config.dataDir, defaultFolder] : [config.dataDir];
}
