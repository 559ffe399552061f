import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const SDL = 'type Query { hello: String! } type Subscription { countdown(from: Int!): Int! }';

interface Frame {
  type: string;
  id?: string;
  payload?: unknown;
}

/**
 * A legacy `graphql-ws` upstream that answers `start` with `error` and then keeps sending `data`
 * for the same id: the error ends the operation, so the client sees nothing more for that id
 * and the gateway lets go of the upstream operation.
 */
describe('GraphQL subscriptions: a legacy graphql-ws upstream sending data after its error', function () {
  this.timeout(20_000);
  let node: TestNode;
  let upstream: Server;
  const legacy = new WebSocketServer({ noServer: true });
  const upstreamClosed: Array<Promise<void>> = [];

  before(async () => {
    legacy.on('connection', (socket) => {
      upstreamClosed.push(new Promise((resolve) => socket.on('close', () => resolve())));
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Frame;
        if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (message.type !== 'start') return;
        // Sent in one go: the gateway reads them together, as it would from a busy upstream.
        const frame = (type: string, payload: unknown) =>
          socket.send(JSON.stringify({ id: message.id, type, payload }));
        frame('error', [{ message: 'countdown refused' }]);
        frame('data', { data: { countdown: 3 } });
        frame('data', { data: { countdown: 2 } });
      });
    });
    upstream = createServer((_req, res) => res.end());
    upstream.on('upgrade', (req, socket, head) =>
      legacy.handleUpgrade(req, socket, head, (ws) => legacy.emit('connection', ws, req)),
    );
    const upstreamUrl = `http://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;
    node = await startTestNode();
    const definition = {
      api_id: 'legacy-error-then-data',
      name: 'legacy-error-then-data',
      use_keyless: true,
      proxy: { listen_path: '/legacy-error-then-data', target_url: upstreamUrl, strip_listen_path: true },
      graphql: { enabled: true, execution_mode: 'proxyOnly', schema: SDL, proxy: { subscription_type: 'graphql-ws' } },
    };
    const created = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: definition,
    });
    assert.equal(created.status, 200, created.text);
  });
  after(async () => {
    await node.stop();
    for (const socket of legacy.clients) socket.terminate();
    upstream.closeAllConnections();
    await close(upstream);
    removeDir(node.dataDir);
  });

  it('relays the error and nothing after it for that id, and closes the upstream operation', async () => {
    const url = `${node.gatewayUrl.replace('http', 'ws')}/legacy-error-then-data`;
    const socket = new WebSocket(url, 'graphql-ws');
    const frames: Frame[] = [];
    const waiters: Array<{ type: string; resolve: () => void }> = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      frames.push(frame);
      for (const waiter of waiters.filter((w) => w.type === frame.type)) waiter.resolve();
    });
    const next = (type: string) => new Promise<void>((resolve) => waiters.push({ type, resolve }));
    await new Promise((resolve) => socket.once('open', resolve));
    const acked = next('connection_ack');
    socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    await acked;
    const failed = next('error');
    const payload = { query: 'subscription { countdown(from: 3) }' };
    socket.send(JSON.stringify({ id: 'op', type: 'start', payload }));
    await failed;
    // The gateway answers in order: whatever it relayed for `op` before this pong came before it.
    const ponged = next('pong');
    socket.send(JSON.stringify({ type: 'ping' }));
    await ponged;
    socket.close();
    assert.deepEqual(
      frames.filter((frame) => frame.id === 'op'),
      [{ id: 'op', type: 'error', payload: [{ message: 'countdown refused' }] }],
    );
    assert.equal(upstreamClosed.length, 1);
    await upstreamClosed[0];
  });
});
