/**
 * What a gateway worker thread knows of its host (app/workers/): the main thread of a node with
 * GW_WORKERS > 1 starts N workers, each a gateway node of its own on the bus, all serving the
 * same ports (`reusePort`). What they must agree on without a round trip lives in shared memory.
 */
export interface WorkerHost {
  /** this worker's place, 0 … count − 1 */
  index: number;
  /** how many workers the host runs */
  count: number;
  /** the main thread's node id; a worker's own is `<hostId>.w<index>` */
  hostId: string;
  /** the limiter counters of every worker of the host; absent when counters live in Redis */
  limiterMemory?: LimiterSharedMemory;
  /** the roster of the host's workers (app/workers/roster.ts), which /gw/health reports */
  roster: SharedArrayBuffer;
}

/** The buffers of services/limiter/lib/shared/shared-counter-store.ts, made once by the main thread. */
export interface LimiterSharedMemory {
  table: SharedArrayBuffer;
  logs: SharedArrayBuffer;
}

/** The node id of worker `index` of the host whose main thread is `hostId`. */
export function workerNodeId(hostId: string, index: number): string {
  return `${hostId}.w${index}`;
}
