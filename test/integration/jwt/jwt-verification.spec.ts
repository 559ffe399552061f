import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http, type HttpResult } from '../../support/http';
import {
  algorithmConfusionToken,
  asymmetricKey,
  freshClaims,
  hmacKey,
  malformedTokens,
  oversizedToken,
  signToken,
  startJwksServer,
  unsignedToken,
  type AsymmetricAlg,
  type AsymmetricTestKey,
  type JwksServer,
  type SecretTestKey,
  type TestKey,
} from '../../support/jwt-tokens';
import { startTestNode, type TestNode } from '../../support/node';
import { startUpstream, type Upstream } from '../../support/upstream';

const NOT_AUTHORIZED = 'Key not authorized';
const UNEXPECTED_SIGNING_METHOD = 'Key not authorized: Unexpected signing method';
const RSA_ALGS = ['RS256', 'RS384', 'RS512', 'PS256'] as const;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const base64 = (value: string | Uint8Array) => Buffer.from(value).toString('base64');
const cached = { status: 'ok', message: 'cache invalidated' };

/** What the client sees of each refused request: status and error message. */
const seen = (res: HttpResult) => [res.status, res.json?.error];

describe('JWT verification: what a client sees for each kind of token', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let policyId: string;
  const apiIds = new Map<string, string>();
  const keys = new Map<string, AsymmetricTestKey>();
  const hmac: SecretTestKey = hmacKey('HS256');
  let rsaSet: JwksServer;
  let ecdsaSet: JwksServer;
  let rotatingSet: JwksServer;
  let flushedSet: JwksServer;
  let rotated: AsymmetricTestKey;
  let flushedKey: AsymmetricTestKey;

  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, token?: string) =>
    http(`${node.gatewayUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const signed = (key: TestKey, extra: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    signToken(key, freshClaims({ sub: `user-${randomBytes(4).toString('hex')}`, pol: policyId, ...extra }), header);
  const key = (name: string) => keys.get(name)!;
  /** a request the upstream received, found by a marker in its path */
  const upstreamGot = (marker: string) => upstream.received.some((request) => request.url.includes(marker));

  const APIS: Record<string, () => Record<string, unknown>> = {
    hmac: () => ({ jwt_signing_method: 'hmac', jwt_source: base64(hmac.secret) }),
    ...Object.fromEntries(
      RSA_ALGS.map((alg) => [
        `pem-${alg}`,
        () => ({ jwt_signing_method: 'rsa', jwt_source: base64(key(alg).publicPem) }),
      ]),
    ),
    'rsa-jwks': () => ({ jwt_signing_method: 'rsa', jwt_source: base64(rsaSet.url) }),
    'pem-ES256': () => ({ jwt_signing_method: 'ecdsa', jwt_source: base64(key('ES256').publicPem) }),
    'pem-ES384': () => ({ jwt_signing_method: 'ecdsa', jwt_source: base64(key('ES384').publicPem) }),
    'ecdsa-jwks': () => ({ jwt_signing_method: 'ecdsa', jwt_jwks_uris: [{ url: ecdsaSet.url }] }),
    'pem-EdDSA': () => ({ jwt_signing_method: 'eddsa', jwt_source: base64(key('EdDSA').publicPem) }),
    'time-strict': () => ({ jwt_signing_method: 'hmac', jwt_source: base64(hmac.secret) }),
    'time-skewed': () => ({
      jwt_signing_method: 'hmac',
      jwt_source: base64(hmac.secret),
      jwt_expires_at_validation_skew: 120,
      jwt_issued_at_validation_skew: 120,
      jwt_not_before_validation_skew: 120,
    }),
    claims: () => ({
      jwt_signing_method: 'hmac',
      jwt_source: base64(hmac.secret),
      jwt_allowed_issuers: ['https://idp.gw.test'],
      jwt_allowed_audiences: ['api://orders', 'api://billing'],
      jwt_require_jti: true,
    }),
    rotating: () => ({ jwt_signing_method: 'rsa', jwt_source: rotatingSet.url }),
    flushed: () => ({ jwt_signing_method: 'rsa', jwt_source: base64(flushedSet.url) }),
  };

  before(async () => {
    upstream = await startUpstream();
    // refetches of a key set for unknown kids at most once a second (10 s by default)
    node = await startTestNode({ jwksRefetchInterval: 1 });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    for (const alg of [...RSA_ALGS, 'ES256', 'ES384', 'EdDSA'] as AsymmetricAlg[])
      keys.set(alg, await asymmetricKey(alg));
    rotated = await asymmetricKey('RS256', 'rotated');
    flushedKey = await asymmetricKey('RS256');
    rsaSet = await startJwksServer(RSA_ALGS.map(key));
    ecdsaSet = await startJwksServer([key('ES256'), key('ES384')]);
    rotatingSet = await startJwksServer([key('RS256')]);
    flushedSet = await startJwksServer([flushedKey]);

    for (const [name, fields] of Object.entries(APIS)) {
      const res = await dashboard('/apis', {
        method: 'POST',
        body: keylessApi(name, `/${name}`, upstream.url, {
          use_keyless: false,
          enable_jwt: true,
          jwt_policy_field_name: 'pol',
          ...fields(),
        }),
      });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      const stored = await dashboard(`/apis/${res.json.Meta as string}`);
      apiIds.set(name, (stored.json as { api_definition: { api_id: string } }).api_definition.api_id);
    }
    assert.equal(apiIds.size, Object.keys(APIS).length);
    const policy = await dashboard('/portal/policies', {
      method: 'POST',
      body: {
        name: 'jwt verification',
        rate: 100_000,
        per: 60,
        access_rights: Object.fromEntries([...apiIds.values()].map((id) => [id, { api_id: id }])),
      },
    });
    assert.equal(policy.status, 200, policy.text);
    policyId = policy.json.Meta as string;
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    for (const set of [rsaSet, ecdsaSet, rotatingSet, flushedSet]) await set?.close();
  });

  /** The token is accepted and the upstream receives the request. */
  const assertAccepted = async (api: string, token: string) => {
    const marker = randomBytes(6).toString('hex');
    const res = await call(`/${api}/${marker}`, token);
    assert.equal(res.status, 200, `${api}: ${res.text}`);
    assert.ok(upstreamGot(marker), `${api}: the upstream did not receive the request`);
  };
  const assertRefused = async (api: string, token: string, status: number, error: string) => {
    const marker = randomBytes(6).toString('hex');
    const res = await call(`/${api}/${marker}`, token);
    assert.deepEqual(seen(res), [status, error], `${api}: ${res.text}`);
    assert.ok(!upstreamGot(marker), `${api}: the upstream received a refused request`);
  };

  describe('each signing method accepts its own algorithms', () => {
    it('HS256, HS384 and HS512 with a base64 secret', async () => {
      for (const alg of ['HS256', 'HS384', 'HS512'] as const)
        await assertAccepted('hmac', await signed({ ...hmac, alg }));
    });

    it('RS256, RS384, RS512 and PS256 with a PEM public key in jwt_source', async () => {
      for (const alg of RSA_ALGS) await assertAccepted(`pem-${alg}`, await signed(key(alg)));
    });

    it('RS256, RS384, RS512 and PS256 from a JWKS URL', async () => {
      for (const alg of RSA_ALGS) await assertAccepted('rsa-jwks', await signed(key(alg)));
    });

    it('ES256 and ES384 (ecdsa), with a PEM public key and from jwt_jwks_uris', async () => {
      for (const alg of ['ES256', 'ES384'] as const) {
        await assertAccepted(`pem-${alg}`, await signed(key(alg)));
        await assertAccepted('ecdsa-jwks', await signed(key(alg)));
      }
    });

    it('EdDSA (eddsa) with a PEM public key', async () => {
      await assertAccepted('pem-EdDSA', await signed(key('EdDSA')));
    });
  });

  describe('tokens that must never pass', () => {
    it('alg none: 403 Unexpected signing method, on every signing method', async () => {
      const token = unsignedToken(freshClaims({ sub: 'mallory', pol: policyId }), { kid: key('RS256').kid });
      for (const api of ['hmac', 'pem-RS256', 'rsa-jwks', 'pem-ES256', 'pem-EdDSA'])
        await assertRefused(api, token, 403, UNEXPECTED_SIGNING_METHOD);
    });

    it('algorithm confusion: HS256 signed with the public PEM on an rsa API is 403 Unexpected signing method', async () => {
      const token = algorithmConfusionToken(key('RS256'), freshClaims({ sub: 'mallory', pol: policyId }));
      await assertRefused('pem-RS256', token, 403, UNEXPECTED_SIGNING_METHOD);
      await assertRefused('rsa-jwks', token, 403, UNEXPECTED_SIGNING_METHOD);
    });

    it('a token of another family (ES256 on an rsa API, RS256 on an hmac API) is 403 Unexpected signing method', async () => {
      await assertRefused('pem-RS256', await signed(key('ES256')), 403, UNEXPECTED_SIGNING_METHOD);
      await assertRefused('rsa-jwks', await signed(key('ES256')), 403, UNEXPECTED_SIGNING_METHOD);
      await assertRefused('hmac', await signed(key('RS256')), 403, UNEXPECTED_SIGNING_METHOD);
      await assertRefused('pem-ES256', await signed(key('EdDSA')), 403, UNEXPECTED_SIGNING_METHOD);
    });

    it('a forged signature is 403 Key not authorized', async () => {
      const impostor = await asymmetricKey('RS256', key('RS256').kid);
      await assertRefused('pem-RS256', await signed(impostor), 403, NOT_AUTHORIZED);
      await assertRefused('rsa-jwks', await signed(impostor), 403, NOT_AUTHORIZED);
      await assertRefused('hmac', await signed(hmacKey('HS256')), 403, NOT_AUTHORIZED);
    });

    it('an oversized token is 403 Key not authorized', async () => {
      await assertRefused(
        'hmac',
        await oversizedToken(hmac, 8193, freshClaims({ sub: 'big', pol: policyId })),
        403,
        NOT_AUTHORIZED,
      );
    });

    it('each malformed token is 403 Key not authorized, and the node keeps serving', async () => {
      const valid = await signed(key('RS256'));
      for (const [name, token] of Object.entries(malformedTokens(valid))) {
        const res = await call('/pem-RS256/malformed', token);
        assert.deepEqual(seen(res), [403, NOT_AUTHORIZED], `${name}: ${res.text}`);
      }
      await assertAccepted('pem-RS256', valid);
    });
  });

  describe('time claims', () => {
    it('without skews: expired, not yet valid and issued in the future are 401s', async () => {
      const now = nowSeconds();
      await assertRefused(
        'time-strict',
        await signed(hmac, { exp: now - 10 }),
        401,
        'Key not authorized: token has expired',
      );
      await assertRefused(
        'time-strict',
        await signed(hmac, { nbf: now + 60 }),
        401,
        'Key not authorized: token is not valid yet',
      );
      await assertRefused(
        'time-strict',
        await signed(hmac, { iat: now + 60 }),
        401,
        'Key not authorized: token used before issued',
      );
    });

    it('with skews: the same tokens pass, and a token beyond the skew does not', async () => {
      const now = nowSeconds();
      await assertAccepted('time-skewed', await signed(hmac, { exp: now - 10 }));
      await assertAccepted('time-skewed', await signed(hmac, { nbf: now + 60 }));
      await assertAccepted('time-skewed', await signed(hmac, { iat: now + 60 }));
      await assertRefused(
        'time-skewed',
        await signed(hmac, { exp: now - 300 }),
        401,
        'Key not authorized: token has expired',
      );
      await assertRefused(
        'time-skewed',
        await signed(hmac, { nbf: now + 300 }),
        401,
        'Key not authorized: token is not valid yet',
      );
      await assertRefused(
        'time-skewed',
        await signed(hmac, { iat: now + 300 }),
        401,
        'Key not authorized: token used before issued',
      );
    });
  });

  describe('jwt_allowed_issuers, jwt_allowed_audiences and jwt_require_jti', () => {
    const good = { iss: 'https://idp.gw.test', aud: 'api://orders', jti: 'id-1' };

    it('accepts a token with an allowed issuer, an allowed audience (string or array) and a jti', async () => {
      await assertAccepted('claims', await signed(hmac, good));
      await assertAccepted('claims', await signed(hmac, { ...good, aud: ['api://other', 'api://billing'] }));
    });

    it('refuses a missing or unknown issuer with 401', async () => {
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, iss: undefined }),
        401,
        'Key not authorized: issuer claim is required but not present in token',
      );
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, iss: 'https://evil.test' }),
        401,
        'Key not authorized: invalid issuer claim: https://evil.test',
      );
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, iss: 42 }),
        401,
        'Key not authorized: issuer claim must be a string',
      );
    });

    it('refuses a missing, unknown or malformed audience with 401', async () => {
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, aud: undefined }),
        401,
        'Key not authorized: audience claim is required but not present in token',
      );
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, aud: ['api://a', 'api://b'] }),
        401,
        'Key not authorized: no matching audience found in token: [api://a api://b]',
      );
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, aud: 42 }),
        401,
        'Key not authorized: invalid audience claim format',
      );
    });

    it('refuses a token without a jti with 401', async () => {
      await assertRefused(
        'claims',
        await signed(hmac, { ...good, jti: undefined }),
        401,
        'Key not authorized: JWT ID (jti) claim is required but not present in token',
      );
    });
  });

  describe('key sets by URL', () => {
    it('picks up a rotated key without a restart, with one more fetch', async () => {
      await assertAccepted('rotating', await signed(key('RS256')));
      const fetchedBefore = rotatingSet.requests;
      rotatingSet.setKeys([rotated]);
      const token = await signed(rotated);
      // an unknown kid refetches the set at most once per GW_JWKS_REFETCH_INTERVAL: poll until that has passed
      await eventually(async () => assert.equal((await call('/rotating/rotation', token)).status, 200), 5_000, 100);
      assert.equal(rotatingSet.requests, fetchedBefore + 1);
      await assertAccepted('rotating', await signed(rotated));
      assert.equal(rotatingSet.requests, fetchedBefore + 1);
    });

    it('a flood of 50 tokens with random kids reaches the key set at most once, and the node keeps serving', async () => {
      const fetchedBefore = rotatingSet.requests;
      const flood = await Promise.all(
        Array.from({ length: 50 }, () => signed(rotated, {}, { kid: randomBytes(8).toString('hex') })),
      );
      const answers = await Promise.all(flood.map((token) => call('/rotating/flood', token)));
      for (const res of answers) assert.deepEqual(seen(res), [403, NOT_AUTHORIZED]);
      assert.ok(rotatingSet.requests <= fetchedBefore + 1, `${rotatingSet.requests - fetchedBefore} fetches`);
      await assertAccepted('rotating', await signed(rotated));
    });
  });

  describe('DELETE /gw/cache/jwks', () => {
    const flush = (path: string, headers: Record<string, string> = node.gwHeaders) =>
      http(`${node.gatewayUrl}/gw/cache/jwks${path}`, { method: 'DELETE', headers });

    it("flushing one API's key sets makes its next request fetch the set again", async () => {
      await assertAccepted('flushed', await signed(flushedKey));
      const fetched = flushedSet.requests;
      await assertAccepted('flushed', await signed(flushedKey));
      assert.equal(flushedSet.requests, fetched);
      const res = await flush(`/${apiIds.get('flushed')}`);
      assert.deepEqual([res.status, res.json], [200, cached]);
      await assertAccepted('flushed', await signed(flushedKey));
      assert.equal(flushedSet.requests, fetched + 1);
    });

    it('flushing every key set makes the next request fetch again', async () => {
      await assertAccepted('flushed', await signed(flushedKey));
      const fetched = flushedSet.requests;
      const res = await flush('');
      assert.deepEqual([res.status, res.json], [200, cached]);
      await assertAccepted('flushed', await signed(flushedKey));
      assert.equal(flushedSet.requests, fetched + 1);
    });

    it('a token verified before a flush is verified again after it', async () => {
      const token = await signed(flushedKey);
      await assertAccepted('flushed', token);
      const fetched = flushedSet.requests;
      assert.equal((await flush(`/${apiIds.get('flushed')}`)).status, 200);
      await assertAccepted('flushed', token);
      assert.equal(flushedSet.requests, fetched + 1);
    });

    it('refuses a flush without the node secret (403), and nothing is flushed', async () => {
      await assertAccepted('flushed', await signed(flushedKey));
      const fetched = flushedSet.requests;
      assert.equal((await flush('', {})).status, 403);
      assert.equal((await flush(`/${apiIds.get('flushed')}`, { 'x-gw-authorization': 'wrong' })).status, 403);
      await assertAccepted('flushed', await signed(flushedKey));
      assert.equal(flushedSet.requests, fetched);
    });
  });
});
