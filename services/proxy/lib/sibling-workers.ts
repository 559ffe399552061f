import type { NodeSeries } from '../../../lib/observability/metrics';
import { HostChannel } from '../../../lib/workers/host-channel';
import { WorkerRoster } from '../../../lib/workers/roster';
import { workerNodeId, type WorkerHost } from '../../../lib/workers/worker-host';
import type { LocalChange } from './store-sync';

/** What this worker does when a sibling asks. */
export interface SiblingRequests {
  reload(): Promise<void>;
  apply(change: LocalChange): void;
  series(): Promise<NodeSeries>;
}

const RELOAD = 'reload';
const RELOAD_WAIT_MS = 30_000;
const APPLY = 'apply-change';
const APPLY_WAIT_MS = 2_000;
const METRICS = 'metrics';
const METRICS_WAIT_MS = 2_000;

/**
 * The proxy's side of a node with gateway workers (app/workers/): what a request to one worker
 * must do on all of them (`/gw/reload`, a `/gw/apis` write, a `/metrics` scrape), asked of the
 * others over the host channel, and the roster `/gw/health` shows.
 */
export class SiblingWorkers {
  private readonly channel: HostChannel;
  private readonly roster: WorkerRoster;

  constructor(
    private readonly host: WorkerHost,
    requests: SiblingRequests,
  ) {
    this.roster = new WorkerRoster(host.roster);
    this.channel = new HostChannel(host.hostId, host.index, this.roster);
    this.channel.on(RELOAD, () => requests.reload());
    this.channel.on(APPLY, (change) => requests.apply(change as LocalChange));
    this.channel.on(METRICS, () => requests.series());
  }

  /** Resolves once the other workers have reloaded (or did not answer within 30 s). */
  async reloaded(): Promise<void> {
    await this.channel.ask(RELOAD, {}, RELOAD_WAIT_MS);
  }

  /** Resolves once the other workers serve a definition change (or did not answer within 2 s). */
  async applied(change: LocalChange): Promise<void> {
    await this.channel.ask(APPLY, change, APPLY_WAIT_MS);
  }

  /** The other workers' series, for one scrape; a worker that does not answer in time is left out. */
  async series(): Promise<NodeSeries[]> {
    const answers = await this.channel.ask(METRICS, {}, METRICS_WAIT_MS);
    return answers.flatMap((answer) => (answer.ok ? [answer.result as NodeSeries] : []));
  }

  /** `/gw/health`'s view of the node's workers. */
  health(): Record<string, unknown> {
    const { hostId, index } = this.host;
    return {
      worker: index,
      workers: this.roster.rows().map((row) => ({
        index: row.index,
        node: workerNodeId(hostId, row.index),
        state: row.state,
        restarts: row.restarts,
        started_at: row.startedAt > 0 ? new Date(row.startedAt).toISOString() : null,
      })),
    };
  }

  close(): void {
    this.channel.close();
  }
}
