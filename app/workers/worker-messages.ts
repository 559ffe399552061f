import type { NodeConfig } from '../../lib/runtime';
import type { WorkerHost } from '../../lib/workers/worker-host';

/** What the supervisor gives a gateway worker thread (its workerData). */
export interface GatewayWorkerData {
  config: NodeConfig;
  host: WorkerHost;
  hostBus?: string;
}

/** Messages between the supervisor and a gateway worker, both ways. */
export type WorkerMessage =
  | { type: 'ready'; ports: { proxy?: number; proxyTls?: number } }
  | { type: 'failed'; reason: string }
  | { type: 'stop' };
