import { strict as assert } from 'node:assert';
import { createServer as createHttpsServer } from 'node:https';
import {
  constants,
  createSecureServer,
  createServer,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import { connect as tcpConnect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { buildConnector } from 'undici';
import { tenantConnector } from '../../../lib/net/tenant-agent';
import { Http2Pool } from '../../../services/proxy/pipeline/upstream-client/http2-pool';
import type { UpstreamPoolOptions } from '../../../services/proxy/pipeline/upstream-client/origin-pool';
import type { UpstreamResponseHandler } from '../../../services/proxy/pipeline/upstream-client/exchange';
import { UpstreamPool } from '../../../services/proxy/pipeline/upstream-client/upstream-pool';
import { createTestPki, type TestPki } from '../../support/certificates';
import { eventually } from '../../support/eventually';
import { exchange, headerOf } from '../../support/upstream-exchange';

type StreamHandler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void;

/** An h2c upstream that counts its sessions; each test sets what a stream gets. */
async function h2cUpstream(settings: { maxConcurrentStreams?: number } = {}) {
  const sessions: Http2Session[] = [];
  let onStream: StreamHandler = (stream) => stream.respond({ ':status': 200 }, { endStream: true });
  const server: Http2Server = createServer({ settings });
  server.on('session', (session) => sessions.push(session));
  server.on('stream', (stream, headers) => onStream(stream, headers));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    sessions,
    handle(handler: StreamHandler) {
      onStream = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

const options = (connect = buildConnector({}), keepAliveMaxMs = 30_000): UpstreamPoolOptions => ({
  connect,
  maxConnections: 8,
  keepAliveMaxMs,
});

describe('proxy: upstream client (HTTP/2 pool)', () => {
  let upstream: Awaited<ReturnType<typeof h2cUpstream>>;
  let pool: Http2Pool;
  afterEach(async () => {
    pool?.destroy();
    await upstream?.close();
  });

  it('sends method, path, :authority and headers, a held body with its length, and hands back status, headers and body', async () => {
    upstream = await h2cUpstream();
    let seen: { headers: IncomingHttpHeaders; body: string } | undefined;
    upstream.handle((stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        seen = { headers, body: Buffer.concat(chunks).toString() };
        stream.respond({ ':status': 201, 'x-up': 'yes', 'set-cookie': ['a=1', 'b=2'] });
        stream.end('created');
      });
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    const res = await exchange(pool, {
      method: 'POST',
      path: '/orders?x=1',
      headers: { 'x-client': 'abc', 'Content-Type': 'text/plain', connection: 'keep-alive', te: 'gzip' },
      body: Buffer.from('hello'),
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.body, 'created');
    assert.equal(headerOf(res, 'x-up'), 'yes');
    assert.deepEqual(
      res.rawHeaders.filter((_, i, all) => all[i - (i % 2)] === 'set-cookie' && i % 2 === 1),
      ['a=1', 'b=2'],
    );
    assert.ok(!res.rawHeaders.some((name, i) => i % 2 === 0 && name.startsWith(':')), 'no pseudo-header handed back');
    assert.equal(seen!.body, 'hello');
    assert.equal(seen!.headers[':method'], 'POST');
    assert.equal(seen!.headers[':path'], '/orders?x=1');
    assert.equal(seen!.headers[':scheme'], 'http');
    assert.equal(seen!.headers[':authority'], `127.0.0.1:${upstream.port}`);
    assert.equal(seen!.headers['x-client'], 'abc');
    assert.equal(seen!.headers['content-type'], 'text/plain');
    assert.equal(seen!.headers['content-length'], '5');
    assert.equal(seen!.headers.connection, undefined);
    assert.equal(seen!.headers.te, undefined, 'TE is sent only as trailers, when the client accepts them');
  });

  it('sends te: trailers when the client accepts trailers, and hands over the trailers before the end', async () => {
    upstream = await h2cUpstream();
    let te: string | string[] | undefined;
    upstream.handle((stream, headers) => {
      te = headers.te;
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': 'fine' }));
      stream.end('payload');
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const handler: UpstreamResponseHandler = {
        onConnect: () => undefined,
        onHeaders: (status) => (events.push(`headers ${status}`), true),
        onData: (chunk) => (events.push(`data ${chunk.toString()}`), true),
        onTrailers: (raw) => void events.push(`trailers ${raw.join(' ')}`),
        onComplete: () => (events.push('complete'), resolve()),
        onError: reject,
      };
      pool.dispatch(
        { method: 'POST', path: '/pkg.Svc/Call', headers: {}, body: null, timeoutMs: 5000, acceptsTrailers: true },
        handler,
      );
    });
    assert.equal(te, 'trailers');
    assert.deepEqual(events, ['headers 200', 'data payload', 'trailers grpc-status 0 grpc-message fine', 'complete']);
  });

  it('streams a large request body in and a large response body out, with backpressure', async () => {
    upstream = await h2cUpstream();
    upstream.handle((stream) => {
      let bytes = 0;
      stream.on('data', (c: Buffer) => (bytes += c.length));
      stream.on('end', () => {
        stream.respond({ ':status': 200 });
        const chunk = Buffer.alloc(64 * 1024, 'y');
        let sent = 0;
        const pump = () => {
          while (sent < 8 * 1024 * 1024) {
            sent += chunk.length;
            if (!stream.write(chunk)) return stream.once('drain', pump);
          }
          stream.end(`|${bytes}`);
        };
        pump();
      });
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    const body = new PassThrough();
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    let written = 0;
    const feed = () => {
      while (written < 8) {
        written += 1;
        if (!body.write(megabyte)) return body.once('drain', feed);
      }
      body.end();
    };
    feed();
    let received = 0;
    let tail = '';
    let pauses = 0;
    await new Promise<void>((resolve, reject) => {
      let resume: () => void = () => undefined;
      const handler: UpstreamResponseHandler = {
        onConnect: () => undefined,
        onHeaders: (_status, _raw, go) => ((resume = go), true),
        onData(chunk) {
          received += chunk.length;
          tail = chunk.subarray(-10).toString();
          // a slow client: every 16th piece pauses the upstream for a moment
          if (received % 16 !== 0 && Math.random() < 0.9) return true;
          pauses += 1;
          setImmediate(resume);
          return false;
        },
        onComplete: resolve,
        onError: reject,
      };
      pool.dispatch(
        { method: 'POST', path: '/up', headers: {}, body: body as unknown as IncomingMessage, timeoutMs: 10_000 },
        handler,
      );
    });
    assert.ok(pauses > 0);
    assert.equal(received, 8 * 1024 * 1024 + `|${8 * 1024 * 1024}`.length);
    assert.ok(tail.endsWith(`|${8 * 1024 * 1024}`), tail);
  });

  it('carries concurrent requests on one session, and opens another past the upstream stream limit', async () => {
    upstream = await h2cUpstream({ maxConcurrentStreams: 2 });
    const held: ServerHttp2Stream[] = [];
    upstream.handle((stream) => {
      held.push(stream);
      // answered once all five are in flight: five at once need three sessions of two streams
      if (held.length === 5) for (const s of held) s.respond({ ':status': 200 }, { endStream: true });
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => exchange(pool, { path: `/${i}` })));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 200, 200, 200, 200],
    );
    assert.equal(upstream.sessions.length, 3);
    upstream.handle((stream) => stream.respond({ ':status': 204 }, { endStream: true }));
    await Promise.all(Array.from({ length: 4 }, () => exchange(pool, { path: '/again' })));
    assert.equal(upstream.sessions.length, 3, 'the open sessions are reused');
  });

  it('answers with an error when the upstream resets the stream mid-response', async () => {
    upstream = await h2cUpstream();
    upstream.handle((stream) => {
      stream.on('error', () => undefined);
      stream.respond({ ':status': 200 });
      stream.write('partial');
      setTimeout(() => stream.destroy(new Error('the upstream failed')), 20);
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    await assert.rejects(exchange(pool, { path: '/' }), { code: 'UPSTREAM_CLOSED' });
    // and when its whole connection goes mid-response
    upstream.handle((stream) => {
      stream.respond({ ':status': 200 });
      stream.write('partial');
      setTimeout(() => stream.session?.destroy(), 20);
    });
    await assert.rejects(exchange(pool, { path: '/' }), { code: 'UPSTREAM_CLOSED' });
    // the pool opens a new session for the next request
    upstream.handle((stream) => stream.respond({ ':status': 200 }, { endStream: true }));
    assert.equal((await exchange(pool, { path: '/after' })).statusCode, 200);
  });

  it('times out an upstream that does not answer (UPSTREAM_HEADERS_TIMEOUT) and cancels the stream', async () => {
    upstream = await h2cUpstream();
    let resetCode: number | undefined;
    upstream.handle((stream) => stream.on('close', () => (resetCode = stream.rstCode)));
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    await assert.rejects(exchange(pool, { path: '/', timeoutMs: 150 }), { code: 'UPSTREAM_HEADERS_TIMEOUT' });
    await eventually(() => assert.equal(resetCode, constants.NGHTTP2_CANCEL));
  });

  it('cancels the stream (RST_STREAM CANCEL) when the request is aborted', async () => {
    upstream = await h2cUpstream();
    let resetCode: number | undefined;
    upstream.handle((stream) => {
      stream.respond({ ':status': 200 });
      stream.write('first');
      stream.on('close', () => (resetCode = stream.rstCode));
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    let abort: ((err?: Error) => void) | undefined;
    const answer = exchange(pool, { path: '/' }, (a) => (abort = a));
    await eventually(() => assert.ok(upstream.sessions.length === 1));
    setTimeout(() => abort!(), 50);
    await assert.rejects(answer, { code: 'UPSTREAM_ABORTED' });
    await eventually(() => assert.equal(resetCode, constants.NGHTTP2_CANCEL));
    assert.equal(pool.busy, false);
  });

  it('opens a new session after the upstream sent GOAWAY', async () => {
    upstream = await h2cUpstream();
    upstream.handle((stream) => {
      stream.respond({ ':status': 200 }, { endStream: true });
      stream.session?.goaway(constants.NGHTTP2_NO_ERROR);
    });
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options());
    assert.equal((await exchange(pool, { path: '/1' })).statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal((await exchange(pool, { path: '/2' })).statusCode, 200);
    assert.equal(upstream.sessions.length, 2);
  });

  it('closes a session whose connection went silent (a stream timed out, then a PING went unanswered), and opens another', async () => {
    upstream = await h2cUpstream();
    upstream.handle((stream, headers) => {
      if (headers[':path'] !== '/first') stream.respond({ ':status': 200 }, { endStream: true });
    });
    // a relay in front of the upstream that can stop carrying bytes, as a dropped network does
    const relayed: Socket[] = [];
    /** the connections whose bytes are no longer carried */
    const frozen = new Set<Socket>();
    const relay = createTcpServer((client) => {
      const server = tcpConnect(upstream.port, '127.0.0.1');
      relayed.push(client, server);
      client.on('data', (chunk: Buffer) => !frozen.has(client) && server.write(chunk));
      server.on('data', (chunk: Buffer) => !frozen.has(client) && client.write(chunk));
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    let connections = 0;
    relay.on('connection', () => connections++);
    try {
      const port = (relay.address() as AddressInfo).port;
      pool = new Http2Pool(`h2c://127.0.0.1:${port}`, { ...options(), pingTimeoutMs: 100 });
      assert.equal((await exchange(pool, { path: '/warm' })).statusCode, 200);
      frozen.add(relayed[0]);
      await assert.rejects(exchange(pool, { path: '/first', timeoutMs: 100 }), { code: 'UPSTREAM_HEADERS_TIMEOUT' });
      // the PING went unanswered: the pool closed that connection
      await eventually(() => assert.ok(relayed[0].readableEnded || relayed[0].destroyed));
      assert.equal((await exchange(pool, { path: '/second', timeoutMs: 2000 })).statusCode, 200);
      assert.equal(connections, 2);
    } finally {
      for (const socket of relayed) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('closes a session idle past its reuse', async () => {
    upstream = await h2cUpstream();
    pool = new Http2Pool(`h2c://127.0.0.1:${upstream.port}`, options(buildConnector({}), 0));
    await exchange(pool, { path: '/' });
    await eventually(() => assert.equal(pool.busy, false));
    assert.equal(upstream.sessions[0].closed, false);
    pool.closeExpired();
    await eventually(() => assert.ok(upstream.sessions[0].closed || upstream.sessions[0].destroyed));
  });

  it('connects through the outbound guard: a refused address fails the request, nothing is sent', async () => {
    upstream = await h2cUpstream();
    pool = new Http2Pool('h2c://169.254.169.254:80', options(tenantConnector()));
    await assert.rejects(exchange(pool, { path: '/latest/meta-data/' }), /169\.254\.169\.254/);
    // the node's own port on a local address is refused too
    pool.destroy();
    pool = new Http2Pool(
      `h2c://127.0.0.1:${upstream.port}`,
      options(tenantConnector({ ownPorts: () => new Set([upstream.port]) })),
    );
    await assert.rejects(exchange(pool, { path: '/' }));
    assert.equal(upstream.sessions.length, 0);
  });

  describe('over TLS', () => {
    let pki: TestPki;
    before(() => (pki = createTestPki()));
    after(() => pki.cleanup());

    it('speaks h2 to an upstream that offers it in ALPN', async () => {
      const cert = pki.issue('upstream', { ips: ['127.0.0.1'] });
      const server = createSecureServer({ cert: cert.cert, key: cert.key, allowHTTP1: true }, (req, res) =>
        res.end(`over ${req.httpVersion}`),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const connect = tenantConnector({ tls: { rejectUnauthorized: false }, allowH2: true });
      pool = new Http2Pool(`https://127.0.0.1:${port}`, options(connect));
      try {
        assert.equal((await exchange(pool, { path: '/' })).body, 'over 2.0');
      } finally {
        pool.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('falls back to HTTP/1.1 for an upstream that does not offer h2, and remembers it', async () => {
      const cert = pki.issue('upstream', { ips: ['127.0.0.1'] });
      let handshakes = 0;
      const server = createHttpsServer({ cert: cert.cert, key: cert.key }, (req, res) =>
        res.end(`over ${req.httpVersion}`),
      );
      server.on('secureConnection', () => handshakes++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const origin = `https://127.0.0.1:${port}`;
      const tls = { rejectUnauthorized: false };
      pool = new Http2Pool(origin, {
        ...options(tenantConnector({ tls, allowH2: true })),
        fallback: () => new UpstreamPool(origin, options(tenantConnector({ tls }))),
      });
      try {
        const answers = await Promise.all([exchange(pool, { path: '/1' }), exchange(pool, { path: '/2' })]);
        assert.deepEqual(
          answers.map((a) => a.body),
          ['over 1.1', 'over 1.1'],
        );
        const before = handshakes;
        assert.equal((await exchange(pool, { path: '/3' })).body, 'over 1.1');
        assert.ok(handshakes - before <= 1, 'the third request reuses the HTTP/1.1 pool');
      } finally {
        pool.destroy();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
});
