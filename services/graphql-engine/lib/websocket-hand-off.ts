import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { onGoingAway } from '../../../lib/http/going-away';
import type { Session } from '../../../contracts/keys/session';
import type { GraphqlGate } from './graphql-gate';
import { runSubscriptionSession, type ClientProtocol, type OperationRunner } from './subscription-session';

/** One WebSocket server for every GraphQL API of the process; the gateway's HTTP server owns the port. */
const server = new WebSocketServer({
  noServer: true,
  handleProtocols: (protocols) => pickProtocol(protocols) ?? false,
});

/** The subprotocol a client offers that gw speaks, preferring the maintained one. */
export function pickProtocol(offered: Set<string> | string | undefined): ClientProtocol | undefined {
  const set =
    typeof offered === 'string' ? new Set(offered.split(',').map((p) => p.trim())) : (offered ?? new Set<string>());
  if (set.has('graphql-transport-ws')) return 'graphql-transport-ws';
  if (set.has('graphql-ws')) return 'graphql-ws';
  return undefined;
}

/**
 * The in-process hand-off from proxy to the GraphQL engine: the upgrade request has passed the
 * API's chain (version, IP rules, authentication, limits); the engine takes the socket over.
 */
export function acceptSubscriptions(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  options: { gate: GraphqlGate; session: Session | undefined; run: OperationRunner; initTimeoutMs: number },
): void {
  const protocol = pickProtocol(req.headers['sec-websocket-protocol'])!;
  server.handleUpgrade(req, socket, head, (client) => {
    runSubscriptionSession(client, protocol, options);
    // A draining gateway closes the socket as a stopping graphql-ws server does (1001); the
    // session then stops its operations.
    onGoingAway(socket, () => client.close(1001, 'Going away'));
  });
}
