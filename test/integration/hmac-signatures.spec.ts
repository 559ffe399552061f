import { strict as assert } from 'node:assert';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, type HttpResult } from '../support/http';
import { draftSignature, type DraftSignOptions } from '../support/http-signature';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

// The client library an integrator would use; it has no type declarations of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const httpSignature = require('http-signature') as {
  sign(request: ClientRequest, options: { keyId: string; key: string; algorithm: string; headers: string[] }): boolean;
};

const REFUSED = { error: 'Authorization field missing, malformed or invalid' };
const ALGORITHMS = ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512'] as const;

describe('HMAC request signatures (enable_signature_checking)', () => {
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  const ids: Record<string, string> = {};
  const keys: Record<string, { key: string; secret: string }> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) => http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, headers: Record<string, string> = {}, method = 'GET') => http(`${node.gatewayUrl}${path}`, { method, headers });
  const createApi = async (name: string, listenPath: string, extra: Record<string, unknown>) => {
    const res = await dashboard('/apis', { method: 'POST', body: keylessApi(name, listenPath, upstream.url, { use_keyless: false, ...extra }) });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
  };
  const rights = (...apiNames: string[]) => Object.fromEntries(apiNames.map((name) => [ids[name], { api_id: ids[name] }]));
  const createKey = async (name: string, session: Record<string, unknown>) => {
    const res = await dashboard('/keys', { method: 'POST', body: session });
    assert.equal(res.status, 200, res.text);
    keys[name] = { key: res.json.key_id, secret: res.json.data.hmac_string };
  };

  /** Sends a request signed by the npm `http-signature` client on a node http.ClientRequest. */
  const signedByLibrary = (path: string, options: { keyId: string; key: string; algorithm: string; headers?: string[]; extra?: Record<string, string> }) =>
    new Promise<HttpResult>((resolve, reject) => {
      const req = httpRequest(`${node.gatewayUrl}${path}`, { method: 'GET', headers: options.extra ?? {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), text, json });
        });
      });
      req.on('error', reject);
      httpSignature.sign(req, { keyId: options.keyId, key: options.key, algorithm: options.algorithm, headers: options.headers ?? ['(request-target)', 'date'] });
      req.end();
    });

  /** Headers of a request signed by the independent signer (test/support/http-signature.ts). */
  const signedHeaders = (name: string, path: string, overrides: Partial<DraftSignOptions> = {}, values: Record<string, string> = {}) => {
    const date = new Date().toUTCString();
    const all = { date, ...values };
    return { ...all, authorization: draftSignature({ keyId: keys[name].key, secret: keys[name].secret, algorithm: 'hmac-sha256', method: 'GET', target: path, headers: ['(request-target)', 'date'], values: all, ...overrides }) };
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    await createApi('hmac', '/hmac', { enable_signature_checking: true, hmac_allowed_clock_skew: 5000 });
    await createApi('no-skew', '/no-skew', { enable_signature_checking: true, hmac_allowed_clock_skew: -1 });
    await createApi('limited', '/limited', { enable_signature_checking: true, hmac_allowed_algorithms: ['hmac-sha256'] });
    const both = { enable_signature_checking: true, use_standard_auth: true, auth: { auth_header_name: 'X-Api-Key' } };
    await createApi('both-token', '/both-token', { ...both, base_identity_provided_by: 'auth_token' });
    await createApi('both-hmac', '/both-hmac', { ...both, base_identity_provided_by: 'hmac_key' });
    await createApi('both-unset', '/both-unset', both);
    await createApi('both-bad', '/both-bad', { ...both, base_identity_provided_by: 'basic_auth_user' });
    await createKey('signer', { hmac_enabled: true, hmac_string: 'chosen-by-the-client', access_rights: rights('hmac', 'no-skew', 'limited', 'both-hmac') });
    await createKey('plain', { access_rights: rights('hmac') });
    await createKey('token', { access_rights: rights('both-token', 'both-unset') });
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  describe('the key secret (hmac_string)', () => {
    it('is generated by the gateway, whatever the client sent, and shown in the answer that created the key', () => {
      assert.match(keys.signer.secret, /^[A-Za-z0-9+/]{43}=$/);
      assert.notEqual(keys.signer.secret, 'chosen-by-the-client');
      assert.equal(keys.plain.secret, undefined, 'a key without hmac_enabled has none');
    });

    it('is never shown again, and is not stored in the clear', async () => {
      const res = await dashboard(`/apis/${ids.hmac}/keys/${keys.signer.key}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.data.hmac_string, '');
      assert.equal(res.json.data.hmac_enabled, true);
      const rows = await node.runtime.database()('keys').select();
      const stored = JSON.stringify(rows);
      assert.ok(rows.length >= 3);
      assert.ok(!stored.includes(keys.signer.secret), 'the secret is sealed at rest');
    });
  });

  describe('on the gateway API (/gw)', () => {
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) => http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });

    it('the answer that creates the key carries the secret; reading the key later does not', async () => {
      const created = await gw('/keys/create', { method: 'POST', body: { hmac_enabled: true, access_rights: rights('hmac') } });
      assert.equal(created.status, 200, created.text);
      assert.match(created.json.hmac_string, /^[A-Za-z0-9+/]{43}=$/);
      const read = await gw(`/keys/${created.json.key}`);
      assert.equal(read.json.hmac_string, '');
      const date = new Date().toUTCString();
      const authorization = draftSignature({ keyId: created.json.key, secret: created.json.hmac_string, algorithm: 'hmac-sha512', method: 'GET', target: '/hmac/x', headers: ['(request-target)', 'date'], values: { date } });
      assert.equal((await call('/hmac/x', { date, authorization })).status, 200);
    });
  });

  describe('API definitions', () => {
    it('refuses unknown algorithms, a clock skew that is not a number and an unknown base identity: 400, nothing stored', async () => {
      for (const extra of [{ hmac_allowed_algorithms: ['md5'] }, { hmac_allowed_clock_skew: 'soon' }, { base_identity_provided_by: 'password' }]) {
        const res = await dashboard('/apis', { method: 'POST', body: keylessApi('bad', '/bad-hmac', upstream.url, { use_keyless: false, enable_signature_checking: true, ...extra }) });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.Status, 'Error');
      }
      assert.equal((await call('/bad-hmac/a')).status, 404);
    });
  });

  describe('signed with the npm http-signature client', () => {
    // The library signs with sha1, sha256 and sha512 only; sha384 is covered by the other signer.
    for (const algorithm of ['hmac-sha1', 'hmac-sha256', 'hmac-sha512']) {
      it(`${algorithm}: reaches the upstream, with the Authorization header as the client sent it`, async () => {
        const res = await signedByLibrary('/hmac/items?page=2', { keyId: keys.signer.key, key: keys.signer.secret, algorithm });
        assert.equal(res.status, 200, res.text);
        const received = upstream.received.at(-1)!;
        assert.equal(received.url, '/items?page=2');
        assert.match(String(received.headers.authorization), new RegExp(`^Signature keyId="${keys.signer.key}",algorithm="${algorithm}",headers="\\(request-target\\) date",signature="[A-Za-z0-9+/]+=*"$`));
      });
    }

    it('a wrong secret → 400', async () => {
      const res = await signedByLibrary('/hmac/items', { keyId: keys.signer.key, key: 'not-the-secret', algorithm: 'hmac-sha256' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, REFUSED);
    });
  });

  describe('signed with the independent signer', () => {
    const refused = async (path: string, headers: Record<string, string>) => {
      const before = upstream.received.length;
      const res = await call(path, headers);
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.json, REFUSED);
      assert.equal(res.headers.get('x-generator'), 'gw');
      assert.equal(upstream.received.length, before, 'a refused request never reaches the upstream');
    };

    it('plain base64, each algorithm → 200', async () => {
      for (const algorithm of ALGORITHMS) {
        const res = await call('/hmac/a?b=1', signedHeaders('signer', '/hmac/a?b=1', { algorithm }));
        assert.equal(res.status, 200, `${algorithm}: ${res.text}`);
      }
    });

    it('a URL-escaped signature (upper or lower case escapes) → 200', async () => {
      const escaped = signedHeaders('signer', '/hmac/a', { urlEscape: true });
      assert.match(escaped.authorization, /%3D"$/, 'the padding is escaped');
      assert.equal((await call('/hmac/a', escaped)).status, 200);
      const lower = { ...escaped, authorization: escaped.authorization.replace(/%([0-9A-F]{2})/g, (_, hex: string) => `%${hex.toLowerCase()}`) };
      assert.equal((await call('/hmac/a', lower)).status, 200);
    });

    it('the path alone as (request-target), as clients of the reference gateway sign it → 200', async () => {
      assert.equal((await call('/hmac/a?b=1', signedHeaders('signer', '/hmac/a'))).status, 200);
    });

    it('only the date signed (the default header list) → 200', async () => {
      const date = new Date().toUTCString();
      const authorization = draftSignature({ keyId: keys.signer.key, secret: keys.signer.secret, algorithm: 'hmac-sha1', method: 'GET', target: '', headers: ['date'], values: { date } });
      assert.equal((await call('/hmac/a', { date, authorization: authorization.replace(',headers="date"', '') })).status, 200);
    });

    it('X-Aux-Date for clients that can not set Date; it wins over Date for the clock skew', async () => {
      const aux = new Date().toUTCString();
      const signed = signedHeaders('signer', '/hmac/a', { headers: ['(request-target)', 'x-aux-date'] }, { 'x-aux-date': aux });
      assert.equal((await call('/hmac/a', { ...signed, date: 'Mon, 02 Jan 2006 15:04:05 GMT' })).status, 200);
      const old = signedHeaders('signer', '/hmac/a', { headers: ['(request-target)', 'x-aux-date'] }, { 'x-aux-date': new Date(Date.now() - 60_000).toUTCString() });
      await refused('/hmac/a', old);
    });

    it('no Authorization header → 400', () => refused('/hmac/a', { date: new Date().toUTCString() }));

    it('malformed headers → 400', async () => {
      const good = signedHeaders('signer', '/hmac/a');
      await refused('/hmac/a', { ...good, authorization: 'Signature garbage' });
      await refused('/hmac/a', { ...good, authorization: `${good.authorization},extra="field"` });
      await refused('/hmac/a', { ...good, authorization: good.authorization.replace(/,signature="[^"]*"/, '') });
      await refused('/hmac/a', { ...good, authorization: good.authorization.replace(/signature="[^"]*"/, 'signature="not base64!"') });
      await refused('/hmac/a', { ...good, authorization: good.authorization.replace(/signature="[^"]*"/, 'signature="%E0%A4%A"') });
    });

    it('a tampered signature, path or signed header → 400', async () => {
      const good = signedHeaders('signer', '/hmac/a');
      const flipped = good.authorization.replace(/signature="(.)/, (_, first: string) => `signature="${first === 'A' ? 'B' : 'A'}`);
      await refused('/hmac/a', { ...good, authorization: flipped });
      await refused('/hmac/b', good);
      const withHeader = signedHeaders('signer', '/hmac/a', { headers: ['(request-target)', 'date', 'x-amount'] }, { 'x-amount': '10' });
      assert.equal((await call('/hmac/a', withHeader)).status, 200);
      await refused('/hmac/a', { ...withHeader, 'x-amount': '1000' });
    });

    it('an unknown keyId, or a key without hmac_enabled → 400', async () => {
      await refused('/hmac/a', signedHeaders('signer', '/hmac/a', { keyId: 'no-such-key' }));
      await refused('/hmac/a', signedHeaders('signer', '/hmac/a', { keyId: keys.plain.key, secret: '' }));
    });

    it('a date outside hmac_allowed_clock_skew → 400; with the check off (≤ 0) it passes', async () => {
      const old = new Date(Date.now() - 10 * 60_000).toUTCString();
      await refused('/hmac/a', signedHeaders('signer', '/hmac/a', {}, { date: old }));
      await refused('/hmac/a', signedHeaders('signer', '/hmac/a', {}, { date: new Date(Date.now() + 60_000).toUTCString() }));
      assert.equal((await call('/no-skew/a', signedHeaders('signer', '/no-skew/a', {}, { date: old }))).status, 200);
      await refused('/no-skew/a', signedHeaders('signer', '/no-skew/a', {}, { date: 'yesterday' }));
    });

    it('hmac_allowed_algorithms: another algorithm → 400; unsupported ones always', async () => {
      assert.equal((await call('/limited/a', signedHeaders('signer', '/limited/a', { algorithm: 'hmac-sha256' }))).status, 200);
      await refused('/limited/a', signedHeaders('signer', '/limited/a', { algorithm: 'hmac-sha512' }));
      const rsa = signedHeaders('signer', '/hmac/a');
      await refused('/hmac/a', { ...rsa, authorization: rsa.authorization.replace('hmac-sha256', 'rsa-sha256') });
    });

    it('a key keeps its secret when updated, and stops signing once hmac_enabled is turned off', async () => {
      const session = (await dashboard(`/apis/${ids.hmac}/keys/${keys.signer.key}`)).json.data;
      const kept = await dashboard(`/apis/${ids.hmac}/keys/${keys.signer.key}`, { method: 'PUT', body: { ...session, hmac_string: 'ignored' } });
      assert.equal(kept.status, 200, kept.text);
      assert.deepEqual(kept.json, { Status: 'OK', Message: 'Key updated', Meta: null }, 'a kept secret is not shown');
      assert.equal((await call('/hmac/a', signedHeaders('signer', '/hmac/a'))).status, 200);
      const off = await dashboard(`/apis/${ids.hmac}/keys/${keys.signer.key}`, { method: 'PUT', body: { ...session, hmac_enabled: false } });
      assert.equal(off.status, 200, off.text);
      await eventuallyRefused(() => call('/hmac/a', signedHeaders('signer', '/hmac/a')));
      const on = await dashboard(`/apis/${ids.hmac}/keys/${keys.signer.key}`, { method: 'PUT', body: { ...session, hmac_enabled: true } });
      assert.match(on.json.Meta.hmac_string, /^[A-Za-z0-9+/]{43}=$/, 'turned on again: a new secret, shown once');
      assert.notEqual(on.json.Meta.hmac_string, keys.signer.secret);
      keys.signer.secret = on.json.Meta.hmac_string;
      await eventually(async () => assert.equal((await call('/hmac/a', signedHeaders('signer', '/hmac/a'))).status, 200));
    });
  });

  describe('HMAC and an auth token both required on one API', () => {
    const both = (path: string, token = keys.token.key) => ({ ...signedHeaders('signer', path), 'x-api-key': token });

    it('base_identity_provided_by auth_token: the token key gives the session (the HMAC key has no access there)', async () => {
      const res = await call('/both-token/a', both('/both-token/a'));
      assert.equal(res.status, 200, res.text);
      const received = upstream.received.at(-1)!;
      assert.equal(received.headers['x-api-key'], keys.token.key);
      assert.match(String(received.headers.authorization), /^Signature keyId=/);
    });

    it('base_identity_provided_by hmac_key: the HMAC key gives the session (the token key has no access there)', async () => {
      assert.equal((await call('/both-hmac/a', both('/both-hmac/a'))).status, 200);
    });

    it('unset: the last mode (the token) gives the session', async () => {
      assert.equal((await call('/both-unset/a', both('/both-unset/a'))).status, 200);
    });

    it('each mode must pass: no token → 401, an unknown token → 403, no or a bad signature → 400', async () => {
      const signed = signedHeaders('signer', '/both-token/a');
      assert.equal((await call('/both-token/a', signed)).status, 401);
      assert.equal((await call('/both-token/a', both('/both-token/a', 'no-such-key'))).status, 403);
      assert.equal((await call('/both-token/a', { 'x-api-key': keys.token.key })).status, 400);
      assert.equal((await call('/both-token/a', both('/both-token/b'))).status, 400);
    });

    it('a base identity the API does not use: the API is not served (503) rather than served without a session', async () => {
      const res = await call('/both-bad/a', both('/both-bad/a'));
      assert.equal(res.status, 503);
      assert.match(res.json.error, /is not available/);
    });
  });
});

async function eventuallyRefused(request: () => Promise<HttpResult>): Promise<void> {
  await eventually(async () => assert.equal((await request()).status, 400));
}
