import { connect as netConnect, isIP, Socket as NetSocket, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { guardedLookup, refusedAddressError } from './outbound-address';
import { isOwnEndpoint, ownPorts, OwnPortRefused } from './own-ports';

export interface TenantConnectOptions {
  /** the ports refused on a local address; the process's own ports by default (lib/net/own-ports.ts) */
  ownPorts?: () => ReadonlySet<number>;
  /** the socket's name resolution; `guardedLookup()` by default (tests pass one over their own resolver) */
  lookup?: ReturnType<typeof guardedLookup>;
  /** connection timeout, ms; undici's default otherwise */
  connectTimeout?: number;
  /** TLS settings of the connection (a client certificate, verification) */
  tls?: { cert?: string; key?: string; rejectUnauthorized?: boolean };
  /** a TLS connection offers h2 as well as http/1.1 in ALPN (the caller reads `alpnProtocol` to know which it got) */
  allowH2?: boolean;
}

/**
 * The connector of every connection made on a tenant's behalf. The name is resolved once, in
 * the socket's own `lookup` (forbidden addresses refused there), and the address the socket
 * really connected to is checked again before anything is sent: a forbidden address, or one of
 * this node's own ports on a local address, closes the socket and fails the request. No check
 * rests on a separate resolution, which a rebinding DNS server could answer differently.
 */
export function tenantConnector(options: TenantConnectOptions = {}): buildConnector.connector {
  const connect = buildConnector({
    ...options.tls,
    lookup: options.lookup ?? guardedLookup(),
    ...(options.allowH2 ? { allowH2: true } : {}),
    ...(options.connectTimeout ? { timeout: options.connectTimeout } : {}),
  });
  const refused = options.ownPorts ?? ownPorts;
  return (opts, callback) => {
    // an IP literal never goes through `lookup`: a refused one gets no connection at all
    const port = Number(opts.port || (opts.protocol === 'https:' ? 443 : 80));
    const early = literalRefusal(opts.hostname, port, refused());
    if (early) return callback(early, null);
    return connect(opts, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error(`${opts.hostname}: no connection`), null);
      const refusal = connectedRefusal(socket, opts.hostname, refused());
      if (!refusal) return callback(null, socket);
      socket.destroy();
      callback(refusal, null);
    });
  };
}

/** Why a tenant's connected socket must be closed (its peer is forbidden or one of `ports` of this node), if it must. */
export function connectedRefusal(
  socket: Socket,
  hostname: string,
  ports: ReadonlySet<number> = ownPorts(),
): Error | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  const address = socket.remoteAddress;
  const port = socket.remotePort;
  // A socket that closed at once has no peer left to judge: refuse rather than guess.
  if (address === undefined || port === undefined)
    return new Error(`${host}: the connection closed before its address was known`);
  const refusal = refusedAddressError(host, address);
  if (refusal) return refusal;
  if (isOwnEndpoint(address, port, ports)) return new OwnPortRefused(host, port);
  return undefined;
}

/** An undici Agent whose every connection goes through `tenantConnector`. */
export function tenantAgent(options: Omit<Agent.Options, 'connect'> & TenantConnectOptions = {}): Agent {
  const { ownPorts: ports, lookup, connectTimeout, ...agentOptions } = options;
  return new Agent({ ...agentOptions, connect: tenantConnector({ ownPorts: ports, lookup, connectTimeout }) });
}

type LookupFunction = ReturnType<typeof guardedLookup>;

/**
 * A socket `lookup` for a connection to `port`: forbidden addresses refused (guardedLookup), and
 * local addresses too when `port` is one of this node's own. The address judged is the address
 * the socket then connects to.
 */
export function tenantLookup(
  port: number,
  ports: () => ReadonlySet<number> = ownPorts,
  base: LookupFunction = guardedLookup(),
): LookupFunction {
  return (hostname, options, callback) =>
    base(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as Array<{ address: string; family: number }>;
      if (list.some((entry) => isOwnEndpoint(entry.address, port, ports())))
        return callback(new OwnPortRefused(hostname, port), []);
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
}

/** The refusal of an IP-literal host (a literal never goes through `lookup`), if it is refused. */
export function literalRefusal(host: string, port: number, ports: ReadonlySet<number> = ownPorts()): Error | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return undefined;
  const refusal = refusedAddressError(bare, bare);
  if (refusal) return refusal;
  if (isOwnEndpoint(bare, port, ports)) return new OwnPortRefused(bare, port);
  return undefined;
}

/**
 * `createConnection` for a WebSocket (ws) to a tenant's URL: the same policy, decided before the
 * upgrade request is written (a refused address gets no connection at all).
 */
export function tenantWebSocketConnection(secure: boolean): (options: TlsConnectionOptions & NetConnectOpts) => Duplex {
  return (options) => {
    const host = String(options.host ?? 'localhost');
    const port = Number((options as { port?: number | string }).port ?? (secure ? 443 : 80));
    const refusal = literalRefusal(host, port);
    if (refusal) {
      const socket = new NetSocket();
      process.nextTick(() => socket.destroy(refusal));
      return socket;
    }
    const lookup = tenantLookup(port) as never;
    return secure ? tlsConnect({ ...options, lookup }) : netConnect({ ...options, lookup } as NetConnectOpts);
  };
}
