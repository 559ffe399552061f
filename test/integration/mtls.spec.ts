import { strict as assert } from 'node:assert';
import { createHash, X509Certificate } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { curl, httpsRequest } from '../support/https-client';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const fingerprint = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
const tlsPortOf = (node: TestNode) => (node.broker.getLocalService('proxy') as unknown as { tlsPort: number }).tlsPort;

/** The gateway's HTTPS port and `use_mutual_tls_auth` + `client_certificates`. */
describe('mutual TLS on the gateway', () => {
  let pki: TestPki;
  let serverCert: Issued;
  let allowed: Issued;
  let unlisted: Issued;
  let expiring: Issued;
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let httpsUrl: string;
  const ids: Record<string, string> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const addCert = async (issued: Issued) => {
    const res = await dashboard('/certs', { method: 'POST', body: issued.cert });
    assert.equal(res.status, 200, res.text);
    return res.json.id as string;
  };
  const createApi = async (name: string, listenPath: string, extra: Record<string, unknown>) => {
    const res = await dashboard('/apis', { method: 'POST', body: keylessApi(name, listenPath, upstream.url, extra) });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
    await eventually(async () => assert.notEqual((await http(`${node.gatewayUrl}${listenPath}/`)).status, 404), 3000);
  };
  const withCert = (issued?: Issued) => ({ ca: pki.ca.cert, cert: issued?.cert, key: issued?.key });

  before(async () => {
    pki = createTestPki();
    serverCert = pki.issue('gateway', { dns: ['localhost'], ips: ['127.0.0.1'] });
    allowed = pki.issue('allowed client');
    unlisted = pki.issue('unlisted client');
    upstream = await startUpstream();
    node = await startTestNode({
      gatewayTlsPort: 0,
      gatewayTlsCertFile: serverCert.certFile,
      gatewayTlsKeyFile: serverCert.keyFile,
    });
    httpsUrl = `https://127.0.0.1:${tlsPortOf(node)}`;
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    // Valid for a few seconds only: stored while valid, presented once expired.
    expiring = pki.issue('expiring client', { notAfter: new Date(Date.now() + 4000) });
    const expiringId = await addCert(expiring);
    const allowedId = await addCert(allowed);
    await createApi('open', '/open', {});
    await createApi('mtls', '/mtls', { use_mutual_tls_auth: true, client_certificates: [allowedId, expiringId] });
    await createApi('mtls-token', '/mtls-token', {
      use_keyless: false,
      use_mutual_tls_auth: true,
      client_certificates: [allowedId],
    });
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
    pki.cleanup();
  });

  it('serves the same APIs over HTTPS beside HTTP, with the configured certificate', async () => {
    const res = await httpsRequest(`${httpsUrl}/open/hello`, withCert());
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.url, '/hello');
    assert.equal(res.serverFingerprint, new X509Certificate(serverCert.cert).fingerprint256);
    assert.equal((await http(`${node.gatewayUrl}/open/hello`)).status, 200);
    const withCurl = await curl(`${httpsUrl}/open/curl`, { caFile: pki.ca.certFile });
    assert.equal(withCurl.status, 200, withCurl.text);
    assert.equal(withCurl.json.url, '/curl');
  });

  it('lets a listed client certificate through (node https and curl --cert)', async () => {
    const before = upstream.received.length;
    const res = await httpsRequest(`${httpsUrl}/mtls/a`, withCert(allowed));
    assert.equal(res.status, 200, res.text);
    const withCurl = await curl(`${httpsUrl}/mtls/b`, {
      caFile: pki.ca.certFile,
      certFile: allowed.certFile,
      keyFile: allowed.keyFile,
    });
    assert.equal(withCurl.status, 200, withCurl.text);
    assert.deepEqual(
      upstream.received.slice(before).map((r) => r.url),
      ['/a', '/b'],
    );
  });

  const refusals: Array<[string, () => Promise<{ status: number; json: any }>, () => string]> = [
    [
      'no client certificate',
      () => httpsRequest(`${httpsUrl}/mtls/x`, withCert()),
      () => 'Client TLS certificate is required',
    ],
    [
      'a certificate not in client_certificates',
      () => httpsRequest(`${httpsUrl}/mtls/x`, withCert(unlisted)),
      () => `Certificate with SHA256 ${fingerprint(unlisted.cert)} not allowed`,
    ],
    [
      'no certificate, with curl',
      () => curl(`${httpsUrl}/mtls/x`, { caFile: pki.ca.certFile }),
      () => 'Client TLS certificate is required',
    ],
    ['plain HTTP', () => http(`${node.gatewayUrl}/mtls/x`), () => 'TLS not enabled'],
  ];
  for (const [what, send, message] of refusals) {
    it(`refuses ${what} with 403 before reaching the upstream`, async () => {
      const before = upstream.received.length;
      const res = await send();
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { error: message() });
      assert.equal(upstream.received.length, before);
    });
  }

  it('checks the certificate before any other authentication', async () => {
    // Without a certificate the client hears about the certificate, not about a missing key.
    const res = await httpsRequest(`${httpsUrl}/mtls-token/x`, withCert());
    assert.equal(res.status, 403);
    assert.deepEqual(res.json, { error: 'Client TLS certificate is required' });
    // With it, authentication runs next.
    const next = await httpsRequest(`${httpsUrl}/mtls-token/x`, withCert(allowed));
    assert.equal(next.status, 401);
    assert.deepEqual(next.json, { error: 'Authorization field missing' });
  });

  it('refuses a listed certificate once it has expired', async () => {
    await eventually(
      async () => {
        const res = await httpsRequest(`${httpsUrl}/mtls/x`, withCert(expiring));
        assert.equal(res.status, 403);
        assert.deepEqual(res.json, { error: 'Certificate has expired' });
      },
      8000,
      200,
    );
  });

  it('refuses a listed certificate once it is removed from the store', async () => {
    const other = pki.issue('removed later');
    const id = await addCert(other);
    const res = await dashboard(`/apis/${ids.mtls}`);
    const definition = {
      ...res.json.api_definition,
      client_certificates: [...res.json.api_definition.client_certificates, id],
    };
    assert.equal(
      (await dashboard(`/apis/${ids.mtls}`, { method: 'PUT', body: { api_definition: definition } })).status,
      200,
    );
    await eventually(
      async () => assert.equal((await httpsRequest(`${httpsUrl}/mtls/x`, withCert(other))).status, 200),
      3000,
    );
    assert.equal((await dashboard(`/certs/${id}`, { method: 'DELETE' })).status, 200);
    await eventually(async () => {
      const refused = await httpsRequest(`${httpsUrl}/mtls/x`, withCert(other));
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.json, { error: `Certificate with SHA256 ${fingerprint(other.cert)} not allowed` });
    }, 3000);
  });

  it("drains the HTTPS port on shutdown: a request in flight gets its answer, marked as the connection's last", async () => {
    const slow = await startUpstream();
    let answer: ((res: ServerResponse) => void) | undefined;
    slow.respondWith((_req, res) => (answer = () => res.end('late but whole')));
    const second = await startTestNode({
      gatewayTlsPort: 0,
      gatewayTlsCertFile: serverCert.certFile,
      gatewayTlsKeyFile: serverCert.keyFile,
    });
    try {
      const added = await http(`${second.gatewayUrl}/gw/apis`, {
        method: 'POST',
        headers: second.gwHeaders,
        body: {
          api_id: 'slow',
          name: 'slow',
          use_keyless: true,
          active: true,
          proxy: { listen_path: '/slow', target_url: slow.url, strip_listen_path: true },
        },
      });
      assert.equal(added.status, 200, added.text);
      const pending = httpsRequest(`https://127.0.0.1:${tlsPortOf(second)}/slow/x`, { ...withCert(), keepAlive: true });
      await eventually(() => assert.ok(answer), 3000);
      const stopping = second.stop();
      answer!(undefined as never);
      const res = await pending;
      assert.equal(res.status, 200);
      assert.equal(res.text, 'late but whole');
      assert.equal(res.headers.connection, 'close');
      await stopping;
    } finally {
      await second.stop().catch(() => undefined);
      await slow.close();
      removeDir(second.dataDir);
    }
  });
});

