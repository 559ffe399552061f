import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { createHandler as createSseHandler } from 'graphql-sse/lib/use/http';
import { createClient, type Client } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import WebSocket, { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const SDL = `
  type Query { hello: String! }
  type Subscription { countdown(from: Int!): Int! secret: String! }
`;

/** The test schema with its resolvers on the fields, so every server library runs it the same way. */
function schemaWithResolvers(): { schema: GraphQLSchema; stopped: string[] } {
  const stopped: string[] = [];
  const schema = buildSchema(SDL);
  schema.getQueryType()!.getFields().hello.resolve = () => 'world';
  const countdown = schema.getSubscriptionType()!.getFields().countdown;
  countdown.subscribe = async function* (_source: unknown, { from }: { from: number }) {
    try {
      for (let i = from; i > 0; i--) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        yield { countdown: i };
      }
    } finally {
      stopped.push(`countdown-${from}`);
    }
  };
  countdown.resolve = (payload: { countdown: number }) => payload.countdown;
  return { schema, stopped };
}

/** Collects a graphql-ws subscription until it completes or fails. */
function collect(client: Client, query: string): Promise<{ values: unknown[]; error?: unknown }> {
  return new Promise((resolve) => {
    const values: unknown[] = [];
    client.subscribe(
      { query },
      {
        next: (value) => values.push(value),
        error: (error) => resolve({ values, error }),
        complete: () => resolve({ values }),
      },
    );
  });
}

/** A raw WebSocket to the gateway, for protocol-level cases the client library would not send. */
function raw(
  url: string,
  protocol: string,
): Promise<{
  socket: WebSocket;
  messages: Array<{ type: string; id?: string; payload?: unknown }>;
  closed: Promise<{ code: number; reason: string }>;
}> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocol);
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    socket.on('open', () => resolve({ socket, messages, closed }));
    socket.on('error', reject);
  });
}

