import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { addListeningPort, removeListeningPort } from '../net/own-ports';

type Server = HttpServer | HttpsServer;

/** Starts listening and resolves once bound (port 0 picks a free port). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * `listen` for a server of the node itself (gateway, HTTPS, dashboard): its port joins the
 * node's own ports, which no call made on a tenant's behalf may reach (lib/net/own-ports.ts).
 */
export async function listenAsNode(server: Server, port: number, host: string): Promise<number> {
  const bound = await listen(server, port, host);
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
    server.closeIdleConnections();
  });
}
