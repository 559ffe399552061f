import type { Duplex } from 'node:stream';

/**
 * What a long-lived exchange (a WebSocket, an event stream) does when the server that accepted
 * its connection drains: say goodbye in its own protocol (a close frame 1001, the end of the
 * stream), so a stopping node does not wait for it until GW_SHUTDOWN_TIMEOUT. Kept per socket,
 * so the service that owns the exchange (graphql-engine, streams, the proxy's tunnels) needs
 * nothing but the socket it was handed.
 */
const farewells = new WeakMap<Duplex, () => void>();
/** sockets whose server is draining: an exchange that starts on one says goodbye at once */
const draining = new WeakSet<Duplex>();

/**
 * Registers `farewell` for the exchange on `socket`; it runs once, when the socket's server
 * drains (at once when it is draining already). Returns what takes it back (the exchange ended
 * and the connection may serve other requests).
 */
export function onGoingAway(socket: Duplex, farewell: () => void): () => void {
  if (draining.has(socket)) {
    farewell();
    return () => undefined;
  }
  farewells.set(socket, farewell);
  return () => {
    if (farewells.get(socket) === farewell) farewells.delete(socket);
  };
}

/** The socket's server drains: runs its farewell, if any. false when none was registered. */
export function goingAway(socket: Duplex): boolean {
  draining.add(socket);
  const farewell = farewells.get(socket);
  if (!farewell) return false;
  farewells.delete(socket);
  farewell();
  return true;
}
