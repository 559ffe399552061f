import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const SDL = `
  type Query { hello: String! }
  type Subscription { countdown(from: Int!): Int! }
`;

/** A GraphQL upstream that names itself in every answer and records the paths it was called on. */
async function namedUpstream(name: string, paths: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    paths.push(`${name} ${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { hello: name } }));
    });
  });
  // the legacy graphql-ws protocol: one value naming the server, then complete
  const sockets = new WebSocketServer({ noServer: true });
  sockets.on('connection', (socket) => {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
      if (message.type === 'start') {
        socket.send(
          JSON.stringify({ id: message.id, type: 'data', payload: { data: { countdown: name === 'a' ? 1 : 2 } } }),
        );
        socket.send(JSON.stringify({ id: message.id, type: 'complete' }));
      }
    });
  });
  server.on('upgrade', (req, socket, head) => {
    paths.push(`${name} WS ${req.url}`);
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });
  return { server, url: `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}` };
}

/** proxy.enable_load_balancing on a proxy-only GraphQL API: operations, persisted queries and subscriptions. */
describe('GraphQL proxy-only APIs with load balancing', function () {
  this.timeout(20_000);
  let node: TestNode;
  const upstreams: Server[] = [];
  const paths: string[] = [];
  const clients: Client[] = [];

  before(async () => {
    const a = await namedUpstream('a', paths);
    const b = await namedUpstream('b', paths);
    upstreams.push(a.server, b.server);
    node = await startTestNode();
    const res = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: {
        api_id: 'lbgraph',
        name: 'lbgraph',
        use_keyless: true,
        proxy: {
          listen_path: '/lbgraph',
          target_url: `${a.url}/graphql-a`,
          strip_listen_path: true,
          enable_load_balancing: true,
          target_list: [`${a.url}/graphql-a`, `${b.url}/graphql-b`],
        },
        graphql: {
          enabled: true,
          execution_mode: 'proxyOnly',
          schema: SDL,
          proxy: { subscription_type: 'graphql-ws' },
        },
        version_data: {
          not_versioned: true,
          default_version: 'Default',
          versions: {
            Default: {
              name: 'Default',
              use_extended_paths: true,
              extended_paths: {
                persist_graphql: [{ method: 'GET', path: '/hello', operation: '{ hello }', variables: {} }],
              },
            },
          },
        },
      },
    });
    assert.equal(res.status, 200, res.text);
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/lbgraph/hello`)).status, 200), 5000);
  });
  after(async () => {
    for (const c of clients) await c.dispose();
    await node.stop();
    for (const server of upstreams) await close(server);
    removeDir(node.dataDir);
  });

  it('sends operations to each target in turn, on that target’s path', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await http(`${node.gatewayUrl}/lbgraph`, { method: 'POST', body: { query: '{ hello }' } });
      assert.equal(res.status, 200, res.text);
      names.add(res.json.data.hello);
    }
    assert.deepEqual([...names].sort(), ['a', 'b']);
    assert.ok(paths.includes('a POST /graphql-a') && paths.includes('b POST /graphql-b'), paths.join('\n'));
  });

  it('sends persisted queries to each target in turn, on that target’s path', async () => {
    paths.length = 0;
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) names.add((await http(`${node.gatewayUrl}/lbgraph/hello`)).json.data.hello);
    assert.deepEqual([...names].sort(), ['a', 'b']);
    assert.deepEqual([...new Set(paths)].sort(), ['a POST /graphql-a', 'b POST /graphql-b']);
  });

  it('opens subscriptions on each target in turn', async () => {
    paths.length = 0;
    const values = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const client = createClient({
        url: `${node.gatewayUrl.replace('http', 'ws')}/lbgraph`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
      });
      clients.push(client);
      const value = await new Promise<number>((resolve, reject) => {
        client.subscribe<{ countdown: number }>(
          { query: 'subscription { countdown(from: 1) }' },
          { next: (v) => resolve(v.data!.countdown), error: reject, complete: () => undefined },
        );
      });
      values.add(value);
    }
    assert.deepEqual([...values].sort(), [1, 2]);
    assert.deepEqual([...new Set(paths)].sort(), ['a WS /graphql-a', 'b WS /graphql-b']);
  });
});
