import type { Server as HttpServer } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import { createServer, type Server as NetServer } from 'node:net';
import { OPTIONS, type OptionKey } from '../config/options';
import { addListeningPort, removeListeningPort } from '../net/own-ports';
import { StartupError, type SystemError } from '../startup-error';

type Server = HttpServer | HttpsServer | Http2SecureServer;

/**
 * Starts listening and resolves once bound (port 0 picks a free port). With `reusePort` several
 * threads of a node listen on one port and the kernel spreads the connections (Linux, FreeBSD).
 */
export function listen(server: NetServer, port: number, host: string, reusePort = false): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, reusePort }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * `listen` for a server of the node itself (gateway, HTTPS, dashboard) on the port of `setting`:
 * its port joins the node's own ports, which no call made on a tenant's behalf may reach
 * (lib/net/own-ports.ts). A port it cannot have fails the start with a line naming the setting.
 */
export async function listenAsNode(
  server: Server,
  port: number,
  host: string,
  setting: OptionKey,
  reusePort = false,
): Promise<number> {
  const bound = await listen(server, port, host, reusePort).catch((err: SystemError) => {
    throw explainListenFailure(err, OPTIONS[setting].env, port, host);
  });
  addListeningPort(bound);
  // however the server ends up closed (drained at shutdown, or by close below)
  server.once('close', () => removeListeningPort(bound));
  return bound;
}

/** Stops accepting connections, lets in-flight requests finish, then closes idle keep-alive sockets. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // (an HTTP/2 server closes its sessions itself: they finish their streams)
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}

/**
 * Before any service starts: can the node have the port of `setting`? A port it can not have
 * fails the start at once, with one line, rather than after the other services have started.
 * Port 0 still checks GW_HOST. (`listenAsNode` still explains a port taken in between.)
 */
export async function checkPortFree(port: number, host: string, setting: OptionKey): Promise<void> {
  const probe = createServer();
  await listen(probe, port, host).catch((err: SystemError) => {
    throw explainListenFailure(err, OPTIONS[setting].env, port, host);
  });
  await new Promise((resolve) => probe.close(resolve));
}

/** Why a node's port could not be opened, and what to do about it. */
export function explainListenFailure(err: SystemError, setting: string, port: number, host: string): Error {
  const anyAddress = 'or 0.0.0.0 for all';
  switch (err.code) {
    case 'EADDRINUSE': {
      const hint = 'another gw running? stop it or choose another port';
      return new StartupError(`${setting} ${port} is in use (${hint})`, err);
    }
    case 'EACCES': {
      const hint = 'ports below 1024 need root or CAP_NET_BIND_SERVICE; choose a port above 1023';
      return new StartupError(`${setting} ${port}: permission denied (${hint})`, err);
    }
    case 'EADDRNOTAVAIL':
      return new StartupError(
        `GW_HOST ${host} is not an address of this machine (use one of its addresses, ${anyAddress})`,
        err,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(
        `GW_HOST ${host} is not a known host name (use an address of this machine, ${anyAddress})`,
        err,
      );
    default:
      return new StartupError(`${setting} ${port}: cannot listen on ${host} (${err.message})`, err);
  }
}
