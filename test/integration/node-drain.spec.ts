import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { buildSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import WebSocket, { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { createTenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { RawConnection } from '../support/raw-connection';
import { STREAMS_TYPE, streamsDocument } from '../support/stream-apis';
import { SseReader } from '../support/stream-clients';

interface OpenSocket {
  socket: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
}

function openSocket(url: string, protocol?: string): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocol);
    const messages: string[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() }));
    });
    socket.on('message', (data) => messages.push(data.toString()));
    socket.once('open', () => resolve({ socket, messages, closed }));
    socket.once('error', reject);
  });
}

/** A subscription that sends one value, then stays open until the gateway stops it. */
function endlessSchema(onStopped: () => void) {
  const schema = buildSchema('type Query { hello: String! } type Subscription { ticks: Int! }');
  const ticks = schema.getSubscriptionType()!.getFields().ticks;
  ticks.subscribe = () => {
    let stop: () => void = () => undefined;
    const stopped = new Promise<IteratorResult<unknown>>((resolve) => {
      stop = () => resolve({ value: undefined, done: true });
    });
    let sent = false;
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next: () => (sent ? stopped : ((sent = true), Promise.resolve({ value: { ticks: 1 }, done: false }))),
      return: () => {
        onStopped();
        stop();
        return stopped;
      },
    };
  };
  return schema;
}

/**
 * What a stopping node does with the connections it holds (app/main.ts runs `node.stop()` on
 * SIGTERM and SIGINT alike; test/integration/graceful-shutdown.spec.ts sends it the signals).
 */
