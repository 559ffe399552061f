/**
 * One gateway worker thread (app/workers/supervisor.ts starts it): a gateway node of its own
 * (proxy, auth, limiter, GraphQL, streams) serving the node's gateway ports beside its
 * siblings, its node id `<host>.w<index>`. It says when it serves, and drains then exits when
 * the supervisor asks.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { installProcessGuards } from '../../lib/process-guards';
import { startServices } from '../node';
import type { GatewayWorkerData, WorkerMessage } from './worker-messages';

const { config, host, hostBus } = workerData as GatewayWorkerData;
const supervisor = parentPort!;
const tell = (message: WorkerMessage) => supervisor.postMessage(message);

startServices(config, config.services, { host, hostBus }).then(
  (node) => {
    installProcessGuards(node.broker.logger);
    const proxy = node.broker.getLocalService('proxy') as unknown as { port?: number; tlsPort?: number } | undefined;
    supervisor.on('message', (message: WorkerMessage) => {
      if (message.type !== 'stop') return;
      void node.stop().finally(() => process.exit(0));
    });
    tell({ type: 'ready', ports: { proxy: proxy?.port, proxyTls: proxy?.tlsPort } });
  },
  (err: unknown) => {
    tell({ type: 'failed', reason: (err as Error)?.message ?? String(err) });
    process.exit(1);
  },
);
