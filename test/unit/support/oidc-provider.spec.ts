import { strict as assert } from 'node:assert';
import { startOidcProvider, TokenRequestError, type TestProvider } from '../../support/oidc-provider';
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
  type JwksServer,
} from '../../support/jwt-tokens';

const jose = () => import('jose');

/** The harness the JWT and OpenID Connect tests stand on: a real provider, and tokens made with jose. */
describe('test support: OpenID Connect provider and JWT tokens', function () {
  this.timeout(30000);

  describe('startOidcProvider', () => {
    let provider: TestProvider;

    beforeEach(async () => {
      provider = await startOidcProvider({
        clients: [
          { client_id: 'orders-service', client_secret: 'orders-secret', scopes: ['orders:read', 'orders:write'] },
          { client_id: 'reports', client_secret: 'reports-secret', scopes: ['reports:read'] },
        ],
      });
    });
    afterEach(() => provider.close());

    it('serves its discovery document at the issuer, naming the JWKS and the client credentials grant', async () => {
      assert.match(provider.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
      assert.equal(response.status, 200);
      const discovery = (await response.json()) as Record<string, unknown>;
      assert.equal(discovery.issuer, provider.issuer);
      assert.equal(discovery.jwks_uri, provider.jwksUri);
      assert.ok((discovery.grant_types_supported as string[]).includes('client_credentials'));
    });

    it('issues a client credentials access token that verifies against the discovered JWKS', async () => {
      const { createRemoteJWKSet, jwtVerify } = await jose();
      const token = await provider.clientCredentialsToken('orders-service', 'orders-secret', 'orders:read');
      const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(provider.jwksUri)), {
        issuer: provider.issuer,
        audience: 'https://api.gw.test',
        algorithms: ['RS256'],
      });
      assert.deepEqual(protectedHeader, { alg: 'RS256', typ: 'at+jwt', kid: provider.kid });
      assert.deepEqual(Object.keys(payload).sort(), ['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub']);
      assert.equal(payload.client_id, 'orders-service');
      // no end user in this grant: the subject is the client itself
      assert.equal(payload.sub, 'orders-service');
      assert.equal(payload.scope, 'orders:read');
      assert.equal(payload.exp! - payload.iat!, 300);
      assert.ok(Math.abs(payload.iat! - Date.now() / 1000) < 10);
    });

    it('grants the scopes asked for, and refuses one the client does not have', async () => {
      const { decodeJwt } = await jose();
      const both = await provider.clientCredentialsToken('orders-service', 'orders-secret', 'orders:read orders:write');
      assert.equal(decodeJwt(both).scope, 'orders:read orders:write');
      const none = await provider.clientCredentialsToken('reports', 'reports-secret');
      assert.equal(decodeJwt(none).scope, undefined);
      await assert.rejects(provider.clientCredentialsToken('reports', 'reports-secret', 'orders:read'), (err) => {
        assert.ok(err instanceof TokenRequestError);
        assert.equal(err.status, 400);
        assert.equal(err.body?.error, 'invalid_scope');
        return true;
      });
    });

    it('refuses a wrong secret and an unknown client', async () => {
      for (const [clientId, secret] of [
        ['orders-service', 'not-the-secret'],
        ['nobody', 'orders-secret'],
      ]) {
        await assert.rejects(provider.clientCredentialsToken(clientId, secret), (err) => {
          assert.ok(err instanceof TokenRequestError);
          assert.equal(err.status, 401);
          assert.equal(err.body?.error, 'invalid_client');
          return true;
        });
      }
    });

    it('rotates its signing key: a new kid signs, the old kid leaves the JWKS, the issuer stays', async () => {
      const { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } = await jose();
      const before = await provider.clientCredentialsToken('orders-service', 'orders-secret');
      const { issuer, jwksUri } = provider;
      const oldKid = decodeProtectedHeader(before).kid;

      await provider.rotateKeys();

      const after = await provider.clientCredentialsToken('orders-service', 'orders-secret');
      const newKid = decodeProtectedHeader(after).kid;
      assert.notEqual(newKid, oldKid);
      assert.equal(newKid, provider.kid);
      const jwks = (await (await fetch(jwksUri)).json()) as { keys: Array<{ kid: string }> };
      assert.deepEqual(
        jwks.keys.map((key) => key.kid),
        [newKid],
      );
      const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(discovery.issuer, issuer);
      assert.equal(discovery.jwks_uri, jwksUri);

      const keySet = createRemoteJWKSet(new URL(jwksUri));
      const { payload } = await jwtVerify(after, keySet, { issuer });
      assert.equal(payload.iss, issuer);
      await assert.rejects(jwtVerify(before, keySet, { issuer }), { code: 'ERR_JWKS_NO_MATCHING_KEY' });
    });
  });

  describe('jwt-tokens', () => {
    let jwks: JwksServer | undefined;
    afterEach(() => jwks?.close());

    const algorithms: AsymmetricAlg[] = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];
    for (const alg of algorithms) {
      it(`signs ${alg} tokens that verify with their public JWK and PEM`, async () => {
        const { importJWK, importSPKI, jwtVerify } = await jose();
        const key = await asymmetricKey(alg);
        const token = await signToken(key, freshClaims({ sub: 'alice' }));
        const byJwk = await jwtVerify(token, await importJWK(key.publicJwk, alg));
        assert.equal(byJwk.payload.sub, 'alice');
        assert.deepEqual(byJwk.protectedHeader, { alg, kid: key.kid, typ: 'JWT' });
        const byPem = await jwtVerify(token, await importSPKI(key.publicPem, alg));
        assert.equal(byPem.payload.sub, 'alice');
      });
    }

    it('signs HS256 tokens, with a header a test may change', async () => {
      const { jwtVerify } = await jose();
      const key = hmacKey();
      const token = await signToken(key, freshClaims({ sub: 'bob' }), { kid: undefined, typ: 'custom' });
      const { payload, protectedHeader } = await jwtVerify(token, key.secret);
      assert.equal(payload.sub, 'bob');
      assert.deepEqual(protectedHeader, { alg: 'HS256', typ: 'custom' });
    });

    it('serves a JWKS, counts its fetches, and serves new keys once set', async () => {
      const { createRemoteJWKSet, jwtVerify } = await jose();
      const first = await asymmetricKey('RS256');
      const second = await asymmetricKey('ES256');
      jwks = await startJwksServer([first]);
      assert.equal(jwks.requests, 0);
      const keySet = createRemoteJWKSet(new URL(jwks.url), { cooldownDuration: 0 });

      await jwtVerify(await signToken(first, freshClaims()), keySet);
      await jwtVerify(await signToken(first, freshClaims()), keySet);
      assert.equal(jwks.requests, 1, 'the key set caches what it fetched');

      jwks.setKeys([second]);
      await jwtVerify(await signToken(second, freshClaims()), keySet);
      assert.equal(jwks.requests, 2, 'an unknown kid fetches the set again');
      const served = (await (await fetch(jwks.url)).json()) as { keys: Array<{ kid: string }> };
      assert.deepEqual(
        served.keys.map((key) => key.kid),
        [second.kid],
      );
      assert.equal(jwks.requests, 3);
    });

    it('builds an unsigned alg:none token, which jose refuses', async () => {
      const { decodeJwt, decodeProtectedHeader, jwtVerify } = await jose();
      const key = await asymmetricKey('RS256');
      const token = unsignedToken(freshClaims({ sub: 'mallory' }));
      assert.ok(token.endsWith('.'));
      assert.equal(decodeProtectedHeader(token).alg, 'none');
      assert.equal(decodeJwt(token).sub, 'mallory');
      await assert.rejects(jwtVerify(token, key.publicKey));
    });

    it('builds an algorithm confusion token: HMAC by the RSA public key PEM', async () => {
      const { jwtVerify } = await jose();
      const key = await asymmetricKey('RS256');
      const token = algorithmConfusionToken(key, freshClaims({ sub: 'mallory' }));
      // what a confused verifier would do: take the PEM as an HMAC secret
      const confused = await jwtVerify(token, new TextEncoder().encode(key.publicPem));
      assert.equal(confused.payload.sub, 'mallory');
      assert.equal(confused.protectedHeader.alg, 'HS256');
      // what a sound one does
      await assert.rejects(jwtVerify(token, key.publicKey));
    });

    it('builds an oversized token that still verifies', async () => {
      const { jwtVerify } = await jose();
      const key = hmacKey();
      const token = await oversizedToken(key, 64 * 1024);
      assert.ok(token.length >= 64 * 1024, `${token.length}`);
      assert.ok(token.length < 64 * 1024 + 1024, `${token.length}`);
      await jwtVerify(token, key.secret);
    });

    it('builds malformed tokens, each refused by jose', async () => {
      const { jwtVerify } = await jose();
      const key = hmacKey();
      const valid = await signToken(key, freshClaims());
      await jwtVerify(valid, key.secret);
      const malformed = malformedTokens(valid);
      assert.equal(Object.keys(malformed).length, 10);
      for (const [name, token] of Object.entries(malformed)) {
        await assert.rejects(jwtVerify(token, key.secret), `${name} was accepted`);
      }
    });
  });
});
