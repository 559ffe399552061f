import type { DrlLoadEvent } from '../../../contracts/limiter/actions';

const PEER_TIMEOUT_MS = 5_000;

/**
 * This node's share of every allowance under the distributed rate limiter: its load over the
 * load of all live gateway nodes (each counted as at least 1 request per second, so idle nodes
 * still get a share). Loads are exchanged every second on the bus; a gateway node the registry
 * knows but that has not reported yet counts as idle.
 */
export class DrlShare {
  private readonly peers = new Map<string, { load: number; seenAt: number }>();
  private counted = 0;
  private load = 0;

  constructor(
    private readonly nodeId: string,
    /** ids of the live nodes that run the limiter, this one included */
    private readonly liveNodes: () => string[],
    private readonly now: () => number = Date.now,
  ) {}

  recordRequest(): void {
    this.counted++;
  }

  /** Every second: fold the requests counted into the smoothed load, and report it. */
  tick(): DrlLoadEvent {
    this.load = this.load * 0.5 + this.counted * 0.5;
    this.counted = 0;
    return { node_id: this.nodeId, load: this.load };
  }

  receive(event: DrlLoadEvent): void {
    if (event.node_id !== this.nodeId) this.peers.set(event.node_id, { load: event.load, seenAt: this.now() });
  }

  /** The fraction of an allowance this node enforces, and how many gateway nodes share it. */
  share(): { fraction: number; gateways: number } {
    const now = this.now();
    const live = new Set(this.liveNodes());
    live.add(this.nodeId);
    let total = Math.max(this.load, 1);
    for (const node of live) {
      if (node === this.nodeId) continue;
      const peer = this.peers.get(node);
      total += peer && now - peer.seenAt < PEER_TIMEOUT_MS ? Math.max(peer.load, 1) : 1;
    }
    return { fraction: Math.max(this.load, 1) / total, gateways: live.size };
  }
}
