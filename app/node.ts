import { ServiceBroker } from 'moleculer';
import { brokerOptions } from '../moleculer.config';
import { SERVICE_FACTORIES, resolveServiceNames } from '../services';
import type { GwConfig } from '../lib/config/load-config';
import { resolveSecrets, type ResolvedSecrets } from '../lib/config/secrets';
import type { Drainable } from '../lib/http/drain';
import { installOutboundPolicy, outboundPolicy } from '../lib/net/outbound-policy';
import { addConfiguredPorts } from '../lib/net/own-ports';
import { createRuntime, type NodeConfig, type Runtime } from '../lib/runtime';

export interface RunningNode {
  broker: ServiceBroker;
  runtime: Runtime;
  config: NodeConfig;
  secrets: ResolvedSecrets;
  /** names of the services this node runs */
  services: string[];
  /** the bound port of a service that listens (`proxy`, `api`), once started */
  portOf(service: 'proxy' | 'api'): number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts one gw node: resolves its secrets, creates the broker and the services GW_SERVICES
 * names, and starts them. `npm start` and the integration tests both come through here.
 */
export async function startNode(config: Readonly<GwConfig>): Promise<RunningNode> {
  const services = resolveServiceNames(config.services);
  // proxy serves the /gw API (x-gw-authorization), api the /admin API (admin-auth); keys (HMAC
  // secrets) and certs (private keys) seal what they store with a key derived from the gateway secret.
  const secrets = resolveSecrets(config, { secret: ['proxy', 'keys', 'certs'].some((name) => services.includes(name)), adminSecret: services.includes('api') });
  const nodeConfig: NodeConfig = Object.freeze({ ...config, secret: secrets.secret, adminSecret: secrets.adminSecret });
  const runtime = createRuntime(nodeConfig);
  // A gateway in another process of this host listens on the configured ports: no tenant call may reach them either.
  const releasePorts = addConfiguredPorts([config.gatewayPort, config.dashboardPort, config.gatewayTlsPort]);
  // Every outbound guard (lib/net/outbound-address.ts) reads the process's policy per connection.
  const releasePolicy = installOutboundPolicy(outboundPolicy(config.outboundPolicy, config.outboundAllow));
  const broker = new ServiceBroker(brokerOptions(nodeConfig));
  for (const name of services) broker.createService(SERVICE_FACTORIES[name](runtime));
  try {
    await broker.start();
  } catch (err) {
    await broker.stop().catch(() => undefined);
    await runtime.close();
    releasePorts();
    releasePolicy();
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
      await runtime.close();
      releasePorts();
      releasePolicy();
    },
  };
}

/**
 * Drains the ports of the services that listen (proxy, api) while every service is still up:
 * Moleculer stops a node's services all at once, and a request in flight still needs the
 * services it calls (keys, limiter, ...) to finish.
 */
async function drainServers(broker: ServiceBroker, timeoutMs: number): Promise<void> {
  const servers = broker.services.flatMap((service) => (service as unknown as { connections?: Drainable | Drainable[] }).connections ?? []);
  const closedOnTheirOwn = await Promise.all(servers.map((server) => server.drain(timeoutMs)));
  if (closedOnTheirOwn.includes(false)) broker.logger.warn(`connections still open after ${timeoutMs / 1000} s (GW_SHUTDOWN_TIMEOUT) were closed`);
}
