import { strict as assert } from 'node:assert';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { buildConnector } from 'undici';
import type { OriginPool, UpstreamPoolOptions } from '../../../services/proxy/pipeline/upstream-client/origin-pool';
import { UndiciUpstreamPool } from '../../../services/proxy/pipeline/upstream-client/undici-pool';
import { UpstreamPool } from '../../../services/proxy/pipeline/upstream-client/upstream-pool';
import { eventually } from '../../support/eventually';
import { rawServer } from '../../support/raw-upstream';
import { startUpstream, type Upstream } from '../../support/upstream';
import { exchange, headerOf } from '../../support/upstream-exchange';

const OK = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok';

interface ClientUnderTest {
  name: string;
  /** the gateway's own client: how it manages its connections is tested too */
  own: boolean;
  create(origin: string, options: UpstreamPoolOptions): OriginPool;
}

/** The gateway's own client, and undici's Pool it falls back to: the same requests, the same answers. */
const CLIENTS: ClientUnderTest[] = [
  { name: "the gateway's own client", own: true, create: (origin, options) => new UpstreamPool(origin, options) },
  {
    name: "undici's Pool (the fallback)",
    own: false,
    create: (origin, options) => new UndiciUpstreamPool(origin, options),
  },
];

for (const client of CLIENTS) {
  describe(`proxy: upstream client (HTTP/1.1 pool): ${client.name}`, () => specsOf(client));
}

