import type { DrlLoadEvent } from '../../../contracts/limiter/actions';

const PEER_TIMEOUT_MS = 5_000;

/**
 * This node's share of every allowance under the distributed rate limiter: its load over the
 * load of all live gateway nodes (each counted as at least 1 request per second, so idle nodes
 * still get a share). Loads are exchanged every second on the bus; a gateway node the registry
 * knows but that has not reported yet counts as idle. The live nodes are told (`setLiveNodes`,
 * on `$services.changed`), never looked up per request.
 */
export class DrlShare {
  private readonly peers = new Map<string, { load: number; seenAt: number }>();
  private counted = 0;
  private load = 0;
  private live: ReadonlySet<string>;

  constructor(
    private readonly nodeId: string,
    private readonly now: () => number = Date.now,
  ) {
    this.live = new Set([nodeId]);
  }

  /** the ids of the live nodes that run the limiter (this one is always counted) */
  setLiveNodes(nodes: string[]): void {
    this.live = new Set([this.nodeId, ...nodes]);
    for (const node of this.peers.keys()) if (!this.live.has(node)) this.peers.delete(node);
  }

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
    // A bus message: trust nothing about its shape.
    const { node_id: node, load } = (event ?? {}) as Partial<DrlLoadEvent>;
    if (
      typeof node !== 'string' ||
      node === this.nodeId ||
      typeof load !== 'number' ||
      !Number.isFinite(load) ||
      load < 0
    )
      return;
    this.peers.set(node, { load, seenAt: this.now() });
  }

  /** The fraction of an allowance this node enforces, and how many gateway nodes share it. */
  share(): { fraction: number; gateways: number } {
    const now = this.now();
    const live = this.live;
    let total = Math.max(this.load, 1);
    for (const node of live) {
      if (node === this.nodeId) continue;
      const peer = this.peers.get(node);
      total += peer && now - peer.seenAt < PEER_TIMEOUT_MS ? Math.max(peer.load, 1) : 1;
    }
    return { fraction: Math.max(this.load, 1) / total, gateways: live.size };
  }
}
