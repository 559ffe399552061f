import { checkPortFree } from '../../lib/http/listen';
import type { ResolvedSecrets } from '../../lib/config/secrets';
import type { NodeConfig } from '../../lib/runtime';
import { createSharedCounterBuffers } from '../../services/limiter/lib/shared/shared-counter-store';
import { defaultNodeId } from '../../moleculer.config';
import { startServices, type RunningNode } from '../node';
import { WorkerSupervisor } from './supervisor';
import { gatewayServicesOf, mainThreadServicesOf } from './worker-count';

/** Beyond the drain (GW_SHUTDOWN_TIMEOUT), what a worker may take to stop its services. */
const WORKER_STOP_GRACE_MS = 5_000;

/**
 * A node with gateway workers (GW_WORKERS > 1): the main thread runs the services that are not
 * the gateway's (the management services, when the node has them) and supervises `workers`
 * threads that each run the gateway services on the shared gateway ports. Without
 * GW_TRANSPORTER the threads' brokers talk over a BroadcastChannel of this process; the limiter
 * counters live in shared memory unless GW_REDIS_URL is set.
 */
export async function startHost(
  config: NodeConfig,
  secrets: ResolvedSecrets,
  services: string[],
  workers: number,
): Promise<RunningNode & { workers: WorkerSupervisor }> {
  const hostId = config.nodeId ?? defaultNodeId();
  // The workers open the gateway ports with reusePort: the one-line failure is said here, first.
  await checkPortFree(config.gatewayPort, config.host, 'gatewayPort');
  if (config.gatewayTlsPort !== undefined) await checkPortFree(config.gatewayTlsPort, config.host, 'gatewayTlsPort');
  const hostBus = config.transporter ? undefined : `gw-host-bus:${hostId}`;
  const main = await startServices({ ...config, nodeId: hostId }, mainThreadServicesOf(services), { hostBus, secrets });
  const supervisor = new WorkerSupervisor({
    config: Object.freeze({ ...config, services: gatewayServicesOf(services) }),
    count: workers,
    hostId,
    hostBus,
    limiterMemory: config.redisUrl ? undefined : createSharedCounterBuffers(config.limiterSharedMb * 1024 * 1024),
    logger: main.broker.logger,
  });
  const stopWorkers = () => supervisor.stop(config.shutdownTimeout * 1000 + WORKER_STOP_GRACE_MS);
  try {
    await supervisor.start();
  } catch (err) {
    await stopWorkers();
    await main.stop();
    throw err;
  }
  main.broker.logger.info(`${workers} gateway workers serving on port ${supervisor.ports.proxy}`);
  return {
    ...main,
    services,
    workers: supervisor,
    portOf: (service) => (service === 'proxy' ? supervisor.ports.proxy : main.portOf(service)),
    async stop() {
      // the workers first: a request they drain may still need the main thread's services (keys, apis)
      await stopWorkers();
      await main.stop();
    },
  };
}
