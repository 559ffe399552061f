import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, type IncomingHttpHeaders as Http1Headers, type IncomingMessage } from 'node:http';
import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createTestPki, type TestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { connectHttp2 } from '../support/http2-client';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/** What an HTTP/2 upstream saw of one request. */
interface Seen {
  headers: IncomingHttpHeaders;
  bytes: number;
  body: string;
}

/** An HTTP/2 upstream with a route per case: it records each request and counts its sessions. */
function h2Routes(server: Http2Server) {
  const seen: Seen[] = [];
  const sessions: Http2Session[] = [];
  server.on('session', (session) => sessions.push(session));
  server.on('stream', (stream: ServerHttp2Stream, headers) => {
    stream.on('error', () => undefined);
    const path = String(headers[':path']);
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (chunks.length < 4) chunks.push(chunk);
    });
    if (path.startsWith('/reset')) {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      stream.write('the first part, ');
      return void setTimeout(() => stream.destroy(new Error('upstream died')), 50);
    }
    if (path.startsWith('/slow'))
      return void setTimeout(() => !stream.closed && stream.respond({ ':status': 200 }), 3000);
    stream.on('end', () => {
      seen.push({ headers, bytes, body: Buffer.concat(chunks).toString() });
      if (path.startsWith('/download')) {
        const size = Number(new URL(path, 'http://x').searchParams.get('mb')) * 1024 * 1024;
        stream.respond({ ':status': 200, 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 'd');
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            sent += chunk.length;
            if (!stream.write(chunk)) return void stream.once('drain', pump);
          }
          stream.end();
        };
        return pump();
      }
      if (path.startsWith('/trailers')) {
        stream.respond({ ':status': 200, 'content-type': 'text/plain' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'x-checksum': 'abc123', 'x-status': '0' }));
        return void stream.end('body with trailers');
      }
      stream.respond({ ':status': 200, 'content-type': 'application/json', 'x-upstream': 'h2' });
      stream.end(JSON.stringify({ method: headers[':method'], path, bytes, proto: 'h2' }));
    });
  });
  return { seen, sessions };
}

/** An HTTP/1.1 request through the gateway, for what fetch hides: trailers, a response cut short, a streamed body. */
function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Readable | string } = {},
): Promise<{ res: IncomingMessage; body: Buffer; trailers: Http1Headers }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks), trailers: res.trailers }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the response was cut short')));
    });
    req.on('error', reject);
    if (options.body instanceof Readable) options.body.pipe(req);
    else req.end(options.body);
  });
}

