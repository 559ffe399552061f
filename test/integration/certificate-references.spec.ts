import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { createTestPki, type TestPki } from '../support/certificates';
import { http } from '../support/http';
import { oasFixture } from '../support/oas-fixtures';
import { removeDir, startTestNode, type TestNode } from '../support/node';

/**
 * An API may only name certificates of its own organisation: a definition naming another
 * organisation's certificate id, in any field that names one, is refused when saved, on every
 * surface, without saying whether that certificate exists.
 */
const FINGERPRINT = 'a'.repeat(64);

describe('certificate ids in API definitions', function () {
  this.timeout(30_000);
  let pki: TestPki;
  let node: TestNode;
  let acme: Tenant;
  let globex: Tenant;
  /** a certificate of each organisation */
  let acmeCert: string;
  let globexCert: string;
  const upstream = 'http://127.0.0.1:9';
  const dashboard = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const createApi = (tenant: Tenant, name: string, extra: Record<string, unknown> = {}) =>
    dashboard(tenant, '/apis', { method: 'POST', body: keylessApi(name, `/${name}`, upstream, extra) });
  const refusal = (field: string, id: string) => ({
    Status: 'Error',
    Message: `${field}: certificate ${id} is not in the certificate store of this organisation`,
    Meta: null,
  });
  const upload = async (tenant: Tenant, name: string) => {
    const issued = pki.issue(name);
    const res = await dashboard(tenant, '/certs', { method: 'POST', body: issued.cert + issued.key });
    assert.equal(res.status, 200, res.text);
    return res.json.id as string;
  };

  before(async () => {
    pki = createTestPki();
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    acmeCert = await upload(acme, 'acme client');
    globexCert = await upload(globex, 'globex client');
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
    pki.cleanup();
  });

  const fields: Array<[string, string, (id: string) => Record<string, unknown>]> = [
    [
      'client_certificates',
      'client_certificates[0]',
      (id) => ({ use_mutual_tls_auth: true, client_certificates: [id] }),
    ],
    ['upstream_certificates', 'upstream_certificates["*"]', (id) => ({ upstream_certificates: { '*': id } })],
    // a public key fingerprint beside the id names no stored certificate
    [
      'pinned_public_keys',
      'pinned_public_keys["pinned.test"]',
      (id) => ({ pinned_public_keys: { 'pinned.test': `${FINGERPRINT},${id}` } }),
    ],
    ['certificates', 'certificates[0]', (id) => ({ certificates: [id] })],
  ];

  for (const [name, field, extra] of fields) {
    it(`${name}: refuses another organisation's certificate (400), accepts its own`, async () => {
      const foreign = await createApi(globex, `foreign-${name}`, extra(acmeCert));
      assert.equal(foreign.status, 400);
      assert.deepEqual(foreign.json, refusal(field, acmeCert));
      const own = await createApi(globex, `own-${name}`, extra(globexCert));
      assert.equal(own.status, 200, own.text);
    });
  }

  it("refuses an update naming another organisation's certificate, or one not in the store at all", async () => {
    const created = await createApi(globex, 'updated');
    assert.equal(created.status, 200, created.text);
    const { api_definition: definition } = (await dashboard(globex, `/apis/${created.json.ID}`)).json;
    const missing = `${globex.orgId}${'0'.repeat(64)}`;
    for (const id of [acmeCert, missing]) {
      const withCerts = { ...definition, use_mutual_tls_auth: true, client_certificates: [globexCert, id] };
      const body = { api_definition: withCerts };
      const updated = await dashboard(globex, `/apis/${created.json.ID}`, { method: 'PUT', body });
      assert.equal(updated.status, 400);
      assert.deepEqual(updated.json, refusal('client_certificates[1]', id));
    }
  });

  it("refuses an OAS API whose client certificate allow list names another organisation's", async () => {
    const document = (id: string, listenPath: string) => {
      const oas = oasFixture('petstore.yaml', upstream);
      oas['x-gw-api-gateway'].server.listenPath.value = listenPath;
      oas['x-gw-api-gateway'].server.clientCertificates = { enabled: true, allowlist: [id] };
      return oas;
    };
    const foreign = await dashboard(globex, '/apis/oas', { method: 'POST', body: document(acmeCert, '/oas-out/') });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.json.Message, refusal('client_certificates[0]', acmeCert).Message);
    const own = await dashboard(globex, '/apis/oas', { method: 'POST', body: document(globexCert, '/oas-in/') });
    assert.equal(own.status, 200, own.text);
  });

  it('refuses it on the gateway API too, for an API of an organisation', async () => {
    const extra = { upstream_certificates: { '*': acmeCert } };
    const { api_definition: named } = keylessApi('gw-foreign', '/gw-foreign', upstream, extra);
    const body = { ...named, org_id: globex.orgId };
    const res = await http(`${node.gatewayUrl}/gw/apis`, { method: 'POST', headers: node.gwHeaders, body });
    assert.equal(res.status, 400);
    const { Message: message } = refusal('upstream_certificates["*"]', acmeCert);
    assert.deepEqual(res.json, { status: 'error', message });
  });
});