describe('GraphQL subscriptions over WebSocket', function () {
  this.timeout(20_000);
  let node: TestNode;
  let upstream: Server;
  let upstreamUrl: string;
  const { schema, stopped } = schemaWithResolvers();
  const clients: Client[] = [];
  const gwWs = (path: string) => `${node.gatewayUrl.replace('http', 'ws')}${path}`;
  const client = (path: string) => {
    const c = createClient({ url: gwWs(path), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    clients.push(c);
    return c;
  };

  before(async () => {
    // One upstream speaking all three: graphql-transport-ws (graphql-ws library), the legacy
    // graphql-ws protocol (a minimal implementation here) and graphql-sse.
    const sse = createSseHandler({ schema });
    upstream = createServer((req, res) => {
      if (req.url?.startsWith('/sse')) return void sse(req, res);
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        const { query, variables } = JSON.parse(body || '{}');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(await graphql({ schema, source: query, variableValues: variables })));
      });
    });
    const modern = new WebSocketServer({ noServer: true });
    useServer({ schema }, modern);
    const legacy = new WebSocketServer({ noServer: true });
    legacy.on('connection', (socket) => {
      socket.on('message', async (data) => {
        const message = JSON.parse(data.toString());
        if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (message.type === 'start') {
          for (const value of [30, 20, 10])
            socket.send(JSON.stringify({ id: message.id, type: 'data', payload: { data: { countdown: value } } }));
          socket.send(JSON.stringify({ id: message.id, type: 'complete' }));
        }
      });
    });
    const dropping = new WebSocketServer({ noServer: true });
    dropping.on('connection', (socket) => socket.on('message', () => setTimeout(() => socket.terminate(), 50)));
    upstream.on('upgrade', (req, socket, head) => {
      const target = req.url === '/legacy' ? legacy : req.url === '/dropping' ? dropping : modern;
      target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
    });
    upstreamUrl = `http://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;

    node = await startTestNode({ graphqlWsInitTimeout: 0.3 });
    const gw = (body: unknown) => http(`${node.gatewayUrl}/gw/apis`, { method: 'POST', headers: node.gwHeaders, body });
    const api = (id: string, target: string, subscriptionType: string) => ({
      api_id: id,
      name: id,
      use_keyless: true,
      proxy: { listen_path: `/${id}`, target_url: `${upstreamUrl}${target}`, strip_listen_path: true },
      graphql: {
        enabled: true,
        execution_mode: 'proxyOnly',
        schema: SDL,
        proxy: { subscription_type: subscriptionType },
      },
    });
    for (const [id, target, type] of [
      ['modern', '/graphql', 'graphql-transport-ws'],
      ['legacy', '/legacy', 'graphql-ws'],
      ['sse', '/sse', 'sse'],
      ['dropping', '/dropping', 'graphql-transport-ws'],
    ]) {
      assert.equal((await gw(api(id, target, type))).status, 200);
    }
  });
  after(async () => {
    for (const c of clients) await c.dispose();
    await node.stop();
    await close(upstream);
    removeDir(node.dataDir);
  });

  it('streams a subscription from a graphql-transport-ws upstream until it completes', async () => {
    const { values, error } = await collect(client('/modern'), 'subscription { countdown(from: 3) }');
    assert.equal(error, undefined);
    assert.deepEqual(values, [{ data: { countdown: 3 } }, { data: { countdown: 2 } }, { data: { countdown: 1 } }]);
  });

  it('answers a query over the WebSocket, then completes it', async () => {
    const { values } = await collect(client('/modern'), '{ hello }');
    assert.deepEqual(values, [{ data: { hello: 'world' } }]);
  });

  it('stops the upstream operation when the client completes it', async () => {
    const c = client('/modern');
    await new Promise<void>((resolve) => {
      const unsubscribe = c.subscribe(
        { query: 'subscription { countdown(from: 100) }' },
        { next: () => (unsubscribe(), resolve()), error: () => undefined, complete: () => undefined },
      );
    });
    await eventually(() => assert.ok(stopped.includes('countdown-100')), 2000);
  });

  it('refuses an invalid operation with an error message, without closing the connection', async () => {
    const c = client('/modern');
    const { error } = await collect(c, 'subscription { nope }');
    assert.match(JSON.stringify(error), /Cannot query field \\"nope\\" on type \\"Subscription\\"/);
    const { values } = await collect(c, '{ hello }');
    assert.deepEqual(values, [{ data: { hello: 'world' } }]);
  });

  it('reads a graphql-sse upstream and a legacy graphql-ws upstream', async () => {
    assert.deepEqual((await collect(client('/sse'), 'subscription { countdown(from: 2) }')).values, [
      { data: { countdown: 2 } },
      { data: { countdown: 1 } },
    ]);
    assert.deepEqual((await collect(client('/legacy'), 'subscription { countdown(from: 3) }')).values, [
      { data: { countdown: 30 } },
      { data: { countdown: 20 } },
      { data: { countdown: 10 } },
    ]);
  });

  it('ends the operation with an error when the upstream drops, rather than hanging', async () => {
    const { error } = await collect(client('/dropping'), 'subscription { countdown(from: 5) }');
    assert.ok(error, 'the client got an error');
  });

  it('speaks the legacy graphql-ws protocol to clients: start, data, complete', async () => {
    const { socket, messages } = await raw(gwWs('/modern'), 'graphql-ws');
    socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    socket.send(JSON.stringify({ id: 'a', type: 'start', payload: { query: 'subscription { countdown(from: 2) }' } }));
    await eventually(() => assert.deepEqual(messages.at(-1), { id: 'a', type: 'complete' }), 3000);
    assert.deepEqual(
      messages.map((m) => m.type),
      ['connection_ack', 'data', 'data', 'complete'],
    );
    socket.close();
  });

  describe('protocol rules', () => {
    it('closes a connection without connection_init after the timeout (4408)', async () => {
      const { closed } = await raw(gwWs('/modern'), 'graphql-transport-ws');
      const { code } = await closed;
      assert.equal(code, 4408);
    });

    it('closes on an operation id already in use (4409)', async () => {
      const { socket, closed } = await raw(gwWs('/modern'), 'graphql-transport-ws');
      socket.send(JSON.stringify({ type: 'connection_init' }));
      socket.send(
        JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { countdown(from: 50) }' } }),
      );
      socket.send(
        JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { countdown(from: 50) }' } }),
      );
      assert.equal((await closed).code, 4409);
    });

    it('closes on a message of an invalid type (4400)', async () => {
      const { socket, closed } = await raw(gwWs('/modern'), 'graphql-transport-ws');
      socket.send(JSON.stringify({ type: 'connection_init' }));
      socket.send(JSON.stringify({ type: 'shout' }));
      assert.equal((await closed).code, 4400);
    });

    it('refuses an upgrade without a GraphQL subprotocol', async () => {
      const status = await new Promise<number>((resolve) => {
        const socket = new WebSocket(gwWs('/modern'));
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('error', () => undefined);
      });
      assert.equal(status, 400);
    });
  });
});