function specsOf(client: ClientUnderTest): void {
  let pool: OriginPool | undefined;
  let upstream: Upstream | undefined;
  const closers: Array<() => Promise<void>> = [];
  const poolFor = (port: number, maxConnections = 8) => {
    const options = { connect: buildConnector({}), maxConnections, keepAliveMaxMs: 30_000 };
    pool = client.create(`http://127.0.0.1:${port}`, options);
    return pool;
  };
  /** a test of how the gateway's own client uses its connections (undici's Pool has its own ways) */
  const ownClientIt = client.own ? it : () => undefined;

  afterEach(async () => {
    pool?.destroy();
    pool = undefined;
    await upstream?.close();
    upstream = undefined;
    for (const close of closers.splice(0)) await close();
  });

  it('sends the method, target, Host and headers, and hands over the status, headers and body', async () => {
    upstream = await startUpstream();
    upstream.respondWith((req, res) => {
      res.writeHead(201, { 'X-Answer': 'yes' });
      res.end(
        `${req.method} ${req.url} ${req.headers.host} ${String(req.headers['x-client'])} ${String(req.headers['x-count'])}`,
      );
    });
    const http = poolFor(upstream.port);
    for (let i = 0; i < 3; i++) {
      // a plugin in JavaScript may set a number as a header's value
      const headers = { 'x-client': ['a', 'b'], 'x-count': i as unknown as string };
      const response = await exchange(http, { method: 'DELETE', path: `/items/${i}?q=1`, headers });
      assert.equal(response.statusCode, 201);
      assert.equal(headerOf(response, 'x-answer'), 'yes');
      assert.equal(response.body, `DELETE /items/${i}?q=1 127.0.0.1:${upstream.port} a, b ${i}`);
    }
    assert.equal(http.busy, false);
  });

  ownClientIt('keeps one connection for requests one after the other', async () => {
    const raw = await rawServer((_request, socket) => socket.write(OK));
    closers.push(raw.close);
    const http = poolFor(raw.port);
    for (let i = 0; i < 5; i++) assert.equal((await exchange(http, { path: `/${i}` })).body, 'ok');
    assert.equal(raw.connections.length, 1);
  });

  ownClientIt('sends a held body with its length, and a streamed body of unknown length chunked', async () => {
    upstream = await startUpstream();
    upstream.respondWith((req, res) =>
      res.end(`${req.headers['content-length'] ?? '-'} ${req.headers['transfer-encoding'] ?? '-'} ${req.body}`),
    );
    const http = poolFor(upstream.port);
    const held = await exchange(http, { method: 'POST', path: '/', body: Buffer.from('héllo') });
    assert.equal(held.body, '6 - héllo');
    const stream = new PassThrough();
    const streamed = exchange(http, { method: 'PUT', path: '/', body: stream as unknown as IncomingMessage });
    stream.write('first ');
    setImmediate(() => stream.end('second'));
    assert.equal((await streamed).body, '- chunked first second');
    const empty = await exchange(http, { method: 'POST', path: '/' });
    assert.equal(empty.body, '0 - ', 'a POST without a body states a length of 0');
  });

  it('hands over an answer that comes before the whole body was sent, then drops the rest of the body and the connection', async () => {
    const body = new PassThrough();
    const raw = await rawServer((_request, socket) => {
      // as if the upstream's socket were full: the client's body is paused when the answer comes
      body.pause();
      socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\n\r\n');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port);
    body.pause();
    body.write('the start of a long body');
    const response = await exchange(http, {
      method: 'POST',
      path: '/',
      headers: { 'content-length': '1000000' },
      body: body as unknown as IncomingMessage,
    });
    assert.equal(response.statusCode, 413);
    assert.equal(body.readableFlowing, true, 'the rest of the body is read and dropped');
    await eventually(() => assert.equal(raw.connections[0].destroyed || raw.connections[0].readableEnded, true));
  });

  it('reads chunked bodies, bodies ended by the close, HEAD answers and 1xx before the answer', async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /chunked'))
        socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n');
      else if (request.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n');
      else if (request.startsWith('GET /continue'))
        socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\ndone');
      else if (request.startsWith('GET /until-close')) socket.end('HTTP/1.1 200 OK\r\n\r\nall of it');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port);
    assert.equal((await exchange(http, { path: '/chunked' })).body, 'abcde');
    const head = await exchange(http, { method: 'HEAD', path: '/' });
    assert.equal(headerOf(head, 'content-length'), '1000');
    assert.equal(head.body, '');
    // undici fails a 100 nobody asked for, and closes the connection after a HEAD
    if (client.own) {
      const continued = await exchange(http, { path: '/continue' });
      assert.deepEqual(continued.informational, [100]);
      assert.equal(continued.body, 'done');
      assert.equal(raw.connections.length, 1, 'the same connection carried them all');
    }
    assert.equal((await exchange(http, { path: '/until-close' })).body, 'all of it');
  });

  it("drops a chunked answer's trailers: they never reach the next answer on the same connection", async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /trailers')) {
        socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ntrailer: x-checksum\r\n\r\n');
        socket.write('3\r\nabc\r\n0\r\nx-checksum: 1234\r\n\r\n');
      } else socket.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\nx-own: yes\r\n\r\nmine');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port, 1);
    const first = await exchange(http, { path: '/trailers' });
    assert.equal(first.body, 'abc');
    assert.equal(headerOf(first, 'x-checksum'), undefined);
    const second = await exchange(http, { path: '/next' });
    assert.deepEqual(second.rawHeaders, ['content-length', '4', 'x-own', 'yes']);
    assert.equal(second.body, 'mine');
    assert.equal(raw.connections.length, 1, 'the same kept-alive connection carried both');
  });

  it('refuses a header that would split the request, sending nothing', async () => {
    const raw = await rawServer((_request, socket) => socket.write(OK));
    closers.push(raw.close);
    const http = poolFor(raw.port);
    await assert.rejects(exchange(http, { path: '/', headers: { 'x-evil': 'a\r\nx-injected: 1' } }), {
      code: 'UPSTREAM_INVALID_REQUEST',
    });
    await assert.rejects(exchange(http, { path: '/a b' }), { code: 'UPSTREAM_INVALID_REQUEST' });
    await assert.rejects(exchange(http, { path: '/', headers: { 'bad name': 'x' } }), {
      code: 'UPSTREAM_INVALID_REQUEST',
    });
    assert.equal(raw.requests.length, 0);
  });

  it('times out an upstream slow to send its headers, and one that stops in the middle of its body', async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /half')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port);
    const started = Date.now();
    await assert.rejects(exchange(http, { path: '/silent', timeoutMs: 200 }), { code: 'UPSTREAM_HEADERS_TIMEOUT' });
    assert.ok(Date.now() - started >= 190);
    await assert.rejects(exchange(http, { path: '/half', timeoutMs: 200 }), { code: 'UPSTREAM_BODY_TIMEOUT' });
  });

  ownClientIt(
    'sends an idempotent request again on a new connection when a reused one closes before answering, once',
    async () => {
      // The second request on each connection is dropped with the connection: the keep-alive race.
      const perConnection = new Map<Socket, number>();
      const raw = await rawServer((_request, socket) => {
        const seen = (perConnection.get(socket) ?? 0) + 1;
        perConnection.set(socket, seen);
        if (seen === 1) socket.write(OK);
        else socket.destroy();
      });
      closers.push(raw.close);
      const http = poolFor(raw.port);
      assert.equal((await exchange(http, { path: '/1' })).body, 'ok');
      assert.equal((await exchange(http, { path: '/2' })).body, 'ok', 'sent again on a new connection');
      assert.equal(raw.connections.length, 2);
      await assert.rejects(exchange(http, { method: 'POST', path: '/3', body: Buffer.from('x') }), {
        code: 'UPSTREAM_CLOSED',
      });
      assert.equal(
        raw.requests.filter((request) => request.startsWith('POST')).length,
        1,
        'a POST is never sent twice',
      );
    },
  );

  it('does not reuse a connection the upstream closes, nor one past its announced keep-alive timeout', async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /close'))
        socket.write('HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok');
      else socket.write('HTTP/1.1 200 OK\r\nkeep-alive: timeout=1\r\ncontent-length: 2\r\n\r\nok');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port);
    await exchange(http, { path: '/close' });
    await exchange(http, { path: '/close' });
    assert.equal(raw.connections.length, 2);
    // timeout=1 s is within undici's 2 s margin: each answer closes its connection
    await exchange(http, { path: '/short' });
    await exchange(http, { path: '/short' });
    assert.equal(raw.connections.length, 4);
    await eventually(() => assert.equal(http.busy, false));
  });

  it('holds at most maxConnections, and the waiting requests go in turn', async () => {
    const raw = await rawServer((_request, socket) => setTimeout(() => socket.write(OK), 20));
    closers.push(raw.close);
    const http = poolFor(raw.port, 2);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => exchange(http, { path: `/${i}` })));
    assert.deepEqual(
      answers.map((answer) => answer.body),
      ['ok', 'ok', 'ok', 'ok', 'ok'],
    );
    assert.equal(raw.connections.length, 2);
  });

  it("an abort ends the exchange once, with the abort's error, and closes its connection", async () => {
    const raw = await rawServer(() => undefined);
    closers.push(raw.close);
    const http = poolFor(raw.port, 1);
    let abortFirst: ((err?: Error) => void) | undefined;
    let abortQueued: ((err?: Error) => void) | undefined;
    const first = exchange(http, { path: '/never' }, (abort) => (abortFirst = abort));
    const queued = exchange(http, { path: '/queued' }, (abort) => (abortQueued = abort));
    await eventually(() => assert.equal(raw.requests.length, 1));
    abortQueued!(new Error('client left'));
    await assert.rejects(queued, /client left/);
    abortFirst!(new Error('too large'));
    await assert.rejects(first, /too large/);
    await eventually(() => assert.equal(raw.connections[0].destroyed || raw.connections[0].readableEnded, true));
    assert.equal(raw.requests.length, 1, 'the queued request was never sent');
    await eventually(() => assert.equal(http.busy, false));
  });

  it('fails with the connection error when nothing listens', async () => {
    const server: HttpServer = createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await assert.rejects(exchange(poolFor(port), { path: '/' }), { code: 'ECONNREFUSED' });
  });

  it('never hands a second answer to one request to the next request', async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /twice')) socket.write(`${OK}HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsmuggl`);
      else socket.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nmine');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port);
    assert.equal((await exchange(http, { path: '/twice' })).body, 'ok');
    assert.equal((await exchange(http, { path: '/next' })).body, 'mine');
    assert.equal(raw.connections.length, 2, 'the connection that answered twice was closed');
  });

  it('closes a connection on which the upstream sent more than its answer, even a head cut short, and answers the next request on a new one', async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /first'))
        socket.write(OK, () => setImmediate(() => socket.write('HTTP/1.1 200 OK\r\ncontent-len')));
      else socket.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nmine');
    });
    closers.push(raw.close);
    const http = poolFor(raw.port);
    assert.equal((await exchange(http, { path: '/first' })).body, 'ok');
    await eventually(
      () =>
        assert.ok(
          raw.connections[0].readableEnded || raw.connections[0].destroyed,
          'the gateway closed the connection',
        ),
      2000,
    );
    assert.equal((await exchange(http, { path: '/next' })).body, 'mine');
    assert.equal(raw.connections.length, 2);
  });

  it('closes an idle connection the upstream writes to, and answers the next request on a new one', async () => {
    const raw = await rawServer((request, socket) =>
      socket.write(request.startsWith('GET /first') ? OK : 'HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nmine'),
    );
    closers.push(raw.close);
    const http = poolFor(raw.port);
    assert.equal((await exchange(http, { path: '/first' })).body, 'ok');
    // the answer is taken and its connection idle in the pool: now the upstream speaks unasked
    raw.connections[0].write('HTTP/1.1 200 OK\r\ncontent-len');
    await eventually(
      () =>
        assert.ok(
          raw.connections[0].readableEnded || raw.connections[0].destroyed,
          'the gateway closed the connection',
        ),
      2000,
    );
    assert.equal((await exchange(http, { path: '/next' })).body, 'mine');
    assert.equal(raw.connections.length, 2);
  });

  it('stops reading while the receiver is full, and reads the whole body on once it resumes', async () => {
    const total = 64 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024);
    for (let i = 0; i < piece.length; i += 1) piece[i] = i % 251;
    let written = 0;
    let waitingForDrain = false;
    upstream = await startUpstream();
    upstream.respondWith((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      const pump = () => {
        waitingForDrain = false;
        while (written < total) {
          written += piece.length;
          if (!res.write(piece)) {
            waitingForDrain = true;
            return void res.once('drain', pump);
          }
        }
        res.end();
      };
      pump();
    });
    const http = poolFor(Number(new URL(upstream.url).port));
    let received = 0;
    let corrupt = false;
    let resumeUpstream: (() => void) | undefined;
    let paused = false;
    const done = new Promise<void>((resolve, reject) => {
      http.dispatch(
        { method: 'GET', path: '/big', headers: {}, body: null, timeoutMs: 10_000 },
        {
          onConnect: () => undefined,
          onHeaders: (_status, _headers, resume) => {
            resumeUpstream = resume;
            return true;
          },
          onData: (chunk) => {
            for (let i = 0; i < chunk.length; i += 1)
              if (chunk[i] !== ((received + i) % piece.length) % 251) corrupt = true;
            received += chunk.length;
            // the first piece fills the receiver: the upstream must wait until it resumes
            if (paused) return true;
            paused = true;
            return false;
          },
          onComplete: resolve,
          onError: reject,
        },
      );
    });
    await eventually(() => assert.ok(paused && waitingForDrain, 'the receiver said stop, the upstream is held'), 5000);
    const heldAt = received;
    // nothing observable marks "not reading"; the count must simply not move meanwhile
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(received, heldAt, 'nothing was read while paused');
    assert.ok(written < total, 'the upstream could not write it all');
    resumeUpstream!();
    await done;
    assert.equal(received, total);
    assert.equal(corrupt, false);
  });

  it('fails on an answer that is not HTTP', async () => {
    const raw = await rawServer((_request, socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    closers.push(raw.close);
    await assert.rejects(exchange(poolFor(raw.port), { path: '/' }), { code: 'UPSTREAM_INVALID_RESPONSE' });
  });

  ownClientIt("reads a connection whose native handle is of another shape through the socket's events", async () => {
    const raw = await rawServer((request, socket) => {
      if (request.startsWith('GET /trailers')) {
        socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nx-sum: 1\r\n\r\n');
      } else socket.write(OK);
    });
    closers.push(raw.close);
    const connect = buildConnector({});
    let readThroughEvents = 0;
    // as on a Node line whose stream handles changed: not one the parser may consume
    const reshaped: typeof connect = (options, callback) =>
      connect(options, (err, socket) => {
        const handle = (socket as unknown as { _handle?: object } | null)?._handle;
        if (handle) Object.defineProperty(handle, 'isStreamBase', { value: undefined });
        socket?.on('data', (data: Buffer) => (readThroughEvents += data.length));
        if (err) callback(err, null);
        else if (socket) callback(null, socket);
      });
    pool = client.create(`http://127.0.0.1:${raw.port}`, {
      connect: reshaped,
      maxConnections: 1,
      keepAliveMaxMs: 1000,
    });
    assert.equal((await exchange(pool, { path: '/trailers' })).body, 'abc');
    const next = await exchange(pool, { path: '/next' });
    assert.deepEqual([next.rawHeaders, next.body], [['content-length', '2'], 'ok']);
    assert.equal(raw.connections.length, 1);
    assert.ok(readThroughEvents > 0, "the bytes came through the socket's events");
  });
}
