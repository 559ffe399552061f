import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { librarySignedGet } from '../support/library-signed-request';
import { draftSignature, type DraftSignOptions } from '../support/http-signature';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const REFUSED = { error: 'Authorization field missing, malformed or invalid' };

/** `rsa-sha256` request signatures, checked against the public key of the key's `rsa_certificate_id`. */
describe('RSA request signatures (rsa-sha256 with rsa_certificate_id)', () => {
  let pki: TestPki;
  let signer: Issued;
  let otherRsa: Issued;
  let ecCert: Issued;
  let doomed: Issued;
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  let globex: Tenant;
  const certs: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const keys: Record<string, string> = {};
  const dashboard = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, headers: Record<string, string>) => http(`${node.gatewayUrl}${path}`, { headers });
  const addCert = async (tenant: Tenant, issued: Issued) => {
    const res = await dashboard(tenant, '/certs', { method: 'POST', body: issued.cert });
    assert.equal(res.status, 200, res.text);
    return res.json.id as string;
  };
  const createApi = async (name: string, extra: Record<string, unknown>) => {
    const res = await dashboard(acme, '/apis', {
      method: 'POST',
      body: keylessApi(name, `/${name}`, upstream.url, {
        use_keyless: false,
        enable_signature_checking: true,
        ...extra,
      }),
    });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
  };
  const rights = () => Object.fromEntries(Object.values(ids).map((id) => [id, { api_id: id }]));
  const createKey = async (session: Record<string, unknown>) => {
    const res = await dashboard(acme, '/keys', { method: 'POST', body: { access_rights: rights(), ...session } });
    assert.equal(res.status, 200, res.text);
    return res.json.key_id as string;
  };

  /** Sends a request signed by the npm `http-signature` client, with a PEM private key. */
  const signedByLibrary = (path: string, options: { keyId: string; key: string; algorithm?: string }) =>
    librarySignedGet(`${node.gatewayUrl}${path}`, { ...options, algorithm: options.algorithm ?? 'rsa-sha256' });

  /** Headers of a request signed by the independent signer (test/support/http-signature.ts). */
  const signedHeaders = (
    keyId: string,
    privateKey: string,
    path: string,
    overrides: Partial<DraftSignOptions> = {},
  ) => {
    const date = new Date().toUTCString();
    return {
      date,
      authorization: draftSignature({
        keyId,
        secret: privateKey,
        algorithm: 'rsa-sha256',
        method: 'GET',
        target: path,
        headers: ['(request-target)', 'date'],
        values: { date },
        ...overrides,
      }),
    };
  };
  const refused = async (path: string, headers: Record<string, string>) => {
    const before = upstream.received.length;
    const res = await call(path, headers);
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.json, REFUSED);
    assert.equal(upstream.received.length, before, 'the upstream saw nothing');
  };

  before(async () => {
    pki = createTestPki();
    signer = pki.issue('rsa signer', { keyType: 'rsa' });
    otherRsa = pki.issue('another rsa signer', { keyType: 'rsa' });
    ecCert = pki.issue('ec signer');
    doomed = pki.issue('doomed rsa signer', { keyType: 'rsa' });
    upstream = await startUpstream();
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    // Certificates only: the gateway needs the public key, never the signer's private key.
    certs.signer = await addCert(acme, signer);
    certs.other = await addCert(acme, otherRsa);
    certs.ec = await addCert(acme, ecCert);
    certs.doomed = await addCert(acme, doomed);
    certs.globex = await addCert(globex, signer);
    await createApi('rsa', { hmac_allowed_clock_skew: 5000 });
    await createApi('rsa-only', { hmac_allowed_algorithms: ['rsa-sha256'] });
    await createApi('hmac-only', { hmac_allowed_algorithms: ['hmac-sha256'] });
    keys.signer = await createKey({ hmac_enabled: true, rsa_certificate_id: certs.signer });
    keys.tykStyle = await createKey({ enable_http_signature_validation: true, rsa_certificate_id: certs.signer });
    keys.doomed = await createKey({ hmac_enabled: true, rsa_certificate_id: certs.doomed });
    keys.hmacOnly = await createKey({ hmac_enabled: true });
    await eventually(async () => assert.notEqual((await http(`${node.gatewayUrl}/hmac-only/`)).status, 404), 3000);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
    pki.cleanup();
  });

  describe('signed with the npm http-signature client', () => {
    it('reaches the upstream with a valid signature (path and query signed)', async () => {
      const res = await signedByLibrary('/rsa/items?page=2', { keyId: keys.signer, key: signer.key });
      assert.equal(res.status, 200, res.text);
      const received = upstream.received.at(-1)!;
      assert.equal(received.url, '/items?page=2');
      assert.match(
        String(received.headers.authorization),
        new RegExp(
          `^Signature keyId="${keys.signer}",algorithm="rsa-sha256",headers="\\(request-target\\) date",signature="[A-Za-z0-9+/]+=*"$`,
        ),
      );
    });

    it('a signature made with another private key → 400', async () => {
      const before = upstream.received.length;
      const res = await signedByLibrary('/rsa/items', { keyId: keys.signer, key: otherRsa.key });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.json, REFUSED);
      assert.equal(upstream.received.length, before);
    });
  });

  describe('signed with the independent signer', () => {
    it('plain base64 and URL-escaped → 200', async () => {
      assert.equal((await call('/rsa/a', signedHeaders(keys.signer, signer.key, '/rsa/a'))).status, 200);
      assert.equal(
        (await call('/rsa/a', signedHeaders(keys.signer, signer.key, '/rsa/a', { urlEscape: true }))).status,
        200,
      );
    });

    it("a key with the reference gateway's enable_http_signature_validation instead of hmac_enabled → 200", async () => {
      assert.equal((await call('/rsa/a', signedHeaders(keys.tykStyle, signer.key, '/rsa/a'))).status, 200);
    });

    it('a tampered signature, path or date → 400', async () => {
      const good = signedHeaders(keys.signer, signer.key, '/rsa/a');
      const flipped = good.authorization.replace(
        /signature="(.)/,
        (_, first: string) => `signature="${first === 'A' ? 'B' : 'A'}`,
      );
      await refused('/rsa/a', { ...good, authorization: flipped });
      await refused('/rsa/b', good);
      await refused('/rsa/a', { ...good, date: new Date(Date.parse(good.date) - 5000).toUTCString() });
    });

    it('the wrong private key, or a key whose certificate is another one → 400', async () => {
      await refused('/rsa/a', signedHeaders(keys.signer, otherRsa.key, '/rsa/a'));
      await refused('/rsa/a', signedHeaders(keys.doomed, signer.key, '/rsa/a'));
    });

    it('a key without rsa_certificate_id (an HMAC-only key) → 400', async () => {
      await refused('/rsa/a', signedHeaders(keys.hmacOnly, signer.key, '/rsa/a'));
    });

    it('a date outside hmac_allowed_clock_skew → 400', async () => {
      await refused(
        '/rsa/a',
        signedHeaders(keys.signer, signer.key, '/rsa/a', {
          values: { date: new Date(Date.now() - 60_000).toUTCString() },
        }),
      );
    });

    it('hmac_allowed_algorithms: rsa-sha256 only where it is listed', async () => {
      assert.equal((await call('/rsa-only/a', signedHeaders(keys.signer, signer.key, '/rsa-only/a'))).status, 200);
      await refused('/hmac-only/a', signedHeaders(keys.signer, signer.key, '/hmac-only/a'));
    });
  });

  describe("the key's rsa_certificate_id, checked when the key is saved", () => {
    const refusedKey = async (tenant: Tenant, certificate: string, message: RegExp) => {
      const before = await dashboard(tenant, '/keys');
      const res = await dashboard(tenant, '/keys', {
        method: 'POST',
        body: { hmac_enabled: true, rsa_certificate_id: certificate, access_rights: {} },
      });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.Status, 'Error');
      assert.match(res.json.Message, message);
      assert.deepEqual((await dashboard(tenant, '/keys')).json, before.json, 'nothing stored');
    };

    it("must be in the organisation's certificate store → 400 otherwise, nothing stored", async () => {
      await refusedKey(acme, `${acme.orgId}0000`, /is not in the certificate store of this organisation/);
      await refusedKey(globex, certs.signer, /is not in the certificate store of this organisation/);
    });

    it('must hold an RSA public key → 400 for an EC certificate', async () => {
      await refusedKey(acme, certs.ec, /does not hold an RSA public key/);
    });

    it('is checked on update too', async () => {
      const res = await dashboard(acme, `/apis/${ids.rsa}/keys/${keys.signer}`, {
        method: 'PUT',
        body: { hmac_enabled: true, rsa_certificate_id: certs.ec, access_rights: rights() },
      });
      assert.equal(res.status, 400, res.text);
      assert.match(res.json.Message, /does not hold an RSA public key/);
      assert.equal(
        (await dashboard(acme, `/apis/${ids.rsa}/keys/${keys.signer}`)).json.data.rsa_certificate_id,
        certs.signer,
      );
    });

    it("a globex key may name globex's own copy of the certificate", async () => {
      const res = await dashboard(globex, '/keys', {
        method: 'POST',
        body: { hmac_enabled: true, rsa_certificate_id: certs.globex, access_rights: {} },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.data.rsa_certificate_id, certs.globex);
    });
  });

  // Last: it deletes a certificate the other tests use.
  describe('a certificate removed from the store', () => {
    it('the key no longer signs (500 Certificate not found, as the reference gateway)', async () => {
      assert.equal((await call('/rsa/a', signedHeaders(keys.doomed, doomed.key, '/rsa/a'))).status, 200);
      assert.equal((await dashboard(acme, `/certs/${certs.doomed}`, { method: 'DELETE' })).status, 200);
      const before = upstream.received.length;
      await eventually(async () => {
        const res = await call('/rsa/a', signedHeaders(keys.doomed, doomed.key, '/rsa/a'));
        assert.equal(res.status, 500, res.text);
        assert.deepEqual(res.json, { error: 'Certificate not found' });
      }, 3000);
      assert.equal(upstream.received.length, before, 'the upstream saw none of the refused requests');
    });
  });
});
