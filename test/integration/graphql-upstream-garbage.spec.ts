import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const SDL = 'type Query { hello: String! } type Subscription { countdown(from: Int!): Int! }';

/**
 * Upstreams that answer a subscription with frames that are not JSON, or JSON of the wrong
 * shape: the operation ends with an error for the client, and the gateway keeps serving.
 */
describe('GraphQL subscriptions: an upstream sending garbage', function () {
  this.timeout(20_000);
  let node: TestNode;
  let upstream: Server;
  const clients: Client[] = [];
  const sockets: WebSocketServer[] = [];

  /** frames a legacy graphql-ws upstream sends after `start`, by path */
  const legacyFrames: Record<string, string[]> = {
    '/legacy-not-json': ['{"type":"data","payload":{"data":{"countdown":1}}}', 'this is not JSON'],
    '/legacy-null': ['null'],
    '/legacy-array': ['[1,2,3]'],
    '/legacy-no-type': ['{"payload":{}}'],
  };

  before(async () => {
    upstream = createServer((req, res) => {
      // graphql-sse: an event whose data is not JSON.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: next\ndata: {not json\n\n');
    });
    const legacy = new WebSocketServer({ noServer: true });
    const modern = new WebSocketServer({ noServer: true, handleProtocols: () => 'graphql-transport-ws' });
    sockets.push(legacy, modern);
    legacy.on('connection', (socket, req) => {
      socket.on('message', (data) => {
        const type = JSON.parse(data.toString()).type;
        if (type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (type === 'start') for (const frame of legacyFrames[req.url!]) socket.send(frame);
      });
    });
    modern.on('connection', (socket) => {
      socket.on('message', (data) => {
        const type = JSON.parse(data.toString()).type;
        if (type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (type === 'subscribe') socket.send('<html>not json</html>');
      });
    });
    upstream.on('upgrade', (req, socket, head) => {
      const target = req.url!.startsWith('/legacy') ? legacy : modern;
      target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
    });
    const upstreamUrl = `http://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;
    node = await startTestNode();
    const apis: Array<[string, string, string]> = [
      ...Object.keys(legacyFrames).map((path): [string, string, string] => [path.slice(1), path, 'graphql-ws']),
      ['modern-not-json', '/modern', 'graphql-transport-ws'],
      ['sse-not-json', '/sse', 'sse'],
    ];
    for (const [id, path, type] of apis) {
      const definition = {
        api_id: id,
        name: id,
        use_keyless: true,
        proxy: { listen_path: `/${id}`, target_url: `${upstreamUrl}${path}`, strip_listen_path: true },
        graphql: { enabled: true, execution_mode: 'proxyOnly', schema: SDL, proxy: { subscription_type: type } },
      };
      assert.equal(
        (await http(`${node.gatewayUrl}/gw/apis`, { method: 'POST', headers: node.gwHeaders, body: definition }))
          .status,
        200,
      );
    }
  });
  after(async () => {
    for (const c of clients) await c.dispose();
    await node.stop();
    for (const server of sockets) for (const socket of server.clients) socket.terminate();
    upstream.closeAllConnections();
    await close(upstream);
    removeDir(node.dataDir);
  });

  function subscribe(path: string): Promise<{ values: unknown[]; error?: unknown }> {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}${path}`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    return new Promise((resolve) => {
      const values: unknown[] = [];
      client.subscribe(
        { query: 'subscription { countdown(from: 3) }' },
        {
          next: (value) => values.push(value),
          error: (error) => resolve({ values, error }),
          complete: () => resolve({ values }),
        },
      );
    });
  }

  for (const [id, expected] of [
    ['legacy-not-json', [{ data: { countdown: 1 } }]],
    ['legacy-null', []],
    ['legacy-array', []],
    ['legacy-no-type', []],
    ['modern-not-json', []],
    ['sse-not-json', []],
  ] as Array<[string, unknown[]]>) {
    it(`${id}: the client gets an error, and the gateway keeps serving`, async () => {
      const { values, error } = await subscribe(`/${id}`);
      assert.deepEqual(values, expected);
      assert.ok(error, 'the operation ended with an error');
      assert.equal((await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders })).status, 200);
    });
  }

  it('closes a client connection that sends JSON of the wrong shape (4400), and keeps serving', async () => {
    for (const frame of ['null', '[1]', '42']) {
      const socket = new WebSocket(`${node.gatewayUrl.replace('http', 'ws')}/legacy-null`, 'graphql-transport-ws');
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(frame);
      assert.equal(await closed, 4400, `after ${frame}`);
    }
    assert.equal((await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders })).status, 200);
  });
});
