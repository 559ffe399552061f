import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { freshClaims } from '../../support/jwt-tokens';
import { startLocalOidcIssuer, type LocalOidcIssuer } from '../../support/local-oidc-issuer';
import { startTestNode, type TestNode } from '../../support/node';
import { startOidcProvider, type OidcTestClient, type TestProvider } from '../../support/oidc-provider';
import { startUpstream, type Upstream } from '../../support/upstream';

const SECRET = 'client-secret-of-a-test';
const client = (client_id: string, scopes?: string[]): OidcTestClient => ({
  client_id,
  client_secret: SECRET,
  ...(scopes ? { scopes } : {}),
});
const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * JWT and OpenID Connect authentication against a real OpenID Connect provider (oidc-provider):
 * clients get RS256 access tokens by the client credentials grant and call APIs of a running
 * node, which finds the provider's keys by its JWKS URL (JWT) or by discovery (OpenID Connect).
 */
describe('OpenID Connect: tokens of a real provider open APIs', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let provider: TestProvider;
  let otherProvider: TestProvider;
  let rotating: TestProvider;
  let local: LocalOidcIssuer;
  const policies: Record<string, string> = {};
  const apiIds: Record<string, string> = {};

  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, token?: string) =>
    http(`${node.gatewayUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const tokenOf = (from: TestProvider, clientId: string, scope?: string) =>
    from.clientCredentialsToken(clientId, SECRET, scope);
  /** the statuses of `count` calls in a row */
  const statuses = async (path: string, token: string, count: number) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await call(path, token)).status);
    return seen;
  };

  before(async () => {
    upstream = await startUpstream();
    // refetches of a key set for unknown kids at most once a second (10 s by default)
    node = await startTestNode({ jwksRefetchInterval: 1 });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    provider = await startOidcProvider({
      clients: [
        client('reader', ['read']),
        client('writer', ['write']),
        client('forwarded', ['write']),
        client('base64-reader', ['read']),
        client('issuer-checked', ['read']),
        client('gold-app'),
        client('silver-app'),
        client('unlisted-app'),
        client('scoped-app', ['oidc.read']),
        client('unlisted-scoped-app', ['oidc.read']),
      ],
    });
    otherProvider = await startOidcProvider({ clients: [client('gold-app')] });
    rotating = await startOidcProvider({ clients: [client('rotated-app')] });
    local = await startLocalOidcIssuer();

    // APIs first (policies name the APIs they open), then the policies, then the APIs' policy settings
    const apis: Record<string, Record<string, unknown>> = {
      jwtPlain: { enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: provider.jwksUri },
      jwtBase64: { enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: b64(provider.jwksUri) },
      jwtOtherIssuer: { enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: provider.jwksUri },
      jwtRotating: { enable_jwt: true, jwt_signing_method: 'rsa', jwt_source: rotating.jwksUri },
      oidc: { use_openid: true },
      oidcScopes: { use_openid: true },
      oidcSegregated: { use_openid: true },
      oidcJoint: { use_openid: true },
    };
    for (const [name, extra] of Object.entries(apis)) {
      const created = await dashboard('/apis', {
        method: 'POST',
        body: keylessApi(name, `/${name}`, upstream.url, { use_keyless: false, ...extra }),
      });
      assert.equal(created.status, 200, created.text);
      apiIds[name] = created.json.Meta;
    }
    const records = (await dashboard('/apis')).json.apis as Array<{
      api_definition: Record<string, unknown> & { id: string; api_id: string };
    }>;
    const definitionOf = (name: string) => records.find((r) => r.api_definition.id === apiIds[name])!.api_definition;
    const access = Object.fromEntries(
      Object.keys(apis).map((name) => [definitionOf(name).api_id, { api_id: definitionOf(name).api_id }]),
    );
    const rates = { read: 2, write: 3, open: 1000, gold: 3, silver: 1, oidcRead: 2, pair: 2 };
    for (const [name, rate] of Object.entries(rates)) {
      const created = await dashboard('/portal/policies', {
        method: 'POST',
        body: { name, rate, per: 60, access_rights: access },
      });
      assert.equal(created.status, 200, created.text);
      policies[name] = created.json.Meta;
    }

    const jwtByClient = {
      jwt_identity_base_field: 'client_id',
      jwt_scope_to_policy_mapping: { read: policies.read, write: policies.write },
    };
    const pair = { [b64('app-one')]: policies.pair, [b64('app-two')]: policies.pair };
    const settings: Record<string, Record<string, unknown>> = {
      jwtPlain: { ...jwtByClient, jwt_allowed_issuers: [provider.issuer] },
      jwtBase64: jwtByClient,
      jwtOtherIssuer: { ...jwtByClient, jwt_allowed_issuers: [otherProvider.issuer] },
      jwtRotating: { jwt_identity_base_field: 'client_id', jwt_default_policies: [policies.open] },
      oidc: {
        openid_options: {
          providers: [
            {
              issuer: provider.issuer,
              client_ids: { [b64('gold-app')]: policies.gold, [b64('silver-app')]: policies.silver },
            },
          ],
        },
      },
      oidcScopes: {
        openid_options: {
          providers: [{ issuer: provider.issuer, client_ids: { [b64('scoped-app')]: policies.gold } }],
        },
        scopes: { oidc: { scope_to_policy: { 'oidc.read': policies.oidcRead } } },
      },
      oidcSegregated: {
        openid_options: { providers: [{ issuer: local.issuer, client_ids: pair }], segregate_by_client: true },
      },
      oidcJoint: { openid_options: { providers: [{ issuer: local.issuer, client_ids: pair }] } },
    };
    for (const [name, extra] of Object.entries(settings)) {
      const updated = await dashboard(`/apis/${apiIds[name]}`, {
        method: 'PUT',
        body: { api_definition: { ...definitionOf(name), ...extra } },
      });
      assert.equal(updated.status, 200, updated.text);
    }
    // the node serves the last change once a token of a listed client opens that API
    const probe = await local.sign(freshClaims({ sub: 'ready-probe', aud: 'app-one' }));
    await eventually(async () => assert.equal((await call('/oidcJoint/ready', probe)).status, 200), 3000);
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    await provider?.close();
    await otherProvider?.close();
    await rotating?.close();
    await local?.close();
  });

  describe('JWT with the provider key set (enable_jwt, jwt_source = its JWKS URL)', () => {
    it('lets a client credentials token through to the upstream, as sent', async () => {
      const token = await tokenOf(provider, 'forwarded', 'write');
      const res = await call('/jwtPlain/orders?x=1', token);
      assert.equal(res.status, 200, res.text);
      const received = upstream.received.at(-1)!;
      assert.equal(received.url, '/orders?x=1');
      assert.equal(received.headers.authorization, `Bearer ${token}`);
    });

    it('picks the policy by scope: read gets its rate (2), write its own (3)', async () => {
      const reader = await tokenOf(provider, 'reader', 'read');
      assert.deepEqual(await statuses('/jwtPlain/r', reader, 3), [200, 200, 429]);
      const writer = await tokenOf(provider, 'writer', 'write');
      assert.deepEqual(await statuses('/jwtPlain/w', writer, 4), [200, 200, 200, 429]);
    });

    it('takes the key set URL base64-encoded too', async () => {
      const token = await tokenOf(provider, 'base64-reader', 'read');
      const res = await call('/jwtBase64/x', token);
      assert.equal(res.status, 200, res.text);
    });

    it('refuses a token of an issuer jwt_allowed_issuers does not name', async () => {
      const token = await tokenOf(provider, 'issuer-checked', 'read');
      const refused = await call('/jwtOtherIssuer/x', token);
      assert.equal(refused.status, 401);
      assert.equal(refused.json.error, `Key not authorized: invalid issuer claim: ${provider.issuer}`);
      // the same client's token where the provider is the allowed issuer
      assert.equal((await call('/jwtPlain/x', token)).status, 200);
    });

    it('refuses a token signed by another provider (its key is not in the set)', async () => {
      const stranger = await tokenOf(otherProvider, 'gold-app');
      assert.equal((await call('/jwtBase64/x', stranger)).status, 403);
    });

    /**
     * A key rotation without a restart. The node keeps a fetched key set for 10 minutes and
     * fetches it again when a token names a kid it does not have, at most once per
     * GW_JWKS_REFETCH_INTERVAL (1 s here, 10 s by default); a token
     * that passed is remembered for up to 60 s (or until a flush). So, after the provider drops
     * the old key: an old token the node has never seen still passes until a new-kid token makes
     * it refetch the set; the new token passes within the interval; an old token it already accepted
     * keeps passing for at most a minute unless the cache is flushed.
     */
    it('follows a key rotation without a restart; old tokens end with the refetched set, or a flush', async () => {
      const seenBefore = await tokenOf(rotating, 'rotated-app');
      const unseenEarly = await tokenOf(rotating, 'rotated-app');
      const unseenLate = await tokenOf(rotating, 'rotated-app');
      assert.equal((await call('/jwtRotating/a', seenBefore)).status, 200);
      const oldKid = rotating.kid;

      await rotating.rotateKeys();
      assert.notEqual(rotating.kid, oldKid);
      // no token with the new kid yet: the node still holds the old set
      assert.equal((await call('/jwtRotating/a', unseenEarly)).status, 200);
      const fresh = await tokenOf(rotating, 'rotated-app');
      await eventually(async () => assert.equal((await call('/jwtRotating/b', fresh)).status, 200), 5_000, 100);

      const refused = await call('/jwtRotating/c', unseenLate);
      assert.equal(refused.status, 403);
      assert.equal(refused.json.error, 'Key not authorized');
      assert.equal((await call('/jwtRotating/d', seenBefore)).status, 200, 'a verified token is remembered');

      const flushed = await http(`${node.gatewayUrl}/gw/cache/jwks/${apiIds.jwtRotating}`, {
        method: 'DELETE',
        headers: node.gwHeaders,
      });
      assert.equal(flushed.status, 200, flushed.text);
      assert.equal((await call('/jwtRotating/e', seenBefore)).status, 403);
      assert.equal((await call('/jwtRotating/f', fresh)).status, 200);
    });
  });

  describe('OpenID Connect (use_openid, openid_options.providers)', () => {
    it('finds the keys by discovery and picks the policy by client: gold 3 per minute, silver 1', async () => {
      const gold = await tokenOf(provider, 'gold-app');
      const first = await call('/oidc/hello', gold);
      assert.equal(first.status, 200, first.text);
      assert.equal(upstream.received.at(-1)!.headers.authorization, `Bearer ${gold}`);
      assert.deepEqual(await statuses('/oidc/hello', gold, 3), [200, 200, 429]);
      const silver = await tokenOf(provider, 'silver-app');
      assert.deepEqual(await statuses('/oidc/hello', silver, 2), [200, 429]);
    });

    it('refuses a client the API does not list, and a token of another issuer', async () => {
      const unlisted = await call('/oidc/x', await tokenOf(provider, 'unlisted-app'));
      assert.equal(unlisted.status, 401);
      assert.equal(unlisted.json.error, 'Key not authorised');
      const foreign = await call('/oidc/x', await tokenOf(otherProvider, 'gold-app'));
      assert.equal(foreign.status, 401);
      assert.equal(foreign.json.error, 'Key not authorised');
    });

    it('refuses a request without a token', async () => {
      const res = await call('/oidc/x');
      assert.equal(res.status, 401);
      assert.equal(res.json.error, 'Key not authorised');
    });

    it('maps scopes to policies (scopes.oidc.scope_to_policy) for a listed client', async () => {
      const scoped = await tokenOf(provider, 'scoped-app', 'oidc.read');
      // oidc.read's policy allows 2 a minute; the client's own (gold) would allow 3
      assert.deepEqual(await statuses('/oidcScopes/x', scoped, 3), [200, 200, 429]);
    });

    it('refuses a client the API does not list even when its scopes map to a policy', async () => {
      const res = await call('/oidcScopes/x', await tokenOf(provider, 'unlisted-scoped-app', 'oidc.read'));
      assert.equal(res.status, 401);
      assert.equal(res.json.error, 'Key not authorised');
    });

    it('counts one subject per client with segregate_by_client, once across clients without', async () => {
      const tokenFor = (sub: string, aud: string) => local.sign(freshClaims({ sub, aud }));
      const segregatedOne = await tokenFor('sam', 'app-one');
      assert.deepEqual(await statuses('/oidcSegregated/x', segregatedOne, 3), [200, 200, 429]);
      assert.equal((await call('/oidcSegregated/x', await tokenFor('sam', 'app-two'))).status, 200);

      const jointOne = await tokenFor('kim', 'app-one');
      assert.deepEqual(await statuses('/oidcJoint/x', jointOne, 2), [200, 200]);
      assert.equal((await call('/oidcJoint/x', await tokenFor('kim', 'app-two'))).status, 429);
    });
  });
});
