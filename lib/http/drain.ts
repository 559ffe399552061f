import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';

export interface Drainable {
  /**
   * Stops accepting connections, lets the requests in flight finish and closes each connection
   * once it has answered them, like Go's `http.Server.Shutdown`. Resolves `true` when every
   * connection closed on its own, `false` when some were destroyed at `timeoutMs`.
   */
  drain(timeoutMs: number): Promise<boolean>;
}

interface Connection {
  /** responses not finished yet, oldest first (more than one when the client pipelines) */
  pending: ServerResponse[];
  /** the keep-alive intent of the newest pending response, before draining turned it off */
  keepAlive?: boolean;
}

/**
 * Tracks a server's connections so that it can be drained. While draining, the last answer on
 * each connection says `Connection: close` (a request that arrives on a kept-alive connection
 * is still served, never refused), idle connections are closed, and upgraded (WebSocket)
 * connections are closed once the plain ones are. Call it after adding the server's `upgrade`
 * listener, if any.
 */
export function trackConnections(server: Server | HttpsServer): Drainable {
  const connections = new Map<Socket, Connection>();
  const upgraded = new Set<Socket>();
  let draining = false;
  /** while draining: checks whether every plain HTTP connection has closed */
  let settled: (() => void) | undefined;

  // Over TLS the request's socket is the TLS socket, which exists once the handshake is done.
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
    connections.set(socket, { pending: [] });
    socket.once('close', () => {
      connections.delete(socket);
      upgraded.delete(socket);
      settled?.();
    });
  });
  // Only where upgrades are served: a listener makes node hand every upgrade request over.
  if (server.listenerCount('upgrade') > 0) {
    server.prependListener('upgrade', (req: IncomingMessage) => {
      connections.delete(req.socket);
      upgraded.add(req.socket);
      settled?.();
    });
  }
  // One listener for every answer (it finds its connection through its socket): watching an
  // answer allocates no closure. `on`, not `once` (which wraps the listener): finishing twice
  // (finish, then close) finds the answer gone the second time.
  function answered(this: ServerResponse): void {
    const socket = this.req.socket;
    const connection = connections.get(socket);
    if (!connection || !removePending(connection, this)) return;
    // An answer that went out before draining began kept its connection open: close it now.
    if (draining && connection.pending.length === 0) setImmediate(() => connection.pending.length === 0 && socket.end());
  }
  // Before the application's listener, so the answer is marked before anything is written.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (!connection) return;
    if (draining) keepAliveOnlyUntilLast(connection, res);
    connection.pending.push(res);
    res.on('finish', answered);
    res.on('close', answered);
  });

  return {
    drain(timeoutMs) {
      draining = true;
      for (const connection of connections.values()) {
        const last = connection.pending.at(-1);
        if (last) markLast(connection, last);
      }
      return new Promise((resolve) => {
        const finish = (closedOnTheirOwn: boolean) => {
          clearTimeout(deadline);
          settled = undefined;
          for (const socket of [...connections.keys(), ...upgraded]) socket.destroy();
          resolve(closedOnTheirOwn);
        };
        const deadline = setTimeout(() => finish(false), timeoutMs);
        settled = () => connections.size === 0 && finish(true);
        // Stops accepting and closes the idle connections (node >= 19 does the latter in close() too).
        server.close();
        server.closeIdleConnections();
        settled();
      });
    },
  };
}

/** A new answer on a draining connection becomes the last one: an earlier one keeps the connection open for it. */
function keepAliveOnlyUntilLast(connection: Connection, res: ServerResponse): void {
  const previous = connection.pending.at(-1);
  if (previous && !previous.headersSent && connection.keepAlive !== undefined) previous.shouldKeepAlive = connection.keepAlive;
  markLast(connection, res);
}

function markLast(connection: Connection, res: ServerResponse): void {
  if (res.headersSent) return;
  connection.keepAlive = res.shouldKeepAlive;
  res.shouldKeepAlive = false;
}

/** false when the answer was not pending (any more) */
function removePending(connection: Connection, res: ServerResponse): boolean {
  const { pending } = connection;
  // Usually the oldest: shift() does not allocate the array splice() returns.
  if (pending[0] === res) {
    pending.shift();
    return true;
  }
  const index = pending.indexOf(res);
  if (index < 0) return false;
  pending.splice(index, 1);
  return true;
}
