import { Server as HttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server, Http2Session } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { goingAway } from './going-away';

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
  /** while draining and idle: closes the connection once the grace has passed */
  idleTimer?: NodeJS.Timeout;
}

/**
 * How long a draining connection may sit idle before it is closed. A request its client wrote
 * before it could see the listener close, or right after a kept-alive answer, arrives meanwhile
 * and is answered with `Connection: close`; closing at once would reset the connection under it.
 */
const IDLE_GRACE_MS = 500;

/**
 * Tracks a server's connections so that it can be drained. While draining, the last answer on
 * each connection says `Connection: close` (a request that arrives on a kept-alive connection
 * is still served, never refused), a connection is closed once it has sat idle for a short
 * grace, and long-lived exchanges (WebSockets, event streams) are told to say goodbye
 * (lib/http/going-away.ts). An HTTP/2 connection (node:http2 servers) is told GOAWAY: it takes no
 * new request, and closes once those in flight have finished. Call it after adding the server's
 * `upgrade` listener, if any.
 */
export function trackConnections(server: Server | HttpsServer | Http2SecureServer | Http2Server): Drainable {
  const connections = new Map<Socket, Connection>();
  /** HTTP/2 connections, and the requests in flight on them (their long-lived exchanges say goodbye on drain) */
  const sessions = new Set<Http2Session>();
  const http2Requests = new Set<IncomingMessage>();
  const upgraded = new Set<Socket>();
  /**
   * TLS: the TCP connections open. One whose handshake has not ended has no TLS socket yet; it
   * reached the node before the listener closed, so the drain waits for it too.
   */
  const accepted = new Set<Socket>();
  let draining = false;
  let idleGraceMs = IDLE_GRACE_MS;
  /** while draining: checks whether every connection has closed */
  let settled: (() => void) | undefined;

  const tls = server instanceof TlsServer;
  /** a cleartext HTTP/2 server (GW_GATEWAY_H2C): each of its connections is a session */
  const http2Only = !tls && !(server instanceof HttpServer);
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    if (draining) session.close();
    session.once('close', () => {
      sessions.delete(session);
      settled?.();
    });
  });
  if (tls) {
    server.on('connection', (socket: Socket) => {
      accepted.add(socket);
      socket.once('close', () => {
        accepted.delete(socket);
        settled?.();
      });
    });
  }
  // Over TLS the request's socket is the TLS socket, which exists once the handshake is done.
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket & { alpnProtocol?: string | false }) => {
    // An HTTP/2 connection is followed as its session.
    if (http2Only || socket.alpnProtocol === 'h2') return;
    const connection: Connection = { pending: [] };
    connections.set(socket, connection);
    // A TLS handshake may end after the listener closed: that connection drains like the others.
    if (draining) {
      closeWhenIdle(socket, connection);
      goingAway(socket);
    }
    socket.once('close', () => {
      clearTimeout(connections.get(socket)?.idleTimer);
      connections.delete(socket);
      upgraded.delete(socket);
      settled?.();
    });
  });
  // Only where upgrades are served: a listener makes node hand every upgrade request over.
  if (server.listenerCount('upgrade') > 0) {
    server.prependListener('upgrade', (req: IncomingMessage) => {
      clearTimeout(connections.get(req.socket)?.idleTimer);
      connections.delete(req.socket);
      upgraded.add(req.socket);
    });
  }
  /** Ends a draining connection that stays idle for the grace (its client sent nothing more). */
  function closeWhenIdle(socket: Socket, connection: Connection): void {
    clearTimeout(connection.idleTimer);
    connection.idleTimer = setTimeout(() => {
      connection.idleTimer = undefined;
      // After the next poll: bytes that arrived meanwhile are read, and a request they hold is
      // pending, before this looks.
      setImmediate(() => {
        if (connection.pending.length === 0 && connection.idleTimer === undefined) socket.end();
      });
    }, idleGraceMs);
  }
  // One listener for every answer (it finds its connection through its socket): watching an
  // answer allocates no closure. `on`, not `once` (which wraps the listener): finishing twice
  // (finish, then close) finds the answer gone the second time.
  function answered(this: ServerResponse): void {
    const socket = this.req.socket;
    const connection = connections.get(socket);
    if (!connection || !removePending(connection, this)) return;
    // An answer that said Connection: close has its connection closed by node; one that went out
    // before draining began kept it open, and its client may already be sending the next request.
    if (draining && connection.pending.length === 0) closeWhenIdle(socket, connection);
  }
  // Before the application's listener, so the answer is marked before anything is written.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersionMajor === 2) return followHttp2Request(req, res);
    const connection = connections.get(req.socket);
    if (!connection) return;
    if (draining) {
      keepAliveOnlyUntilLast(connection, res);
      clearTimeout(connection.idleTimer);
      connection.idleTimer = undefined;
    }
    connection.pending.push(res);
    res.on('finish', answered);
    res.on('close', answered);
  });

  // The request's socket stands for its stream: what an exchange registered its goodbye on.
  function followHttp2Request(req: IncomingMessage, res: ServerResponse): void {
    http2Requests.add(req);
    const done = () => http2Requests.delete(req);
    res.once('finish', done);
    res.once('close', done);
    if (draining) goingAway(req.socket);
  }

  return {
    drain(timeoutMs) {
      draining = true;
      idleGraceMs = Math.min(IDLE_GRACE_MS, timeoutMs / 2);
      stopAccepting(server);
      for (const [socket, connection] of connections) {
        const last = connection.pending.at(-1);
        if (last) markLast(connection, last);
        else closeWhenIdle(socket, connection);
        goingAway(socket);
      }
      for (const socket of upgraded) goingAway(socket);
      for (const session of sessions) session.close();
      for (const req of http2Requests) goingAway(req.socket);
      return new Promise((resolve) => {
        const finish = (closedOnTheirOwn: boolean) => {
          clearTimeout(deadline);
          settled = undefined;
          for (const socket of [...connections.keys(), ...upgraded, ...accepted]) socket.destroy();
          for (const session of sessions) session.destroy();
          resolve(closedOnTheirOwn);
        };
        const deadline = setTimeout(() => finish(false), timeoutMs);
        settled = () => {
          if (connections.size === 0 && upgraded.size === 0 && accepted.size === 0 && sessions.size === 0) finish(true);
        };
        settled();
      });
    },
  };
}

/**
 * Closes the listener. node's `close()` also destroys at once every connection it sees as idle,
 * even one whose next request already sits unread in the socket (its client gets ECONNRESET):
 * the tracker closes idle connections itself, after the grace.
 */
function stopAccepting(server: Server | HttpsServer | Http2SecureServer | Http2Server): void {
  const closing = server as { closeIdleConnections?: () => void; close(): void };
  closing.closeIdleConnections = () => undefined;
  try {
    closing.close();
  } finally {
    Reflect.deleteProperty(server, 'closeIdleConnections');
  }
}

/** A new answer on a draining connection becomes the last one: an earlier one keeps the connection open for it. */
function keepAliveOnlyUntilLast(connection: Connection, res: ServerResponse): void {
  const previous = connection.pending.at(-1);
  if (previous && !previous.headersSent && connection.keepAlive !== undefined)
    previous.shouldKeepAlive = connection.keepAlive;
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
