import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * The ports of this process: every server started through lib/http/listen.ts (gateway, HTTPS,
 * dashboard; /metrics is served on those) and the ports its configuration names (a gateway in
 * another process on this host listens there). A tenant's outbound call (virtual endpoint, stream,
 * webhook, data source, uptime check) may not reach them on a local address: that would let a
 * tenant call the /gw and /admin APIs from inside the node. Loopback on any other port stays
 * reachable: local upstreams in development and tests.
 */
/** port → how many servers or node configurations of this process hold it (several test nodes may share a process) */
const held = new Map<number, number>();

/** A server of this process bound `port`. */
export function addListeningPort(port: number): void {
  held.set(port, (held.get(port) ?? 0) + 1);
}

export function removeListeningPort(port: number): void {
  const count = (held.get(port) ?? 0) - 1;
  if (count > 0) held.set(port, count);
  else held.delete(port);
}

/** Ports a node's configuration names (0, "pick one", names none); the returned function gives them back when the node stops. */
export function addConfiguredPorts(ports: ReadonlyArray<number | undefined>): () => void {
  const named = ports.filter((port): port is number => typeof port === 'number' && port > 0);
  named.forEach(addListeningPort);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    named.forEach(removeListeningPort);
  };
}

export function ownPorts(): ReadonlySet<number> {
  return new Set(held.keys());
}

/** Whether an address is this host's: loopback, unspecified, or one of its interfaces. */
export function isLocalAddress(address: string): boolean {
  const bare = address.toLowerCase().replace(/^\[|\]$/g, '');
  const a = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1] ?? bare;
  if (isIP(a) === 0) return false;
  if (a.startsWith('127.') || a === '::1' || a === '0.0.0.0' || a === '::') return true;
  return Object.values(networkInterfaces()).some((list) => (list ?? []).some((i) => i.address.toLowerCase() === a));
}

/** Whether `address:port` is one of this node's own listening ports. */
export function isOwnEndpoint(address: string, port: number, ports: ReadonlySet<number> = ownPorts()): boolean {
  return ports.has(port) && isLocalAddress(address);
}

/** A tenant's connection to one of this node's own ports, refused. */
export class OwnPortRefused extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`${host}:${port} is a port of this gw node, which tenant calls can not reach`);
    this.name = 'OwnPortRefused';
  }
}
