import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { LoggerInstance } from 'moleculer';
import type { NodeConfig } from '../../lib/runtime';
import { StartupError } from '../../lib/startup-error';
import { startThread } from '../../lib/workers/start-thread';
import { WorkerRoster, type WorkerRow } from '../../lib/workers/roster';
import { workerNodeId, type LimiterSharedMemory, type WorkerHost } from '../../lib/workers/worker-host';
import type { GatewayWorkerData, WorkerMessage } from './worker-messages';

export interface SupervisorOptions {
  /** the configuration of every worker, its services the gateway ones */
  config: NodeConfig;
  count: number;
  hostId: string;
  /** the BroadcastChannel the threads' brokers talk over when no GW_TRANSPORTER is set */
  hostBus?: string;
  limiterMemory?: LimiterSharedMemory;
  logger: LoggerInstance;
}

/** A replacement waits this long after the first crash, doubling per crash in a row, up to the cap. */
const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 30_000;
/** a worker that served this long before it exited starts the delays over */
const STABLE_AFTER_MS = 60_000;

/**
 * Runs a node's gateway workers: starts them (the first alone when the system chooses the port,
 * GW_GATEWAY_PORT=0, so that the others share the one it got), replaces one that exits unasked
 * without touching the others' connections, and stops them all, each draining its own.
 */
export class WorkerSupervisor {
  readonly roster: WorkerRoster;
  /** the gateway ports the workers share, once the first one listens */
  readonly ports: { proxy?: number; proxyTls?: number } = {};
  private readonly threads: Array<Worker | undefined>;
  private readonly crashesInARow: number[];
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private stopping = false;
  /** every worker started once: from then on one that exits is replaced */
  private serving = false;

  constructor(private readonly options: SupervisorOptions) {
    this.roster = WorkerRoster.create(options.count);
    this.threads = Array.from({ length: options.count }, () => undefined);
    this.crashesInARow = new Array<number>(options.count).fill(0);
  }

  /** Resolves once every worker serves; a worker that cannot start fails the start with its reason. */
  async start(): Promise<void> {
    const { gatewayPort, gatewayTlsPort } = this.options.config;
    const systemChosenPort = gatewayPort === 0 || gatewayTlsPort === 0;
    const first = systemChosenPort ? 1 : 0;
    if (systemChosenPort) await this.spawn(0);
    await Promise.all(this.threads.slice(first).map((_, offset) => this.spawn(first + offset)));
    this.serving = true;
  }

  rows(): WorkerRow[] {
    return this.roster.rows();
  }

  /** The thread serving place `index` now (for operators embedding gw, and the tests). */
  thread(index: number): Worker | undefined {
    return this.threads[index];
  }

  /** Asks every worker to drain and stop; one still running after `timeoutMs` is terminated. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const timer of this.restartTimers) clearTimeout(timer);
    await Promise.all(
      this.threads.map(async (worker, index) => {
        if (!worker) return;
        // a worker still starting has nothing to drain (and listens for no message yet)
        if (this.roster.state(index) === 'starting') {
          await worker.terminate();
          return;
        }
        this.roster.set(index, 'stopping');
        const exited = once(worker, 'exit');
        worker.postMessage({ type: 'stop' } satisfies WorkerMessage);
        const timer = setTimeout(() => void worker.terminate(), timeoutMs);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private spawn(index: number): Promise<void> {
    const { config, count, hostId, hostBus, limiterMemory } = this.options;
    const host: WorkerHost = { index, count, hostId, limiterMemory, roster: this.roster.buffer };
    const workerData: GatewayWorkerData = {
      config: {
        ...config,
        nodeId: workerNodeId(hostId, index),
        gatewayPort: this.ports.proxy ?? config.gatewayPort,
        gatewayTlsPort: this.ports.proxyTls ?? config.gatewayTlsPort,
      },
      host,
      hostBus,
    };
    const worker = startThread(__dirname, 'gateway-worker', { workerData, name: `gw gateway worker ${index}` });
    this.threads[index] = worker;
    this.roster.set(index, 'starting', worker.threadId);
    const startedAt = Date.now();
    return new Promise((resolve, reject) => {
      let ready = false;
      let failure: string | undefined;
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          ready = true;
          this.ports.proxy ??= message.ports.proxy;
          this.ports.proxyTls ??= message.ports.proxyTls;
          this.roster.set(index, 'ready');
          resolve();
        } else if (message.type === 'failed') failure = message.reason;
      });
      worker.on('error', (err) => (failure ??= err.message));
      worker.on('exit', (code) => {
        if (this.threads[index] !== worker) return;
        this.threads[index] = undefined;
        this.roster.set(index, 'exited');
        if (!ready) reject(new StartupError(`gateway worker ${index}: ${failure ?? `exited with code ${code}`}`));
        // a worker that fails the node's first start fails the start instead
        if (this.stopping || !this.serving) return;
        this.options.logger.error(
          `gateway worker ${index} exited (${failure ?? `code ${code}`}); the other workers keep serving, it is being replaced`,
        );
        this.replaceLater(index, Date.now() - startedAt);
      });
    });
  }

  private replaceLater(index: number, servedMs: number): void {
    this.crashesInARow[index] = servedMs >= STABLE_AFTER_MS ? 0 : this.crashesInARow[index] + 1;
    const delay = Math.min(
      MAX_RESTART_DELAY_MS,
      FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, this.crashesInARow[index] - 1),
    );
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.stopping) return;
      this.roster.countRestart(index);
      // a replacement that fails to start exits, and is replaced in turn after a longer delay
      this.spawn(index).catch(() => undefined);
    }, delay);
    this.restartTimers.add(timer);
  }
}
