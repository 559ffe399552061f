import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { curl, httpsRequest } from '../support/https-client';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const tlsPortOf = (node: TestNode) => (node.broker.getLocalService('proxy') as unknown as { tlsPort: number }).tlsPort;

/** Dynamic mutual TLS: `auth_configs.authToken.use_certificate` and keys created with `certificate`. */
describe('dynamic mutual TLS (use_certificate)', () => {
  let pki: TestPki;
  let bound: Issued;
  let storedUnbound: Issued;
  let stranger: Issued;
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  let globex: Tenant;
  let httpsUrl: string;
  let apiId: string;
  let certId: string;
  let boundKey: string;
  let plainKey: string;
  const dashboard = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const addCert = async (tenant: Tenant, issued: Issued) => {
    const res = await dashboard(tenant, '/certs', { method: 'POST', body: issued.cert });
    assert.equal(res.status, 200, res.text);
    return res.json.id as string;
  };
  const send = (issued?: Issued, headers: Record<string, string> = {}) =>
    httpsRequest(`${httpsUrl}/dyn/x`, { ca: pki.ca.cert, cert: issued?.cert, key: issued?.key, headers });

  before(async () => {
    pki = createTestPki();
    const serverCert = pki.issue('gateway', { ips: ['127.0.0.1'] });
    bound = pki.issue('bound client');
    storedUnbound = pki.issue('stored, no key');
    stranger = pki.issue('stranger');
    upstream = await startUpstream();
    node = await startTestNode({
      gatewayTlsPort: 0,
      gatewayTlsCertFile: serverCert.certFile,
      gatewayTlsKeyFile: serverCert.keyFile,
    });
    httpsUrl = `https://127.0.0.1:${tlsPortOf(node)}`;
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    certId = await addCert(acme, bound);
    await addCert(acme, storedUnbound);
    const api = await dashboard(acme, '/apis', {
      method: 'POST',
      body: keylessApi('dyn', '/dyn', upstream.url, {
        use_keyless: false,
        auth_configs: { authToken: { use_certificate: true } },
      }),
    });
    assert.equal(api.status, 200, api.text);
    apiId = api.json.ID;
    await eventually(async () => assert.notEqual((await http(`${node.gatewayUrl}/dyn/`)).status, 404), 3000);
    const key = await dashboard(acme, '/keys', {
      method: 'POST',
      body: { certificate: certId, access_rights: { [apiId]: { api_id: apiId } }, meta_data: { who: 'bound' } },
    });
    assert.equal(key.status, 200, key.text);
    boundKey = key.json.key_id;
    const plain = await dashboard(acme, '/keys', {
      method: 'POST',
      body: { access_rights: { [apiId]: { api_id: apiId } } },
    });
    assert.equal(plain.status, 200, plain.text);
    plainKey = plain.json.key_id;
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
    pki.cleanup();
  });

  it('names a certificate-bound key after the organisation and the certificate id, as the reference gateway does', () => {
    assert.equal(boundKey, `${acme.orgId}${certId}`);
  });

  it('identifies the key by the client certificate alone (node https and curl --cert)', async () => {
    const before = upstream.received.length;
    const res = await send(bound);
    assert.equal(res.status, 200, res.text);
    const withCurl = await curl(`${httpsUrl}/dyn/y`, {
      caFile: pki.ca.certFile,
      certFile: bound.certFile,
      keyFile: bound.keyFile,
    });
    assert.equal(withCurl.status, 200, withCurl.text);
    assert.equal(upstream.received.length, before + 2);
  });

  const refused: Array<[string, () => Promise<{ status: number; json: any }>]> = [
    ['a stored certificate no key is bound to', () => send(storedUnbound)],
    ['a certificate the store does not know', () => send(stranger)],
    [
      'the bound key sent as a token without its certificate',
      () => send(undefined, { authorization: `${acme.orgId}${certId}` }),
    ],
  ];
  for (const [what, request] of refused) {
    it(`refuses ${what} with 403`, async () => {
      const before = upstream.received.length;
      const res = await request();
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { error: 'Access to this API has been disallowed' });
      assert.equal(upstream.received.length, before);
    });
  }

  it('falls back to the auth token when the client presents no certificate', async () => {
    assert.equal((await send(undefined, { authorization: plainKey })).status, 200);
    assert.equal((await send()).status, 401);
  });

  it("refuses a key for a certificate that is not in the organisation's store, and stores nothing", async () => {
    const before = await dashboard(globex, '/keys');
    for (const certificate of [`${globex.orgId}0000`, certId]) {
      const res = await dashboard(globex, '/keys', { method: 'POST', body: { certificate, access_rights: {} } });
      assert.equal(res.status, 400, res.text);
      assert.match(res.json.Message, /not in the certificate store of this organisation/);
    }
    assert.deepEqual((await dashboard(globex, '/keys')).json, before.json);
  });

  it('keeps the certificate on update; changing it is refused', async () => {
    const keep = await dashboard(acme, `/apis/${apiId}/keys/${boundKey}`, {
      method: 'PUT',
      body: { access_rights: { [apiId]: { api_id: apiId } }, meta_data: { who: 'updated' } },
    });
    assert.equal(keep.status, 200, keep.text);
    assert.equal((await dashboard(acme, `/apis/${apiId}/keys/${boundKey}`)).json.data.certificate, certId);
    await eventually(async () => assert.equal((await send(bound)).status, 200), 3000);
    const change = await dashboard(acme, `/apis/${apiId}/keys/${boundKey}`, {
      method: 'PUT',
      body: { certificate: `${acme.orgId}ffff`, access_rights: { [apiId]: { api_id: apiId } } },
    });
    assert.equal(change.status, 400, change.text);
  });

  it('refuses a bound key once its certificate is deleted from the store (403, as the reference gateway)', async () => {
    const doomed = pki.issue('doomed client');
    const doomedId = await addCert(acme, doomed);
    const key = await dashboard(acme, '/keys', {
      method: 'POST',
      body: { certificate: doomedId, access_rights: { [apiId]: { api_id: apiId } } },
    });
    assert.equal(key.status, 200, key.text);
    const sendDoomed = () =>
      httpsRequest(`${httpsUrl}/dyn/doomed`, { ca: pki.ca.cert, cert: doomed.cert, key: doomed.key });
    await eventually(async () => assert.equal((await sendDoomed()).status, 200), 3000);
    assert.equal((await dashboard(acme, `/certs/${doomedId}`, { method: 'DELETE' })).status, 200);
    const before = upstream.received.length;
    await eventually(async () => {
      const res = await sendDoomed();
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { error: 'Access to this API has been disallowed' });
    }, 3000);
    assert.equal(upstream.received.length, before, 'the upstream saw none of the refused requests');
    assert.equal(
      (await dashboard(acme, `/apis/${apiId}/keys/${key.json.key_id}`)).status,
      200,
      'the key itself is kept',
    );
  });

  it('stops admitting the certificate once its key is deleted', async () => {
    assert.equal((await dashboard(acme, `/apis/${apiId}/keys/${boundKey}`, { method: 'DELETE' })).status, 200);
    await eventually(async () => assert.equal((await send(bound)).status, 403), 3000);
  });
});
