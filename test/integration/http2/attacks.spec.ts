import { strict as assert } from 'node:assert';
import { constants } from 'node:http2';
import { createTenant, keylessApi } from '../../support/bootstrap';
import { createTestPki, type TestPki } from '../../support/certificates';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { connectHttp2, http2Once, http2Request } from '../../support/http2-client';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import {
  ErrorCode,
  Flags,
  FrameType,
  RawHttp2Connection,
  frame,
  literalField,
  requestBlock,
} from '../../support/raw-http2';
import { startUpstream, type Upstream } from '../../support/upstream';

const tlsPortOf = (node: TestNode) => (node.broker.getLocalService('proxy') as unknown as { tlsPort: number }).tlsPort;
const MAX_STREAMS = 10;
const IDLE_SECONDS = 1;

/**
 * Abusive HTTP/2 clients against a running node: each is cut off (its stream or its connection),
 * and another client is served normally right after.
 */
describe('HTTP/2 front door under attack', () => {
  let pki: TestPki;
  let node: TestNode;
  let upstream: Upstream;
  let httpsUrl: string;
  let tls: { ca: string };
  /** answers the upstream holds (requests that stay open) until released */
  const heldAnswers: Array<() => void> = [];
  const release = () => {
    for (const answer of heldAnswers.splice(0)) answer();
  };

  /** A well-behaved client, on a connection of its own: it must be served. */
  const served = async () => {
    const res = await http2Once(httpsUrl, { path: '/open/fine' }, tls);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.url, '/fine');
  };

  before(async () => {
    pki = createTestPki();
    const serverCert = pki.issue('gateway', { dns: ['localhost'], ips: ['127.0.0.1'] });
    upstream = await startUpstream();
    node = await startTestNode({
      gatewayTlsPort: 0,
      gatewayTlsCertFile: serverCert.certFile,
      gatewayTlsKeyFile: serverCert.keyFile,
      http2MaxConcurrentStreams: MAX_STREAMS,
      http2IdleTimeout: IDLE_SECONDS,
    });
    httpsUrl = `https://127.0.0.1:${tlsPortOf(node)}`;
    tls = { ca: pki.ca.cert };
    const tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    for (const [name, path] of [
      ['open', '/open'],
      ['slow', '/slow'],
    ]) {
      const res = await http(`${node.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi(name, path, upstream.url),
      });
      assert.equal(res.status, 200, res.text);
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}${path}/`)).status, 200), 3000);
    }
    upstream.respondWith((req, res) => {
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body }));
      };
      if (req.url.startsWith('/held')) heldAnswers.push(answer);
      else answer();
    });
  });
  afterEach(release);
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
    pki?.cleanup();
  });

  it('does not speak cleartext HTTP/2 on the plain port when GW_GATEWAY_H2C is off (HTTP/1.1 there is unaffected)', async () => {
    await assert.rejects(async () => {
      const session = await connectHttp2(node.gatewayUrl);
      try {
        await http2Request(session, { path: '/open/h2c' });
      } finally {
        session.destroy();
      }
    });
    const h1 = await http(`${node.gatewayUrl}/open/h1`);
    assert.equal(h1.status, 200, h1.text);
    assert.equal(h1.json.url, '/h1');
  });

  it('closes a connection left idle (GOAWAY), not one whose request is still open', async () => {
    const idle = await connectHttp2(httpsUrl, tls);
    const busy = await connectHttp2(httpsUrl, tls);
    try {
      let goAway: number | undefined;
      idle.once('goaway', (code: number) => (goAway = code));
      const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
      assert.equal((await http2Request(idle, { path: '/open/once' })).status, 200);
      const held = http2Request(busy, { path: '/open/held/long' });
      await eventually(() => assert.ok(upstream.received.some((req) => req.url === '/held/long')), 3000);
      const idleSince = Date.now();
      await idleClosed;
      assert.equal(goAway, constants.NGHTTP2_NO_ERROR);
      assert.ok(Date.now() - idleSince >= IDLE_SECONDS * 1000 - 200, 'closed before the idle timeout');
      // past the idle timeout, the connection with a request open is still there
      assert.equal(busy.closed || busy.destroyed, false);
      release();
      const res = await held;
      assert.equal(res.status, 200, res.text);
    } finally {
      idle.destroy();
      busy.destroy();
    }
  });

  it('closes a connection that opens and resets streams rapidly (CVE-2023-44487), and keeps serving others', async () => {
    const raw = await RawHttp2Connection.open(tlsPortOf(node), pki.ca.cert);
    const cancel = Buffer.alloc(4);
    cancel.writeUInt32BE(constants.NGHTTP2_CANCEL);
    const before = upstream.received.length;
    const startedAt = Date.now();
    let sent = 0;
    try {
      // Each stream's request, then its reset at once: never more than one open, so no stream limit applies.
      for (; sent < 50_000 && !raw.closed; sent++) {
        const streamId = 1 + 2 * sent;
        const request = frame(
          FrameType.HEADERS,
          Flags.END_HEADERS | Flags.END_STREAM,
          streamId,
          requestBlock('localhost', `/open/reset-${sent}`),
        );
        if (!raw.socket.write(Buffer.concat([request, frame(FrameType.RST_STREAM, 0, streamId, cancel)])))
          await Promise.race([new Promise((resolve) => raw.socket.once('drain', resolve)), raw.gone]);
      }
      await raw.gone;
    } finally {
      raw.destroy();
    }
    assert.ok(sent < 50_000, `the connection stayed open for ${sent} reset streams`);
    assert.ok(raw.goAwayCode !== undefined && raw.goAwayCode !== 0, `GOAWAY ${raw.goAwayCode} after ${sent} streams`);
    assert.ok(Date.now() - startedAt < 10_000);
    // far fewer requests reached the upstream than were opened
    const reached = upstream.received.length - before;
    assert.ok(reached < sent / 2, `${reached} of ${sent} reset requests reached the upstream`);
    await served();
  });

  it('refuses streams beyond the concurrent limit with REFUSED_STREAM, and keeps serving others', async () => {
    const raw = await RawHttp2Connection.open(tlsPortOf(node), pki.ca.cert);
    try {
      // Streams whose request body never ends: each stays open (their client ignores the server's limit).
      const opened = MAX_STREAMS + 5;
      for (let i = 0; i < opened; i++) {
        const streamId = 1 + 2 * i;
        raw.write(
          frame(FrameType.HEADERS, Flags.END_HEADERS, streamId, requestBlock('localhost', '/open/held', 'POST')),
        );
      }
      await eventually(() => assert.equal(raw.received(FrameType.RST_STREAM).length, opened - MAX_STREAMS), 3000);
      const refused = raw.received(FrameType.RST_STREAM);
      assert.deepEqual(
        refused.map((f) => [f.streamId, f.payload.readUInt32BE(0)]),
        Array.from({ length: opened - MAX_STREAMS }, (_, i) => [1 + 2 * (MAX_STREAMS + i), ErrorCode.REFUSED_STREAM]),
      );
      await served();
    } finally {
      raw.destroy();
    }
  });

  it('refuses a request whose header list is larger than GW_HTTP2_MAX_HEADER_LIST_SIZE, and keeps serving others', async () => {
    const session = await connectHttp2(httpsUrl, tls);
    try {
      const big = 'x'.repeat(20_000);
      const refused = await http2Request(session, { path: '/open/big', headers: { 'x-big': big } });
      assert.equal(refused.status, 431);
      assert.equal(
        upstream.received.some((req) => req.url === '/big'),
        false,
      );
      // just below the bound: served
      const fits = await http2Request(await connectHttp2(httpsUrl, tls), {
        path: '/open/fits',
        headers: { 'x-fits': 'y'.repeat(8_000) },
      });
      assert.equal(fits.status, 200, fits.text);
    } finally {
      session.destroy();
    }
    await served();
  });

  it('closes a connection that sends CONTINUATION frames without end, without buffering them', async () => {
    const raw = await RawHttp2Connection.open(tlsPortOf(node), pki.ca.cert);
    try {
      raw.write(frame(FrameType.HEADERS, 0, 1, requestBlock('localhost', '/open/flood')));
      const fragment = literalField('x-flood', 'z'.repeat(100));
      let written = 0;
      // up to 64 MiB of CONTINUATION frames, unless the node closes the connection first
      for (let i = 0; i < 600_000 && !raw.closed; i++) {
        // what the node took in: the client waits while its own buffer is full
        if (!raw.socket.write(frame(FrameType.CONTINUATION, 0, 1, fragment)))
          await Promise.race([new Promise((resolve) => raw.socket.once('drain', resolve)), raw.gone]);
        written += 9 + fragment.length;
      }
      await raw.gone;
      // (node ends such a connection without a GOAWAY)
      assert.ok(written < 1024 * 1024, `${written} bytes of CONTINUATION frames written before the node closed`);
      assert.deepEqual(raw.received(FrameType.HEADERS), []);
      assert.equal(
        upstream.received.some((req) => req.url === '/flood'),
        false,
      );
    } finally {
      raw.destroy();
    }
    await served();
  });
});