describe('the HTTPS port with its certificate from the store (GW_GATEWAY_TLS_CERT_ID)', () => {
  let pki: TestPki;
  let node: TestNode | undefined;
  let dataDir: string;

  before(() => {
    pki = createTestPki();
  });
  after(async () => {
    await node?.stop();
    removeDir(dataDir);
    pki.cleanup();
  });

  it('serves with the stored certificate and its private key', async () => {
    const serverCert = pki.issue('from the store', { ips: ['127.0.0.1'] });
    const first = await startTestNode();
    dataDir = first.dataDir;
    const added = await http(`${first.gatewayUrl}/gw/certs`, {
      method: 'POST',
      headers: first.gwHeaders,
      body: serverCert.cert + serverCert.key,
    });
    assert.equal(added.status, 200, added.text);
    await first.stop();
    node = await startTestNode({ dataDir, gatewayTlsPort: 0, gatewayTlsCertId: added.json.id });
    const res = await httpsRequest(`https://127.0.0.1:${tlsPortOf(node)}/hello`, { ca: pki.ca.cert });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.serverFingerprint, new X509Certificate(serverCert.cert).fingerprint256);
  });

  it('refuses to start with GW_GATEWAY_TLS_PORT but no certificate', async () => {
    await assert.rejects(
      startTestNode({ dataDir, gatewayTlsPort: 0 }),
      /GW_GATEWAY_TLS_PORT needs GW_GATEWAY_TLS_CERT_FILE/,
    );
  });
});