describe('draining a node', function () {
  this.timeout(60_000);
  let node: TestNode | undefined;
  let stopped: Promise<void> | undefined;
  /** what SIGTERM runs: drains the ports, then stops the services (once) */
  const stop = () => (stopped ??= node!.stop());
  const connections: RawConnection[] = [];

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.destroy();
    if (node) await stop();
    if (node) removeDir(node.dataDir);
    node = undefined;
    stopped = undefined;
  });

  /** Opens `count` kept-alive connections to the gateway port, each with one request answered. */
  async function keptAlive(gatewayUrl: string, count: number): Promise<RawConnection[]> {
    const opened = Array.from({ length: count }, () => new RawConnection(gatewayUrl));
    connections.push(...opened);
    await Promise.all(opened.map((c) => c.ready));
    for (const c of opened) c.send('/hello');
    await eventually(() => assert.ok(opened.every((c) => c.responses().length === 1)), 5000);
    assert.ok(opened.every((c) => c.responses()[0].headers.connection === 'keep-alive'));
    return opened;
  }

  it('answers, with Connection: close, a request sent on an idle kept-alive connection before the drain', async () => {
    node = await startTestNode({ shutdownTimeout: 20 });
    const idle = await keptAlive(node.gatewayUrl, 10);
    // Written before the listener closes; the gateway has not read them yet when it drains.
    for (const c of idle) c.send('/hello');
    const stopping = stop();
    await Promise.all(idle.map((c) => c.gone));
    for (const [i, c] of idle.entries()) {
      assert.equal(c.error, undefined, `connection ${i} broke: ${c.error?.code}`);
      const answers = c.responses().map((r) => [r.status, r.headers.connection]);
      assert.deepEqual(
        answers,
        [
          [200, 'keep-alive'],
          [200, 'close'],
        ],
        `connection ${i}`,
      );
    }
    await stopping;
  });

  it('answers every request of clients sending in a tight loop on kept-alive connections', async () => {
    node = await startTestNode({ shutdownTimeout: 20 });
    const clients = await keptAlive(node.gatewayUrl, 8);
    let stopping: Promise<void> | undefined;
    let answered = 0;
    for (const c of clients) {
      // A well-behaved client: the next request once the previous answer is whole, none after
      // `Connection: close`.
      c.onData(() => {
        const responses = c.responses();
        if (responses.length !== c.sent || c.closed) return;
        answered++;
        if (responses.at(-1)!.headers.connection === 'close') return;
        c.send('/hello');
        // The drain begins right after a request was written, the others are at any point of theirs.
        if (answered >= 40 && !stopping) stopping = stop();
      });
      c.send('/hello');
    }
    await Promise.all(clients.map((c) => c.gone));
    assert.ok(stopping, 'the drain began');
    for (const [i, c] of clients.entries()) {
      assert.equal(c.error, undefined, `connection ${i} broke: ${c.error?.code}`);
      assert.equal(c.responses().length, c.sent, `connection ${i}: every request written was answered`);
      assert.ok(c.responses().every((r) => r.status === 200));
      assert.equal(c.responses().at(-1)!.headers.connection, 'close', `connection ${i}`);
    }
    await stopping;
  });

  describe('long-lived exchanges', () => {
    let upstream: Server;
    let upstreamUrl: string;
    let subscriptionsStopped = 0;
    /** the upstream's side of the tunnel and of the proxied event stream, once closed */
    const tunnelsClosed: string[] = [];

    before(async () => {
      const graphqlServer = new WebSocketServer({ noServer: true });
      useServer({ schema: endlessSchema(() => subscriptionsStopped++) }, graphqlServer);
      const echo = new WebSocketServer({ noServer: true });
      echo.on('connection', (socket) => {
        socket.on('message', (data) => socket.send(data.toString()));
        socket.on('close', (code) => tunnelsClosed.push(`tunnel ${code}`));
      });
      upstream = createServer((req, res) => {
        if (!req.url?.startsWith('/events')) return void res.writeHead(200).end('upstream');
        // an event stream with no end of its own
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('data: one\n\n');
        res.on('close', () => tunnelsClosed.push('event stream'));
      });
      upstream.on('upgrade', (req, socket, head) => {
        const target = req.url?.startsWith('/graphql') ? graphqlServer : echo;
        target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
      });
      upstreamUrl = `http://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;
    });
    after(() => close(upstream));

    it('closes WebSockets and tunnels (1001) and ends event streams at once, before GW_SHUTDOWN_TIMEOUT', async () => {
      node = await startTestNode({ shutdownTimeout: 20 });
      const gatewayUrl = node.gatewayUrl;
      const gwHeaders = node.gwHeaders;
      /** a keyless API on the upstream's `path` */
      const proxied = async (id: string, path: string, more: Record<string, unknown> = {}) => {
        const proxy = { listen_path: `/${id}/`, target_url: `${upstreamUrl}${path}`, strip_listen_path: true };
        const body = { api_id: id, name: id, use_keyless: true, proxy, ...more };
        const created = await http(`${gatewayUrl}/gw/apis`, { method: 'POST', headers: gwHeaders, body });
        assert.equal(created.status, 200, created.text);
      };
      const schema = 'type Query { hello: String! } type Subscription { ticks: Int! }';
      const subscriptions = { subscription_type: 'graphql-transport-ws' };
      const proxyOnly = { enabled: true, execution_mode: 'proxyOnly', schema, proxy: subscriptions };
      await proxied('graphql', '/graphql', { graphql: proxyOnly });
      await proxied('echo', '/echo');
      await proxied('events', '/events');
      const tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Drain');
      const streams = {
        live: {
          input: { http_server: { path: '/in', ws_path: '/in-ws' } },
          output: { http_server: { stream_path: '/sse', ws_path: '/ws' } },
        },
      };
      const created = await http(`${node.dashboardUrl}/api/apis/streams`, {
        method: 'POST',
        headers: { ...tenant.headers, ...STREAMS_TYPE },
        body: JSON.stringify(streamsDocument('Live', '/live/', streams)),
      });
      assert.equal(created.status, 200, created.text);
      const ws = (path: string, protocol?: string) =>
        openSocket(`${gatewayUrl.replace('http', 'ws')}${path}`, protocol);
      await eventually(async () => assert.equal((await http(`${gatewayUrl}/echo/`)).status, 200), 5000);
      await eventually(async () => assert.notEqual((await http(`${gatewayUrl}/live/nothing-here`)).status, 404), 5000);

      const subscription = await ws('/graphql/', 'graphql-transport-ws');
      subscription.socket.send(JSON.stringify({ type: 'connection_init' }));
      const subscribe = { id: '1', type: 'subscribe', payload: { query: 'subscription { ticks }' } };
      subscription.socket.send(JSON.stringify(subscribe));
      const types = () => subscription.messages.map((m) => JSON.parse(m).type);
      await eventually(() => assert.deepEqual(types(), ['connection_ack', 'next']), 5000);
      const echoed = await ws('/echo/');
      echoed.socket.send('hi');
      await eventually(() => assert.deepEqual(echoed.messages, ['hi']), 5000);
      const events = await SseReader.open(`${node.gatewayUrl}/live/sse`);
      assert.equal(events.status, 200);
      const relayed = await SseReader.open(`${node.gatewayUrl}/events/`);
      assert.deepEqual(await relayed.waitFor(1), ['one']);
      const output = await ws('/live/ws');
      const input = await ws('/live/in-ws');

      const stopping = Date.now();
      await stop();
      const took = Date.now() - stopping;
      assert.ok(took < 5000, `stopped after ${took} ms (GW_SHUTDOWN_TIMEOUT is 20 s)`);

      assert.equal((await subscription.closed).code, 1001);
      await eventually(() => assert.equal(subscriptionsStopped, 1, 'the upstream subscription stopped'), 2000);
      assert.equal((await output.closed).code, 1001);
      assert.equal((await input.closed).code, 1001);
      await events.finished;
      assert.equal((await echoed.closed).code, 1001);
      await relayed.finished;
      await eventually(() => assert.deepEqual(tunnelsClosed.sort(), ['event stream', 'tunnel 1001']), 2000);
    });
  });
});
