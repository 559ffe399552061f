import { strict as assert } from 'node:assert';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { draftSignature } from '../support/http-signature';
import { httpsRequest } from '../support/https-client';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import type { TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const tlsPortOf = (node: TestNode) => (node.broker.getLocalService('proxy') as unknown as { tlsPort: number }).tlsPort;

/**
 * Certificates deleted on the management node stop opening keys on a gateway node (which never
 * opens the database and keeps certificates cached until `certs.changed`): a key bound to the
 * certificate (dynamic mutual TLS) and a key signing with it (rsa-sha256). Runs when
 * GW_TEST_NATS and GW_TEST_MYSQL are set.
 */
describe('cluster: a certificate deleted on the management node, on a gateway node', function () {
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  let pki: TestPki;
  let bound: Issued;
  let signer: Issued;
  let database: TestDatabase;
  let management: TestNode;
  let gateway: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let httpsUrl: string;
  const cluster = clusterSettings(natsUrl);
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${management.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const addCert = async (issued: Issued) => {
    const res = await dashboard('/certs', { method: 'POST', body: issued.cert });
    assert.equal(res.status, 200, res.text);
    return res.json.id as string;
  };
  const createApi = async (name: string, extra: Record<string, unknown>) => {
    const res = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi(name, `/${name}`, upstream.url, { use_keyless: false, ...extra }),
    });
    assert.equal(res.status, 200, res.text);
    return res.json.ID as string;
  };
  const createKey = async (session: Record<string, unknown>) => {
    const res = await dashboard('/keys', { method: 'POST', body: session });
    assert.equal(res.status, 200, res.text);
    return res.json.key_id as string;
  };

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    pki = createTestPki();
    const serverCert = pki.issue('gateway', { ips: ['127.0.0.1'] });
    bound = pki.issue('bound client');
    signer = pki.issue('rsa signer', { keyType: 'rsa' });
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    management = await startManagementNode(cluster, database);
    gateway = await startGatewayNode(cluster, {
      gatewayTlsPort: 0,
      gatewayTlsCertFile: serverCert.certFile,
      gatewayTlsKeyFile: serverCert.keyFile,
    });
    await gateway.broker.waitForServices(['apis', 'keys', 'certs'], 10_000);
    httpsUrl = `https://127.0.0.1:${tlsPortOf(gateway)}`;
    tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Cluster certs');
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl) return;
    await stopCluster({ nodes: [gateway, management], upstream, database });
    pki?.cleanup();
  });

  it('dynamic mutual TLS: the bound key is refused (403) once its certificate is deleted', async () => {
    const certId = await addCert(bound);
    const apiId = await createApi('dyn', { auth_configs: { authToken: { use_certificate: true } } });
    await createKey({ certificate: certId, access_rights: { [apiId]: { api_id: apiId } } });
    const send = () => httpsRequest(`${httpsUrl}/dyn/x`, { ca: pki.ca.cert, cert: bound.cert, key: bound.key });
    await eventually(async () => assert.equal((await send()).status, 200), 5000);
    assert.equal((await dashboard(`/certs/${certId}`, { method: 'DELETE' })).status, 200);
    await eventually(async () => {
      const res = await send();
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { error: 'Access to this API has been disallowed' });
    }, 5000);
  });

  it('rsa-sha256: the signing key is refused (500 Certificate not found) once its certificate is deleted', async () => {
    const certId = await addCert(signer);
    const apiId = await createApi('rsa', { enable_signature_checking: true });
    const keyId = await createKey({
      hmac_enabled: true,
      rsa_certificate_id: certId,
      access_rights: { [apiId]: { api_id: apiId } },
    });
    const send = () => {
      const date = new Date().toUTCString();
      const authorization = draftSignature({
        keyId,
        secret: signer.key,
        algorithm: 'rsa-sha256',
        method: 'GET',
        target: '/rsa/x',
        headers: ['(request-target)', 'date'],
        values: { date },
      });
      return http(`${gateway.gatewayUrl}/rsa/x`, { headers: { date, authorization } });
    };
    await eventually(async () => assert.equal((await send()).status, 200), 5000);
    assert.equal((await dashboard(`/certs/${certId}`, { method: 'DELETE' })).status, 200);
    await eventually(async () => {
      const res = await send();
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, { error: 'Certificate not found' });
    }, 5000);
  });
});
