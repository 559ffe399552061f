import { ServiceBroker, type Service, type ServiceSchema } from 'moleculer';
import { brokerOptions } from '../moleculer.config';
import { SERVICE_FACTORIES, SERVICES_WITH_TABLES, resolveServiceNames } from '../services';
import { checkTransporter } from '../lib/bus/transporter-check';
import type { GwConfig } from '../lib/config/load-config';
import { resolveSecrets, type ResolvedSecrets } from '../lib/config/secrets';
import type { Drainable } from '../lib/http/drain';
import { checkPortFree } from '../lib/http/listen';
import { installOutboundPolicy, outboundPolicy } from '../lib/net/outbound-policy';
import { addConfiguredPorts } from '../lib/net/own-ports';
import { checkDatabase } from '../lib/store/database-failure';
import { createRuntime, type NodeConfig, type Runtime } from '../lib/runtime';
import { asStartupError } from '../lib/startup-error';
import { HostTransporter } from '../lib/bus/host-transporter';
import type { WorkerHost } from '../lib/workers/worker-host';
import { startHost } from './workers/host-node';
import type { WorkerSupervisor } from './workers/supervisor';
import { workerCount } from './workers/worker-count';

export interface RunningNode {
  broker: ServiceBroker;
  runtime: Runtime;
  config: NodeConfig;
  secrets: ResolvedSecrets;
  /** names of the services this node runs (on a node with workers: on any of its threads) */
  services: string[];
  /** the bound port of a service that listens (`proxy`, `api`), once started */
  portOf(service: 'proxy' | 'api'): number | undefined;
  /** the gateway workers of a node with GW_WORKERS > 1 (app/workers/) */
  workers?: WorkerSupervisor;
  stop(): Promise<void>;
}

/**
 * Starts one gw node: resolves its secrets, creates the broker and the services GW_SERVICES
 * names, and starts them. `npm start` and the integration tests both come through here. A node
 * with GW_WORKERS > 1 serves its gateway ports from that many worker threads (app/workers/).
 */
export async function startNode(config: Readonly<GwConfig>): Promise<RunningNode> {
  const services = resolveServiceNames(config.services);
  const workers = services.includes('proxy') ? workerCount(config.workers, services) : 1;
  const { nodeConfig, secrets } = withSecrets(config, services);
  if (workers > 1) return startHost(nodeConfig, secrets, services, workers);
  return startServices(nodeConfig, services, { secrets });
}

/** What places a node's services somewhere other than a plain single-threaded node. */
export interface Placement {
  /** set on a gateway worker thread */
  host?: WorkerHost;
  /** the threads of one host talk over this channel when no GW_TRANSPORTER is set (lib/bus/host-transporter.ts) */
  hostBus?: string;
  /** how the secrets were found (the banner says which were generated); a worker's come in its configuration */
  secrets?: ResolvedSecrets;
}

/**
 * A node's configuration with its secrets: proxy serves the /gw API (x-gw-authorization), api
 * the /admin API (admin-auth); keys (HMAC secrets) and certs (private keys) seal what they
 * store with a key derived from the gateway secret.
 */
function withSecrets(
  config: Readonly<GwConfig>,
  services: string[],
): { nodeConfig: NodeConfig; secrets: ResolvedSecrets } {
  const secrets = resolveSecrets(config, {
    secret: ['proxy', 'keys', 'certs'].some((name) => services.includes(name)),
    adminSecret: services.includes('api'),
  });
  return {
    nodeConfig: Object.freeze({ ...config, secret: secrets.secret, adminSecret: secrets.adminSecret }),
    secrets,
  };
}

