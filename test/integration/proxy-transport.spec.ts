import { strict as assert } from 'node:assert';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { Readable } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/** A raw node:http request, for what fetch hides (HEAD, 1xx, chunking, aborts). */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Readable | string },
): Promise<{ res: IncomingMessage; body: Buffer; informational: number[] }> {
  return new Promise((resolve, reject) => {
    const informational: number[] = [];
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks), informational }));
      res.on('error', reject);
    });
    req.on('information', (info) => informational.push(info.statusCode));
    req.on('error', reject);
    if (options.body instanceof Readable) options.body.pipe(req);
    else req.end(options.body);
  });
}

describe('proxy: transport', function () {
  this.timeout(60_000);
  let gw: GatewayFixture;
  let special: Server;
  let specialUrl: string;
  let connectionsSeen = 0;
  let upstreamAborts = 0;
  /** what the upstream has sent of the download, and received of the upload, so far */
  const transfer = { downloadSent: 0, uploadReceived: 0 };

  before(async () => {
    gw = await startGatewayFixture({ proxyTimeout: 2 });
    // An upstream with routes for each transport case.
    special = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/download': {
          const size = Number(url.searchParams.get('mb')) * 1024 * 1024;
          const chunk = Buffer.alloc(64 * 1024, 'x');
          let sent = 0;
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
          const pump = () => {
            while (sent < size) {
              sent += chunk.length;
              transfer.downloadSent = sent;
              if (!res.write(chunk)) return res.once('drain', pump);
            }
            res.end();
          };
          return pump();
        }
        case '/upload': {
          let bytes = 0;
          req.on('data', (c: Buffer) => (transfer.uploadReceived = bytes += c.length));
          return req.on('end', () =>
            res.end(JSON.stringify({ bytes, chunked: req.headers['transfer-encoding'] === 'chunked' })),
          );
        }
        case '/chunked':
          res.write('part one, ');
          return setTimeout(() => res.end('part two'), 20);
        case '/no-content':
          res.writeHead(204, { 'x-empty': 'yes' });
          return res.end();
        case '/not-modified':
          res.writeHead(304, { etag: '"v1"' });
          return res.end();
        case '/slow':
          return setTimeout(() => res.end('too late'), 4000);
        case '/hang-then-abort-watch':
          req.on('close', () => upstreamAborts++);
          return undefined;
        case '/headers':
          res.writeHead(200, {
            'content-type': 'application/json',
            connection: 'keep-alive',
            'keep-alive': 'timeout=5',
            'x-keep': 'me',
          });
          return res.end(JSON.stringify(req.headers));
        case '/raw': {
          // Every byte value (not valid UTF-8), two Set-Cookie lines, a header scoped to the connection.
          const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
          res.setHeader('set-cookie', ['a=1', 'b=2']);
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': bytes.length,
            connection: 'keep-alive, x-hop',
            'x-hop': 'upstream only',
            'X-Mixed-Case': 'kept',
          });
          return res.end(bytes);
        }
        default:
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
          return res.end('ok');
      }
    });
    special.on('connection', () => connectionsSeen++);
    specialUrl = `http://127.0.0.1:${await listen(special, 0, '127.0.0.1')}`;
    // The 200 MB transfers get their own hard timeout: the gateway default of this fixture (2 s)
    // is for the timeout tests, and a busy machine can take longer to move 200 MB.
    const bigTransfers = [
      { path: '/download', method: 'GET', timeout: 60 },
      { path: '/upload', method: 'POST', timeout: 60 },
    ];
    await gw.addApi(
      apiDefinition('t', '/t', specialUrl, {
        version_data: singleVersion({ use_extended_paths: true, extended_paths: { hard_timeouts: bigTransfers } }),
      }),
    );
  });
  after(async () => {
    await gw.stop();
    await close(special);
  });

  it('streams a 200 MB download and a 200 MB upload without buffering them', async () => {
    // What the gateway holds is what one side has sent and the other not yet received (its
    // buffers, and the sockets'): a gateway that buffered a body would hold up to 200 MB of it.
    // Counted in bytes, not process memory, which the rest of the suite shares.
    let mostInFlight = 0;
    const inFlight = (sent: number, received: number) => (mostInFlight = Math.max(mostInFlight, sent - received));
    transfer.downloadSent = 0;
    const download = await new Promise<number>((resolve, reject) => {
      request(`${gw.node.gatewayUrl}/t/download?mb=200`, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          inFlight(transfer.downloadSent, bytes);
        });
        res.on('end', () => resolve(bytes));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(download, 200 * 1024 * 1024);
    const chunk = Buffer.alloc(64 * 1024, 'y');
    let produced = 0;
    transfer.uploadReceived = 0;
    const body = new Readable({
      read() {
        inFlight(produced, transfer.uploadReceived);
        produced += chunk.length;
        this.push(produced > 200 * 1024 * 1024 ? null : chunk);
      },
    });
    const upload = await rawRequest(`${gw.node.gatewayUrl}/t/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body,
    });
    assert.deepEqual(JSON.parse(upload.body.toString()), { bytes: 200 * 1024 * 1024, chunked: true });
    const mostInFlightMb = mostInFlight / 1024 / 1024;
    assert.ok(mostInFlightMb < 32, `up to ${mostInFlightMb.toFixed(1)} MB were between the two sides at once`);
  });

  it('passes a chunked response through as it arrives', async () => {
    const { res, body } = await rawRequest(`${gw.node.gatewayUrl}/t/chunked`, {});
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(body.toString(), 'part one, part two');
  });

  it('answers HEAD with the headers and no body', async () => {
    const { res, body } = await rawRequest(`${gw.node.gatewayUrl}/t/anything`, { method: 'HEAD' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-length'], '2');
    assert.equal(body.length, 0);
  });

  it('passes 204 and 304 through without a body', async () => {
    const noContent = await rawRequest(`${gw.node.gatewayUrl}/t/no-content`, {});
    assert.equal(noContent.res.statusCode, 204);
    assert.equal(noContent.res.headers['x-empty'], 'yes');
    const notModified = await rawRequest(`${gw.node.gatewayUrl}/t/not-modified`, {
      headers: { 'if-none-match': '"v1"' },
    });
    assert.equal(notModified.res.statusCode, 304);
    assert.equal(notModified.res.headers.etag, '"v1"');
    assert.equal(notModified.body.length, 0);
  });

  it('answers Expect: 100-continue and then proxies the body', async () => {
    const result = await new Promise<{ informational: number[]; body: string }>((resolve, reject) => {
      const informational: number[] = [];
      const req = request(
        `${gw.node.gatewayUrl}/t/upload`,
        { method: 'POST', headers: { expect: '100-continue', 'content-length': '5' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ informational, body }));
        },
      );
      req.on('continue', () => {
        informational.push(100);
        req.end('hello');
      });
      req.on('error', reject);
    });
    assert.deepEqual(result.informational, [100]);
    assert.deepEqual(JSON.parse(result.body), { bytes: 5, chunked: false });
  });

  it('reuses pooled keep-alive connections to the upstream', async () => {
    const before = connectionsSeen;
    for (let i = 0; i < 20; i++) assert.equal((await gw.call('/t/ping')).status, 200);
    assert.ok(
      connectionsSeen - before <= 2,
      `opened ${connectionsSeen - before} upstream connections for 20 sequential requests`,
    );
  });

  it('adds X-Forwarded-*, drops hop-by-hop headers both ways, and sets Host to the target', async () => {
    const { res, body } = await rawRequest(`${gw.node.gatewayUrl}/t/headers?q=a%2Fb`, {
      headers: {
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': '1',
        'keep-alive': 'timeout=1',
        'x-forwarded-for': '198.51.100.7',
        te: 'trailers',
      },
    });
    const seen = JSON.parse(body.toString());
    assert.equal(seen.host, new URL(specialUrl).host);
    assert.equal(seen['x-forwarded-for'], '198.51.100.7, 127.0.0.1');
    assert.equal(seen['x-forwarded-proto'], 'http');
    assert.equal(seen['x-forwarded-host'], new URL(gw.node.gatewayUrl).host);
    assert.equal(seen['x-drop-me'], undefined);
    assert.equal(seen.te, undefined);
    assert.notEqual(
      res.headers['keep-alive'],
      'timeout=5',
      "the upstream's keep-alive header is not relayed (the gateway sends its own)",
    );
    assert.equal(res.headers['x-keep'], 'me');
  });

  it('relays a small binary body byte for byte, repeated headers each, and drops a header the upstream scoped to its connection', async () => {
    const { res, body } = await rawRequest(`${gw.node.gatewayUrl}/t/raw`, {});
    assert.deepEqual(
      [...body],
      Array.from({ length: 256 }, (_, i) => i),
    );
    assert.equal(res.headers['content-length'], '256');
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
    assert.equal(res.headers['x-mixed-case'], 'kept');
    assert.equal(res.headers['x-hop'], undefined);
  });

  it('keeps the client Host when the API preserves it', async () => {
    await gw.addApi(
      apiDefinition('host', '/host', specialUrl, {
        proxy: { listen_path: '/host', target_url: specialUrl, strip_listen_path: true, preserve_host_header: true },
      }),
    );
    const { body } = await rawRequest(`${gw.node.gatewayUrl}/host/headers`, { headers: { host: 'api.example.test' } });
    assert.equal(JSON.parse(body.toString()).host, 'api.example.test');
  });

  it('answers 504 when the upstream is slower than the gateway timeout', async () => {
    const started = Date.now();
    const res = await gw.call('/t/slow');
    assert.equal(res.status, 504);
    assert.deepEqual(res.json, { error: 'Upstream service reached hard timeout.' });
    assert.ok(Date.now() - started < 3500);
  });

  it('applies a per-endpoint hard timeout', async () => {
    await gw.addApi(
      apiDefinition('timeouts', '/timeouts', specialUrl, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: { hard_timeouts: [{ path: '/slow', method: 'GET', timeout: 1 }] },
        }),
      }),
    );
    const started = Date.now();
    assert.equal((await gw.call('/timeouts/slow')).status, 504);
    assert.ok(Date.now() - started < 1900, `took ${Date.now() - started} ms`);
  });

  it('aborts the upstream request when the client goes away', async () => {
    const before = upstreamAborts;
    await new Promise<void>((resolve) => {
      const req = request(`${gw.node.gatewayUrl}/t/hang-then-abort-watch`);
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 200);
    });
    for (let i = 0; i < 50 && upstreamAborts === before; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(upstreamAborts, before + 1);
  });

  describe('broken upstreams', () => {
    let garbage: TcpServer;
    let garbageUrl: string;
    before(async () => {
      garbage = createTcpServer((socket) => {
        socket.once('data', () => {
          socket.end('this is not HTTP\r\n\r\n');
        });
      });
      await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
      garbageUrl = `http://127.0.0.1:${(garbage.address() as { port: number }).port}`;
      await gw.addApi(apiDefinition('garbage', '/garbage', garbageUrl));
      await gw.addApi(apiDefinition('refused', '/refused', 'http://127.0.0.1:9'));
    });
    after(() => new Promise<void>((resolve) => garbage.close(() => resolve())));

    it('answers 502 to a response that is not HTTP, and keeps serving', async () => {
      const res = await gw.call('/garbage/x');
      assert.equal(res.status, 502);
      assert.deepEqual(res.json, { error: 'There was a problem proxying the request' });
      assert.equal((await gw.call('/t/ping')).status, 200);
    });

    it('answers 502 when the connection is refused', async () => {
      assert.equal((await gw.call('/refused/x')).status, 502);
    });
  });

  describe('WebSocket pass-through', () => {
    let wss: WebSocketServer;
    let wsServer: Server;
    before(async () => {
      wsServer = createServer((_req, res) => res.end('plain http'));
      wss = new WebSocketServer({ server: wsServer });
      wss.on('connection', (socket, req) => {
        socket.send(`welcome to ${req.url}`);
        socket.on('message', (data) => socket.send(`echo: ${data.toString()}`));
      });
      const port = await listen(wsServer, 0, '127.0.0.1');
      await gw.addApi(apiDefinition('ws', '/ws', `http://127.0.0.1:${port}`));
      await gw.addApi(apiDefinition('ws-locked', '/ws-locked', `http://127.0.0.1:${port}`, { use_keyless: false }));
    });
    after(async () => {
      wss.close();
      await close(wsServer);
    });

    it('proxies the upgrade and messages both ways', async () => {
      const socket = new WebSocket(`${gw.node.gatewayUrl.replace('http', 'ws')}/ws/chat?room=1`);
      const messages: string[] = [];
      await new Promise<void>((resolve, reject) => {
        socket.on('message', (data) => {
          messages.push(data.toString());
          if (messages.length === 1) socket.send('hello');
          if (messages.length === 2) resolve();
        });
        socket.on('error', reject);
      });
      socket.close();
      assert.deepEqual(messages, ['welcome to /chat?room=1', 'echo: hello']);
    });

    it('applies the API chain before upgrading: a protected API refuses the upgrade', async () => {
      const status = await new Promise<number>((resolve) => {
        const socket = new WebSocket(`${gw.node.gatewayUrl.replace('http', 'ws')}/ws-locked/chat`);
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('error', () => undefined);
      });
      assert.equal(status, 401);
    });
  });
});

/**
 * The most memory (heap and buffers) the process holds at once while it runs, sampled every
 * 100 ms after a full collection: garbage a collector has not reached yet, which resident
 * memory counts and which varies between Node lines, is left out; a body held whole is not.
 */
