import { strict as assert } from 'node:assert';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, type Tenant } from '../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../support/certificates';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';

const fingerprint = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');

/** The certificate store (`/api/certs`, `/gw/certs`) on SQLite and on MySQL/MariaDB. */
for (const store of STORE_VARIANTS) {
  describe(`certificate store (${store.name})`, function () {
    let pki: TestPki;
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let dataDir: string;
    let acme: Tenant;
    let globex: Tenant;
    let server: Issued;
    let client: Issued;
    const api = (
      tenant: Tenant,
      path: string,
      options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) =>
      http(`${node.dashboardUrl}/api${path}`, {
        ...options,
        headers: { ...tenant.headers, ...(options.headers ?? {}) },
      });
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const rows = () => node.runtime.database()('certificates').select('*');

    before(async function () {
      if (!store.enabled) this.skip();
      pki = createTestPki();
      server = pki.issue('api.example.com', { dns: ['api.example.com', 'www.example.com'] });
      client = pki.issue('client one');
      dataDir = mkdtempSync(join(tmpdir(), 'gw-certs-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    });
    after(async () => {
      if (!store.enabled) return;
      await node.stop();
      await database.cleanup();
      removeDir(dataDir);
      pki.cleanup();
    });

    it('adds a certificate with its key (raw PEM body): id = org id + SHA-256 of the DER, key sealed at rest, never returned', async () => {
      const res = await api(acme, '/certs', {
        method: 'POST',
        body: server.cert + server.key,
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(res.status, 200, res.text);
      const id = `${acme.orgId}${fingerprint(server.cert)}`;
      assert.deepEqual(res.json, { Status: 'OK', Message: 'Certificate added', Meta: id, id });

      const one = await api(acme, `/certs/${id}`);
      assert.equal(one.status, 200, one.text);
      assert.equal(one.json.id, id);
      assert.equal(one.json.fingerprint, fingerprint(server.cert));
      assert.equal(one.json.subject_cn, 'api.example.com');
      assert.equal(one.json.issuer_cn, 'gw test CA');
      assert.deepEqual(one.json.dns_names, ['api.example.com', 'www.example.com']);
      assert.equal(one.json.has_private, true);
      assert.equal(one.json.not_after, new Date(new X509Certificate(server.cert).validTo).toISOString());
      for (const res of [
        one,
        await api(acme, '/certs?mode=detailed'),
        await gw(`/certs/${id}`),
        await gw('/certs?mode=detailed'),
      ]) {
        assert.doesNotMatch(res.text, /PRIVATE KEY/);
        assert.ok(!res.text.includes(server.key.split('\n')[1]), 'no part of the key is returned');
      }

      const [row] = (await rows()).filter((r: { id: string }) => r.id === id);
      assert.ok(row.sealed_key.startsWith('gcm1.'), 'the key is stored sealed');
      assert.doesNotMatch(JSON.stringify(row), /PRIVATE KEY/);
      assert.ok(!JSON.stringify(row).includes(server.key.split('\n')[1]));
    });

    it('lists ids, and details with mode=detailed', async () => {
      const added = await api(acme, '/certs', { method: 'POST', body: client.cert });
      assert.equal(added.status, 200, added.text);
      const ids = await api(acme, '/certs');
      assert.equal(ids.status, 200, ids.text);
      assert.deepEqual(ids.json.certs, [
        `${acme.orgId}${fingerprint(server.cert)}`,
        `${acme.orgId}${fingerprint(client.cert)}`,
      ]);
      const detailed = await api(acme, '/certs?mode=detailed');
      assert.deepEqual(
        detailed.json.certs.map((c: Record<string, unknown>) => [
          c.id,
          c.subject_cn,
          c.has_private,
          c.fingerprint ?? 'none',
        ]),
        [
          [`${acme.orgId}${fingerprint(server.cert)}`, 'api.example.com', true, 'none'],
          [`${acme.orgId}${fingerprint(client.cert)}`, 'client one', false, 'none'],
        ],
      );
      assert.equal(typeof detailed.json.certs[0].not_before, 'string');
    });

    it("shows a certificate's subject and issuer as the reference's PkixName objects (swagger CertsCertificateMeta)", async () => {
      const subject =
        '/C=GB/ST=London/L=Islington/O=Acme\\, Inc/OU=Ops/OU=Web/CN=full.example.com/emailAddress=ops@example.com';
      const full = pki.selfSigned(subject);
      const added = await gw('/certs', { method: 'POST', body: full.cert });
      assert.equal(added.status, 200, added.text);
      const res = await gw(`/certs/${added.json.id}`);
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const name = {
        Country: ['GB'],
        Organization: ['Acme, Inc'],
        OrganizationalUnit: ['Ops', 'Web'],
        Locality: ['Islington'],
        Province: ['London'],
        StreetAddress: null,
        PostalCode: null,
        SerialNumber: '',
        CommonName: 'full.example.com',
        Names: [
          { Type: [2, 5, 4, 6], Value: 'GB' },
          { Type: [2, 5, 4, 8], Value: 'London' },
          { Type: [2, 5, 4, 7], Value: 'Islington' },
          { Type: [2, 5, 4, 10], Value: 'Acme, Inc' },
          { Type: [2, 5, 4, 11], Value: 'Ops' },
          { Type: [2, 5, 4, 11], Value: 'Web' },
          { Type: [2, 5, 4, 3], Value: 'full.example.com' },
          { Type: [1, 2, 840, 113549, 1, 9, 1], Value: 'ops@example.com' },
        ],
        ExtraNames: null,
      };
      assert.deepEqual(res.json.subject, name);
      assert.deepEqual(res.json.issuer, name);
      // the list with mode=detailed stays the reference's CertificateBasics: names as issuer_cn/subject_cn
      const detailed = await gw('/certs?mode=detailed');
      const listed = detailed.json.certs.find((c: { id: string }) => c.id === added.json.id);
      assert.deepEqual(Object.keys(listed).sort(), [
        'dns_names',
        'has_private',
        'id',
        'is_ca',
        'issuer_cn',
        'not_after',
        'not_before',
        'subject_cn',
      ]);
      assert.equal(listed.subject_cn, 'full.example.com');
      await gw(`/certs/${added.json.id}`, { method: 'DELETE' });
    });

    it('keeps each organisation to its own certificates', async () => {
      const acmeId = `${acme.orgId}${fingerprint(client.cert)}`;
      assert.deepEqual((await api(globex, '/certs')).json.certs, []);
      assert.equal((await api(globex, `/certs/${acmeId}`)).status, 404);
      const del = await api(globex, `/certs/${acmeId}`, { method: 'DELETE' });
      assert.equal(del.status, 404, del.text);
      // The same certificate in another organisation is another entry.
      const again = await api(globex, '/certs', { method: 'POST', body: { cert: client.cert } });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.id, `${globex.orgId}${fingerprint(client.cert)}`);
      assert.equal((await api(acme, `/certs/${acmeId}`)).status, 200);
    });

    const garbage: Array<[string, () => string, RegExp]> = [
      ['no PEM at all', () => 'hello, this is not a certificate', /no PEM-encoded CERTIFICATE/],
      [
        'a PEM block that is not a certificate',
        () => '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n',
        /Failed to parse certificate/,
      ],
      ['a key that belongs to another certificate', () => server.cert + client.key, /private key does not match/],
      [
        'a key that does not parse',
        () => server.cert + '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        /Failed to parse the private key/,
      ],
      [
        'an expired certificate',
        () =>
          pki.issue('old', { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2020-01-02T00:00:00Z') })
            .cert,
        /Certificate has expired/,
      ],
    ];
    for (const [what, body, message] of garbage) {
      it(`refuses ${what} with 400 and stores nothing`, async () => {
        const before = (await rows()).length;
        const res = await api(acme, '/certs', { method: 'POST', body: body() });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.Status, 'Error');
        assert.match(res.json.Message, message);
        assert.equal((await rows()).length, before);
      });
    }

    it('refuses a duplicate with 403, as the reference gateway does', async () => {
      const res = await api(acme, '/certs', { method: 'POST', body: client.cert });
      assert.equal(res.status, 403, res.text);
      assert.match(res.json.Message, /already exists/);
    });

    it('deletes a certificate', async () => {
      const id = `${acme.orgId}${fingerprint(client.cert)}`;
      const del = await api(acme, `/certs/${id}`, { method: 'DELETE' });
      assert.equal(del.status, 200, del.text);
      assert.deepEqual(del.json, { Status: 'OK', Message: 'Certificate deleted', Meta: null });
      assert.equal((await api(acme, `/certs/${id}`)).status, 404);
      assert.equal((await rows()).filter((r: { id: string }) => r.id === id).length, 0);
    });

    it('serves the same store on /gw/certs, as the reference gateway /tyk/certs', async () => {
      const other = pki.issue('gateway added');
      const added = await gw(`/certs?org_id=${globex.orgId}`, { method: 'POST', body: other.cert + other.key });
      assert.equal(added.status, 200, added.text);
      const id = `${globex.orgId}${fingerprint(other.cert)}`;
      assert.deepEqual(added.json, { id, status: 'ok', message: 'Certificate added' });
      assert.ok((await gw(`/certs?org_id=${globex.orgId}`)).json.certs.includes(id));
      assert.ok(!(await gw(`/certs?org_id=${acme.orgId}`)).json.certs.includes(id));
      assert.ok((await api(globex, '/certs')).json.certs.includes(id));
      assert.equal((await gw(`/certs/${id}`)).json.has_private, true);
      const bad = await gw('/certs', { method: 'POST', body: 'garbage' });
      assert.equal(bad.status, 400);
      assert.match(bad.json.message, /no PEM-encoded CERTIFICATE/);
      assert.equal((await http(`${node.gatewayUrl}/gw/certs`)).status, 403);
      // Limited to another organisation, the delete finds nothing there: 200, and the certificate stays.
      const elsewhere = await gw(`/certs/${id}?org_id=${acme.orgId}`, { method: 'DELETE' });
      assert.equal(elsewhere.status, 200, elsewhere.text);
      assert.deepEqual(elsewhere.json, { status: 'ok', message: 'removed' });
      assert.equal((await gw(`/certs/${id}`)).status, 200);
      const del = await gw(`/certs/${id}`, { method: 'DELETE' });
      assert.deepEqual(del.json, { status: 'ok', message: 'removed' });
      assert.equal((await gw(`/certs/${id}`)).status, 404);
      // As the reference: deleting what is not there leaves it not there.
      const again = await gw(`/certs/${id}`, { method: 'DELETE' });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.json, { status: 'ok', message: 'removed' });
    });
  });
}