/** Starts `services` on a broker of this thread. */
export async function startServices(
  nodeConfig: NodeConfig,
  services: string[],
  placement: Placement = {},
): Promise<RunningNode> {
  const { secret, adminSecret } = nodeConfig;
  const secrets = placement.secrets ?? { secret, adminSecret, generated: [], file: '' };
  const runtime = createRuntime(nodeConfig, placement.host);
  try {
    await checkBeforeStart(nodeConfig, services, runtime, placement);
  } catch (err) {
    await runtime.close();
    throw err;
  }
  // A gateway in another process of this host listens on the configured ports: no tenant call may reach them either.
  const releasePorts = addConfiguredPorts([
    nodeConfig.gatewayPort,
    nodeConfig.dashboardPort,
    nodeConfig.gatewayTlsPort,
  ]);
  // Every outbound guard (lib/net/outbound-address.ts) reads the process's policy per connection.
  const releasePolicy = installOutboundPolicy(outboundPolicy(nodeConfig.outboundPolicy, nodeConfig.outboundAllow));
  const release = async () => {
    await runtime.close();
    releasePorts();
    releasePolicy();
  };
  let broker: ServiceBroker;
  try {
    const transporter =
      placement.hostBus && !nodeConfig.transporter ? new HostTransporter({ channel: placement.hostBus }) : undefined;
    broker = new ServiceBroker(brokerOptions(nodeConfig, transporter));
    for (const name of services) {
      broker.createService(failingInOneLine(name, SERVICE_FACTORIES[name](runtime)));
    }
  } catch (err) {
    await release();
    throw err;
  }
  try {
    await broker.start();
  } catch (err) {
    await broker.stop().catch(() => undefined);
    await release();
    throw err;
  }
  return {
    broker,
    runtime,
    config: nodeConfig,
    secrets,
    services,
    portOf: (service) => (broker.getLocalService(service) as unknown as { port?: number } | undefined)?.port,
    async stop() {
      await drainServers(broker, nodeConfig.shutdownTimeout * 1000);
      await broker.stop();
      await release();
    },
  };
}

/**
 * What most often stops a start, checked before any service starts so that its one line is all
 * the output: the transporter, the ports this node opens, the database if it has tables.
 */
async function checkBeforeStart(
  config: NodeConfig,
  services: string[],
  runtime: Runtime,
  placement: Placement,
): Promise<void> {
  await checkTransporter(config.transporter);
  const { host } = config;
  // A worker's siblings already hold the gateway ports (reusePort): its main thread checked them.
  if (services.includes('proxy') && !placement.host) {
    await checkPortFree(config.gatewayPort, host, 'gatewayPort');
    if (config.gatewayTlsPort !== undefined) await checkPortFree(config.gatewayTlsPort, host, 'gatewayTlsPort');
  }
  if (services.includes('api')) await checkPortFree(config.dashboardPort, host, 'dashboardPort');
  if (services.some((name) => SERVICES_WITH_TABLES.includes(name))) {
    await checkDatabase(() => runtime.database());
  }
}

/**
 * A service whose start fails says why in one line, whatever it threw (the stack is kept for
 * GW_LOG_LEVEL=debug): Moleculer logs the error of a failed start with its stack.
 */
function failingInOneLine(name: string, schema: ServiceSchema): ServiceSchema {
  const started = schema.started;
  if (typeof started !== 'function') return schema;
  return {
    ...schema,
    async started(this: Service) {
      try {
        await started.call(this);
      } catch (err) {
        throw asStartupError(err, `${name} service`);
      }
    },
  };
}

/**
 * Drains the ports of the services that listen (proxy, api) while every service is still up:
 * Moleculer stops a node's services all at once, and a request in flight still needs the
 * services it calls (keys, limiter, ...) to finish.
 */
async function drainServers(broker: ServiceBroker, timeoutMs: number): Promise<void> {
  const servers = broker.services.flatMap(
    (service) => (service as unknown as { connections?: Drainable | Drainable[] }).connections ?? [],
  );
  const closedOnTheirOwn = await Promise.all(servers.map((server) => server.drain(timeoutMs)));
  if (closedOnTheirOwn.includes(false))
    broker.logger.warn(`connections still open after ${timeoutMs / 1000} s (GW_SHUTDOWN_TIMEOUT) were closed`);
}
