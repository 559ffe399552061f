import { strict as assert } from 'node:assert';
import { createHash, X509Certificate } from 'node:crypto';
import { Agent, createServer as createHttpServer, request as httpRequest, type ServerResponse } from 'node:http';
import { request as httpsRequestRaw } from 'node:https';
import type { Duplex } from 'node:stream';
import type { ClientHttp2Session } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { listen } from '../../../lib/http/listen';
import { AnalyticsStore } from '../../../services/analytics/lib/analytics-store';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../../support/certificates';
import { eventually } from '../../support/eventually';
import { singleVersion } from '../../support/gateway-fixture';
import { http, readText } from '../../support/http';
import { connectHttp2, http2Once, http2Request } from '../../support/http2-client';
import { httpsRequest } from '../../support/https-client';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { startUpstream, type ReceivedRequest, type Upstream } from '../../support/upstream';

const fingerprint = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
const tlsPortOf = (node: TestNode) => (node.broker.getLocalService('proxy') as unknown as { tlsPort: number }).tlsPort;

/** HTTP/2 clients on the HTTPS port (ALPN) and, with GW_GATEWAY_H2C, on the plain port: the same APIs, the same behaviour. */
describe('HTTP/2 front door', () => {
  let pki: TestPki;
  let allowed: Issued;
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let httpsUrl: string;
  let tls: { ca: string };
  let session: ClientHttp2Session;
  const ids: Record<string, string> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const createApi = async (name: string, listenPath: string, extra: Record<string, unknown> = {}) => {
    const res = await dashboard('/apis', { method: 'POST', body: keylessApi(name, listenPath, upstream.url, extra) });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
    // an API bound to a domain is probed with that domain as :authority
    const authority = typeof extra.domain === 'string' ? { ':authority': extra.domain } : undefined;
    const probe = () => http2Once(node.gatewayUrl, { path: `${listenPath}/`, headers: authority });
    await eventually(async () => assert.notEqual((await probe()).status, 404), 3000);
  };
  const lastReceived = (): ReceivedRequest => upstream.received.at(-1)!;

  before(async () => {
    pki = createTestPki();
    const serverCert = pki.issue('gateway', { dns: ['localhost'], ips: ['127.0.0.1'] });
    allowed = pki.issue('allowed client');
    upstream = await startUpstream();
    node = await startTestNode({
      gatewayTlsPort: 0,
      gatewayTlsCertFile: serverCert.certFile,
      gatewayTlsKeyFile: serverCert.keyFile,
      gatewayH2c: true,
      analyticsFlushInterval: 0.05,
    });
    httpsUrl = `https://127.0.0.1:${tlsPortOf(node)}`;
    tls = { ca: pki.ca.cert };
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    await createApi('open', '/open');
    await createApi('keyed', '/keyed', { use_keyless: false });
    await createApi('limited', '/limited', { global_rate_limit: { rate: 2, per: 60 } });
    const certs = await dashboard('/certs', { method: 'POST', body: allowed.cert });
    assert.equal(certs.status, 200, certs.text);
    await createApi('mtls', '/mtls', { use_mutual_tls_auth: true, client_certificates: [certs.json.id] });
    session = await connectHttp2(httpsUrl, tls);
  });
  after(async () => {
    session?.close();
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
    pki?.cleanup();
  });

  describe('protocols on the ports', () => {
    it('negotiates h2 with a client that offers it on the HTTPS port', async () => {
      const alpn = (session.socket as unknown as TLSSocket).alpnProtocol;
      assert.equal(alpn, 'h2');
      const res = await http2Request(session, { path: '/open/over-h2' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.url, '/over-h2');
      assert.equal(res.headers['x-upstream'], 'yes');
    });

    it('still serves an HTTP/1.1 client on the same port', async () => {
      const res = await httpsRequest(`${httpsUrl}/open/over-h1`, tls);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.url, '/over-h1');
    });

    it('upgrades an HTTP/1.1 connection on the HTTPS port (WebSockets and other protocols stay HTTP/1.1)', async () => {
      const echo = createHttpServer((_req, res) => res.end('not upgraded'));
      echo.on('upgrade', (req, socket) => {
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${req.headers.upgrade}\r\n\r\n`,
        );
        socket.on('data', (chunk: Buffer) => socket.write(`echo ${chunk.toString()}`));
      });
      const echoPort = await listen(echo, 0, '127.0.0.1');
      try {
        await createApi('echo', '/echo', {
          proxy: { listen_path: '/echo', target_url: `http://127.0.0.1:${echoPort}`, strip_listen_path: true },
        });
        const socket = await new Promise<Duplex>((resolve, reject) => {
          const req = httpsRequestRaw(`${httpsUrl}/echo/tunnel`, {
            ca: tls.ca,
            headers: { connection: 'Upgrade', upgrade: 'echo-protocol' },
          });
          req.on('upgrade', (res, upgraded: Duplex) => {
            assert.equal(res.statusCode, 101);
            resolve(upgraded);
          });
          req.on('response', (res) => reject(new Error(`answered ${res.statusCode}`)));
          req.on('error', reject);
          req.end();
        });
        const answer = new Promise<string>((resolve) =>
          socket.once('data', (chunk: Buffer) => resolve(chunk.toString())),
        );
        socket.write('ping');
        assert.equal(await answer, 'echo ping');
        socket.destroy();
      } finally {
        echo.closeAllConnections();
        echo.close();
      }
    });

    it('serves cleartext HTTP/2 with prior knowledge on the plain port, and HTTP/1.1 beside it', async () => {
      const res = await http2Once(node.gatewayUrl, { path: '/open/h2c' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.url, '/h2c');
      assert.equal(lastReceived().headers['x-forwarded-proto'], 'http');
      const h1 = await http(`${node.gatewayUrl}/open/h1`, { method: 'POST', body: 'plain' });
      assert.equal(h1.status, 200, h1.text);
      assert.deepEqual(h1.json, { method: 'POST', url: '/h1', body: 'plain' });
    });

    it('keeps HTTP/1.1 keep-alive connections on the plain port working (several requests on one)', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const sockets = new Set<unknown>();
      for (const path of ['/open/a', '/open/b', '/open/c']) {
        const body = await new Promise<string>((resolve, reject) => {
          const req = httpRequest(`${node.gatewayUrl}${path}`, { agent }, (res) => {
            sockets.add(res.socket);
            readText(res).then(resolve, reject);
          });
          req.on('error', reject);
          req.end();
        });
        assert.equal(JSON.parse(body).url, path.slice('/open'.length));
      }
      agent.destroy();
      assert.equal(sockets.size, 1);
    });
  });

  describe('REST over HTTP/2', () => {
    it('sends the upstream the method, path, headers (no pseudo-headers), host and X-Forwarded-*', async () => {
      const res = await http2Request(session, {
        method: 'PUT',
        path: '/open/items/7?colour=red',
        headers: { 'x-custom': 'kept', 'content-type': 'text/plain', 'content-length': '5' },
        body: 'hello',
      });
      assert.equal(res.status, 200, res.text);
      const seen = lastReceived();
      assert.equal(seen.method, 'PUT');
      assert.equal(seen.url, '/items/7?colour=red');
      assert.equal(seen.body, 'hello');
      assert.equal(seen.headers['x-custom'], 'kept');
      assert.equal(seen.headers['content-length'], '5');
      assert.equal(seen.headers.host, `127.0.0.1:${upstream.port}`);
      assert.equal(seen.headers['x-forwarded-host'], `127.0.0.1:${tlsPortOf(node)}`);
      assert.equal(seen.headers['x-forwarded-proto'], 'https');
      assert.equal(seen.headers['x-forwarded-for'], '127.0.0.1');
      assert.deepEqual(
        Object.keys(seen.headers).filter((name) => name.startsWith(':')),
        [],
      );
      assert.equal(seen.headers['transfer-encoding'], undefined);
    });

    it('streams a POST body that states no length (sent in pieces)', async () => {
      const res = await http2Request(session, {
        method: 'POST',
        path: '/open/upload',
        headers: { 'content-type': 'text/plain' },
        body: ['first,', 'second,', 'third'],
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { method: 'POST', url: '/upload', body: 'first,second,third' });
      assert.equal(lastReceived().headers['content-length'], undefined);
      assert.equal(lastReceived().headers['transfer-encoding'], 'chunked');
    });

    it('sends no body (and no chunked framing) for a request that ends with its headers', async () => {
      const res = await http2Request(session, { method: 'DELETE', path: '/open/gone' });
      assert.equal(res.status, 200, res.text);
      assert.equal(lastReceived().headers['transfer-encoding'], undefined);
      assert.equal(lastReceived().body, '');
    });

    it('routes by :authority for an API bound to a domain', async () => {
      await createApi('domain', '/on-domain', { domain: 'api.example.test' });
      const routed = await http2Request(session, {
        path: '/on-domain/x',
        headers: { ':authority': 'api.example.test' },
      });
      assert.equal(routed.status, 200, routed.text);
      assert.equal(lastReceived().headers['x-forwarded-host'], 'api.example.test');
      const other = await http2Request(session, { path: '/on-domain/x', headers: { ':authority': 'other.test' } });
      assert.equal(other.status, 404);
    });

    it('authenticates a keyed API: 401 without the key, the upstream with it', async () => {
      const refused = await http2Request(session, { path: '/keyed/x' });
      assert.equal(refused.status, 401, refused.text);
      assert.equal(refused.json.error, 'Authorization field missing');
      const key = await dashboard('/keys', {
        method: 'POST',
        body: { access_rights: { [ids.keyed]: { api_id: ids.keyed, versions: ['Default'] } } },
      });
      assert.equal(key.status, 200, key.text);
      const res = await http2Request(session, { path: '/keyed/x', headers: { authorization: key.json.key_id } });
      assert.equal(res.status, 200, res.text);
      assert.equal(lastReceived().url, '/x');
    });

    it('answers 429 once the API rate limit is spent', async () => {
      // createApi's readiness probe spent one of the two
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await http2Request(session, { path: '/limited/x' })).status);
      assert.deepEqual(statuses, [200, 429, 429]);
      const refused = await http2Request(session, { path: '/limited/x' });
      assert.equal(refused.json.error, 'API Rate Limit Exceeded');
    });

    it('checks the client certificate of an HTTP/2 connection (mutual TLS)', async () => {
      const without = await http2Request(session, { path: '/mtls/x' });
      assert.equal(without.status, 403, without.text);
      assert.equal(without.json.error, 'Client TLS certificate is required');
      const withCert = await http2Once(httpsUrl, { path: '/mtls/x' }, { ...tls, cert: allowed.cert, key: allowed.key });
      assert.equal(withCert.status, 200, withCert.text);
      const unlisted = pki.issue('unlisted client');
      const other = await http2Once(httpsUrl, { path: '/mtls/x' }, { ...tls, cert: unlisted.cert, key: unlisted.key });
      assert.equal(other.status, 403);
      assert.equal(other.json.error, `Certificate with SHA256 ${fingerprint(unlisted.cert)} not allowed`);
    });

    it('never writes connection-specific headers into an HTTP/2 answer (an API that adds them included)', async () => {
      await createApi('adds-connection', '/adds-connection', {
        version_data: singleVersion({
          global_response_headers: { Connection: 'close', 'Keep-Alive': 'timeout=5', 'X-Served-By': 'gw' },
        }),
      });
      upstream.respondWith((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive', 'keep-alive': 'timeout=5' });
        res.end('fine');
      });
      try {
        for (const path of ['/open/hop', '/adds-connection/hop']) {
          const res = await http2Request(session, { path });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.text, 'fine');
          assert.equal(res.headers.connection, undefined);
          assert.equal(res.headers['keep-alive'], undefined);
        }
        const h1 = await httpsRequest(`${httpsUrl}/adds-connection/hop`, tls);
        assert.equal(h1.headers['x-served-by'], 'gw');
        assert.equal(h1.headers['keep-alive'], 'timeout=5');
      } finally {
        upstream.respondWith(defaultAnswer);
      }
    });
  });

  describe('streaming and other API types over HTTP/2', () => {
    it('relays server-sent events as they come, before the upstream ends', async () => {
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      upstream.respondWith((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('data: one\n\n');
        void finished.then(() => res.end('data: two\n\n'));
      });
      try {
        const req = session.request({ ':path': '/open/events', accept: 'text/event-stream' });
        let received = '';
        req.on('data', (chunk: Buffer) => (received += chunk.toString()));
        const ended = new Promise((resolve) => req.once('end', resolve));
        const headers = await new Promise<Record<string, unknown>>((resolve) => req.once('response', resolve));
        assert.equal(headers[':status'], 200);
        assert.equal(headers['content-type'], 'text/event-stream');
        await eventually(() => assert.equal(received, 'data: one\n\n'), 3000);
        finish();
        await ended;
        assert.equal(received, 'data: one\n\ndata: two\n\n');
      } finally {
        finish();
        upstream.respondWith(defaultAnswer);
      }
    });

    it('proxies a GraphQL (proxy-only) API', async () => {
      const res = await dashboard('/apis', {
        method: 'POST',
        body: {
          api_definition: {
            name: 'graph',
            use_keyless: true,
            active: true,
            proxy: { listen_path: '/graph', target_url: `${upstream.url}/graphql`, strip_listen_path: true },
            graphql: { enabled: true, execution_mode: 'proxyOnly', schema: 'type Query { hello: String }' },
          },
        },
      });
      assert.equal(res.status, 200, res.text);
      upstream.respondWith((_req, answer) => {
        answer.writeHead(200, { 'content-type': 'application/json' });
        answer.end(JSON.stringify({ data: { hello: 'world' } }));
      });
      try {
        const query = JSON.stringify({ query: '{ hello }' });
        const answer = await eventually(async () => {
          const out = await http2Request(session, {
            method: 'POST',
            path: '/graph',
            headers: { 'content-type': 'application/json' },
            body: query,
          });
          assert.equal(out.status, 200, out.text);
          return out;
        }, 3000);
        assert.deepEqual(answer.json, { data: { hello: 'world' } });
        assert.equal(lastReceived().url, '/graphql');
        assert.deepEqual(JSON.parse(lastReceived().body), { query: '{ hello }' });
        const invalid = await http2Request(session, {
          method: 'POST',
          path: '/graph',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ nope }' }),
        });
        assert.equal(invalid.status, 400, invalid.text);
      } finally {
        upstream.respondWith(defaultAnswer);
      }
    });

    it('records analytics for an HTTP/2 request', async () => {
      const res = await http2Request(session, {
        method: 'PATCH',
        path: '/open/recorded',
        headers: { 'user-agent': 'h2-analytics-test', 'content-length': '2' },
        body: '{}',
      });
      assert.equal(res.status, 200);
      const records = await eventually(async () => {
        const all = await new AnalyticsStore(node.runtime.database()).rawRecords(tenant.orgId, ids.open);
        const found = all.filter((record) => record.user_agent === 'h2-analytics-test');
        assert.equal(found.length, 1);
        return found;
      }, 5000);
      assert.equal(records[0].method, 'PATCH');
      assert.equal(records[0].path, '/recorded');
      assert.equal(records[0].response_code, 200);
      assert.equal(records[0].ip_address, '127.0.0.1');
    });
  });
});

function defaultAnswer(req: ReceivedRequest, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
  res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body }));
}
