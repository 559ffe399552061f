import type { DrlLoadEvent } from '../../../contracts/limiter/actions';

const PEER_TIMEOUT_MS = 5_000;
/** the `.w<index>` a worker's node id adds to its host's (lib/workers/worker-host.ts, workerNodeId) */
const WORKER_SUFFIX = /\.w\d+$/;

interface Share {
  fraction: number;
  gateways: number;
}

/**
 * This node's share of every allowance under the distributed rate limiter: its host's load over
 * the load of all live hosts (each counted as at least 1 request per second, so idle hosts still
 * get a share). A host is a node, or the gateway workers of one node, which share their buckets in
 * memory and so act as one participant; a node that names no host is a host of its own. Loads are
 * exchanged every second on the bus; a gateway node the registry knows but that has not reported
 * yet counts as idle. The live nodes are told (`setLiveNodes`, on `$services.changed`), never
 * looked up per request.
 */
export class DrlShare {
  private readonly peers = new Map<string, { load: number; host: string; seenAt: number }>();
  private counted = 0;
  private load = 0;
  private live: ReadonlySet<string>;
  /** `share()` until `cachedUntil` (the next report to time out) or until something changes */
  private cached: Share | undefined;
  private cachedUntil = 0;

  constructor(
    private readonly nodeId: string,
    private readonly now: () => number = Date.now,
    /** the host whose workers share this node's buckets; the node itself when it is no worker */
    private readonly hostId: string = nodeId,
  ) {
    this.live = new Set([nodeId]);
  }

  /** the ids of the live nodes that run the limiter (this one is always counted) */
  setLiveNodes(nodes: string[]): void {
    this.live = new Set([this.nodeId, ...nodes]);
    for (const node of this.peers.keys()) if (!this.live.has(node)) this.peers.delete(node);
    this.cached = undefined;
  }

  recordRequest(): void {
    this.counted++;
  }

  /** Every second: fold the requests counted into the smoothed load, and report it. */
  tick(): DrlLoadEvent {
    this.load = this.load * 0.5 + this.counted * 0.5;
    this.counted = 0;
    this.cached = undefined;
    const report: DrlLoadEvent = { node_id: this.nodeId, load: this.load };
    if (this.hostId !== this.nodeId) report.host_id = this.hostId;
    return report;
  }

  receive(event: DrlLoadEvent): void {
    // A bus message: trust nothing about its shape.
    const { node_id: node, load, host_id: host } = (event ?? {}) as Partial<DrlLoadEvent>;
    if (
      typeof node !== 'string' ||
      node === this.nodeId ||
      typeof load !== 'number' ||
      !Number.isFinite(load) ||
      load < 0 ||
      (host !== undefined && typeof host !== 'string')
    )
      return;
    this.peers.set(node, { load, host: host ?? node, seenAt: this.now() });
    this.cached = undefined;
  }

  /** The fraction of an allowance this node's host enforces, and how many hosts share it. */
  share(): Share {
    const now = this.now();
    if (this.cached && now < this.cachedUntil) return this.cached;
    const loads = new Map<string, number>([[this.hostId, this.load]]);
    let cachedUntil = Infinity;
    for (const node of this.live) {
      if (node === this.nodeId) continue;
      const peer = this.peers.get(node);
      const fresh = peer !== undefined && now - peer.seenAt < PEER_TIMEOUT_MS;
      if (fresh) cachedUntil = Math.min(cachedUntil, peer.seenAt + PEER_TIMEOUT_MS);
      const host = peer?.host ?? hostOfUnreported(node);
      loads.set(host, (loads.get(host) ?? 0) + (fresh ? peer.load : 0));
    }
    let total = 0;
    for (const load of loads.values()) total += Math.max(load, 1);
    this.cached = { fraction: Math.max(loads.get(this.hostId)!, 1) / total, gateways: loads.size };
    this.cachedUntil = cachedUntil;
    return this.cached;
  }
}

/**
 * The host of a live node that has not reported yet: the registry gives node ids only, so a
 * worker's is read off its `<hostId>.w<index>` id. Its first report names its host for certain.
 */
function hostOfUnreported(node: string): string {
  return node.replace(WORKER_SUFFIX, '');
}