describe('proxy: HTTP/2 upstreams (h2c:// and https:// with enable_http2)', function () {
  this.timeout(60_000);
  let gw: GatewayFixture;
  let pki: TestPki;
  let h2c: Http2Server;
  let tls: Http2SecureServer;
  let cleartext: ReturnType<typeof h2Routes>;
  /** an h2c upstream on a private address the node's outbound policy refuses */
  let forbidden: Http2Server;
  let forbiddenSessions = 0;
  /** the HTTP version each request to the TLS upstream came over */
  const tlsVersions: string[] = [];
  const hardTimeouts = singleVersion({
    use_extended_paths: true,
    extended_paths: {
      hard_timeouts: [
        { path: '/slow', method: 'GET', timeout: 1 },
        { path: '/upload', method: 'POST', timeout: 60 },
        { path: '/download', method: 'GET', timeout: 60 },
      ],
    },
  });

  before(async () => {
    pki = createTestPki();
    h2c = createServer();
    cleartext = h2Routes(h2c);
    await new Promise<void>((resolve) => h2c.listen(0, '127.0.0.1', resolve));
    const cert = pki.issue('upstream', { ips: ['127.0.0.1'] });
    // allowHTTP1: the same server answers both protocols and tells which one the gateway chose
    tls = createSecureServer({ cert: cert.cert, key: cert.key, allowHTTP1: true }, (req, res) => {
      tlsVersions.push(req.httpVersion);
      if (req.url === '/trailers') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.addTrailers({ 'x-checksum': 'abc123', 'x-status': '0' });
        return void res.end('body with trailers');
      }
      res.end(JSON.stringify({ proto: req.httpVersion }));
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    forbidden = createServer();
    forbidden.on('session', () => forbiddenSessions++);
    forbidden.on('stream', (stream) => stream.respond({ ':status': 200 }, { endStream: true }));
    await new Promise<void>((resolve) => forbidden.listen(0, '127.0.0.2', resolve));
    // Private addresses are refused but for 127.0.0.1, where the test's upstreams listen.
    gw = await startGatewayFixture({ outboundPolicy: 'deny-private', outboundAllow: ['127.0.0.1'], gatewayH2c: true });
    const h2cUrl = `h2c://127.0.0.1:${(h2c.address() as AddressInfo).port}`;
    const tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    await gw.addApi(apiDefinition('h2c', '/h2c', h2cUrl, { version_data: hardTimeouts }));
    const transport = { ssl_insecure_skip_verify: true };
    await gw.addApi(
      apiDefinition('h2tls', '/h2tls', tlsUrl, {
        proxy: proxyOf('/h2tls', tlsUrl, { ...transport, enable_http2: true }),
      }),
    );
    await gw.addApi(apiDefinition('h1tls', '/h1tls', tlsUrl, { proxy: proxyOf('/h1tls', tlsUrl, transport) }));
    // Saving an API aimed at a refused h2c address is refused; a definition file is not checked
    // that way, so the connection's own guard serves it.
    const forbiddenUrl = `h2c://127.0.0.2:${(forbidden.address() as AddressInfo).port}`;
    const refused = await http(`${gw.node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: gw.node.gwHeaders,
      body: apiDefinition('forbidden', '/forbidden', forbiddenUrl),
    });
    assert.equal(refused.status, 400, refused.text);
    mkdirSync(gw.node.config.appsDir, { recursive: true });
    const file = apiDefinition('forbidden', '/forbidden', forbiddenUrl);
    writeFileSync(join(gw.node.config.appsDir, 'forbidden.json'), JSON.stringify(file));
    assert.equal((await http(`${gw.node.gatewayUrl}/gw/reload`, { headers: gw.node.gwHeaders })).status, 200);
    await eventually(async () => assert.notEqual((await gw.call('/forbidden/')).status, 404), 3000);
  });
  after(async () => {
    await gw?.stop();
    for (const session of cleartext.sessions) session.destroy();
    await new Promise((resolve) => h2c.close(resolve));
    await new Promise((resolve) => tls.close(resolve));
    await new Promise((resolve) => forbidden.close(resolve));
    pki.cleanup();
  });

  it('proxies method, path, query, headers and a POST body to an h2c upstream', async () => {
    const { res, body } = await call(`${gw.node.gatewayUrl}/h2c/orders/7?expand=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client': 'abc', connection: 'keep-alive' },
      body: '{"qty":2}',
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-upstream'], 'h2');
    assert.deepEqual(JSON.parse(body.toString()), {
      method: 'POST',
      path: '/orders/7?expand=1',
      bytes: 9,
      proto: 'h2',
    });
    const { headers, body: received } = cleartext.seen.at(-1)!;
    assert.equal(received, '{"qty":2}');
    assert.equal(headers[':scheme'], 'http');
    assert.equal(headers[':authority'], `127.0.0.1:${(h2c.address() as AddressInfo).port}`);
    assert.equal(headers['x-client'], 'abc');
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['x-forwarded-proto'], 'http');
    assert.equal(headers.connection, undefined);
  });

  it('speaks HTTP/2 over TLS when the API enables it, HTTP/1.1 otherwise', async () => {
    tlsVersions.length = 0;
    const h2 = await call(`${gw.node.gatewayUrl}/h2tls/x`);
    const h1 = await call(`${gw.node.gatewayUrl}/h1tls/x`);
    assert.equal(h2.res.statusCode, 200);
    assert.equal(h1.res.statusCode, 200);
    assert.deepEqual(tlsVersions, ['2.0', '1.1']);
  });

  it('streams a 64 MB upload and a 64 MB download through an h2c upstream', async () => {
    const size = 64 * 1024 * 1024;
    const piece = Buffer.alloc(1024 * 1024, 'u');
    let sent = 0;
    const upload = new Readable({
      read() {
        if (sent >= size) return void this.push(null);
        sent += piece.length;
        this.push(piece);
      },
    });
    const up = await call(`${gw.node.gatewayUrl}/h2c/upload`, { method: 'POST', body: upload });
    assert.equal(up.res.statusCode, 200);
    assert.equal(JSON.parse(up.body.toString()).bytes, size);
    const down = await call(`${gw.node.gatewayUrl}/h2c/download?mb=64`);
    assert.equal(down.res.statusCode, 200);
    assert.equal(down.body.length, size);
  });

  it('carries every request so far, 20 concurrent ones too, on one session', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(`${gw.node.gatewayUrl}/h2c/c/${i}`)));
    assert.deepEqual(new Set(answers.map((a) => a.res.statusCode)), new Set([200]));
    assert.equal(cleartext.sessions.length, 1);
  });

  it('passes te: trailers on, and the upstream trailers to an HTTP/1.1 client that accepts them', async () => {
    const accepted = await call(`${gw.node.gatewayUrl}/h2c/trailers`, { headers: { te: 'trailers' } });
    assert.equal(cleartext.seen.at(-1)!.headers.te, 'trailers');
    assert.equal(accepted.body.toString(), 'body with trailers');
    assert.equal(accepted.res.headers['transfer-encoding'], 'chunked');
    assert.deepEqual(accepted.trailers, { 'x-checksum': 'abc123', 'x-status': '0' });
    const plain = await call(`${gw.node.gatewayUrl}/h2c/trailers`);
    assert.equal(cleartext.seen.at(-1)!.headers.te, undefined);
    assert.equal(plain.body.toString(), 'body with trailers');
    assert.deepEqual(plain.trailers, {});
  });

  it('passes the upstream trailers to an HTTP/2 client as trailers of its own', async () => {
    const session = await connectHttp2(gw.node.gatewayUrl);
    try {
      const { body, trailers } = await new Promise<{ body: string; trailers: IncomingHttpHeaders }>(
        (resolve, reject) => {
          const req = session.request({ ':path': '/h2c/trailers', te: 'trailers' });
          const chunks: Buffer[] = [];
          let trailers: IncomingHttpHeaders = {};
          req.on('trailers', (received) => (trailers = received));
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => resolve({ body: Buffer.concat(chunks).toString(), trailers }));
          req.on('error', reject);
          req.end();
        },
      );
      assert.equal(body, 'body with trailers');
      assert.equal(trailers['x-checksum'], 'abc123');
      assert.equal(trailers['x-status'], '0');
      assert.equal(trailers['0'], undefined);
    } finally {
      session.close();
    }
  });

  it('passes trailers from an h2 upstream over TLS too', async () => {
    const { trailers } = await call(`${gw.node.gatewayUrl}/h2tls/trailers`, { headers: { te: 'trailers' } });
    assert.deepEqual(trailers, { 'x-checksum': 'abc123', 'x-status': '0' });
  });

  it('cuts the client response short when the upstream resets the stream mid-response, and keeps serving', async () => {
    await assert.rejects(call(`${gw.node.gatewayUrl}/h2c/reset`));
    assert.equal((await call(`${gw.node.gatewayUrl}/h2c/fine`)).res.statusCode, 200);
  });

  it('answers 504 when the h2c upstream is slower than the hard timeout', async () => {
    const started = Date.now();
    const res = await gw.call('/h2c/slow');
    assert.equal(res.status, 504);
    assert.deepEqual(res.json, { error: 'Upstream service reached hard timeout.' });
    assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
  });

  it('refuses an h2c target on an address the outbound policy forbids: 502, and nothing reaches it', async () => {
    const res = await gw.call('/forbidden/x');
    assert.equal(res.status, 502, res.text);
    assert.equal(forbiddenSessions, 0);
  });
});

function proxyOf(listenPath: string, targetUrl: string, transport: Record<string, unknown>): Record<string, unknown> {
  return { listen_path: listenPath, target_url: targetUrl, strip_listen_path: true, transport };
}
