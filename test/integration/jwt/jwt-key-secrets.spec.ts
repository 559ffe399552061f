import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { http, type HttpResult } from '../../support/http';
import { asymmetricKey, freshClaims, hmacKey, signToken, type SecretTestKey } from '../../support/jwt-tokens';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { startUpstream, type Upstream } from '../../support/upstream';

/**
 * The reference gateway's one-to-one JWT mode: an API with `enable_jwt` and no central source
 * (no `jwt_source`, no `jwt_jwks_uris`) verifies each token with the `jwt_data.secret` of the
 * key its `kid` (or, with `jwt_skip_kid`, its `sub`) names, and the request then carries that
 * key's session: its limits, its access rights, its life.
 */
describe('JWT with key secrets: the token names the key whose secret verifies it', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  const apis: Record<string, string> = {};

  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: acme.headers });
  const call = (path: string, token: string) =>
    http(`${node.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const createApi = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi(name, `/${name}`, upstream.url, { use_keyless: false, enable_jwt: true, ...extra }),
    });
    assert.equal(res.status, 200, res.text);
    apis[name] = res.json.ID;
  };
  /** A key of the key store named `name`, whose tokens `secret` verifies. */
  const createKey = async (name: string, api: string, secret: string, limits = { rate: 1000, per: 60 }) => {
    const res = await dashboard(`/keys/${name}`, {
      method: 'POST',
      body: {
        ...limits,
        access_rights: { [apis[api]]: { api_id: apis[api], versions: [] } },
        jwt_data: { secret },
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.key_id, name);
    assert.deepEqual(res.json.data.jwt_data, { secret }, 'jwt_data is kept as sent');
  };
  const hmacSecretKey = (kid: string): SecretTestKey & { text: string } => {
    const text = `secret-of-${kid}-${Math.random().toString(36).slice(2)}`;
    return { ...hmacKey('HS256', kid), secret: new TextEncoder().encode(text), text };
  };
  const refused = (res: HttpResult, status: number, error: string) => {
    assert.equal(res.status, status, res.text);
    assert.deepEqual(res.json, { error });
  };
  const reached = (res: HttpResult, path: string) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(upstream.received.at(-1)?.url, path);
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    await createApi('by-kid', { jwt_signing_method: 'hmac' });
    await createApi('rsa', { jwt_signing_method: 'rsa' });
    await createApi('by-sub', { jwt_signing_method: 'hmac', jwt_skip_kid: true });
    await createApi('elsewhere', { jwt_signing_method: 'hmac' });
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('passes a token its key secret verifies; the upstream receives the token', async () => {
    const key = hmacSecretKey('acme-alice');
    await createKey('acme-alice', 'by-kid', key.text);
    const token = await signToken(key, freshClaims({ sub: 'alice' }));
    reached(await call('/by-kid/orders', token), '/orders');
    assert.equal(upstream.received.at(-1)?.headers.authorization, `Bearer ${token}`);
  });

  it("applies the key's access rights: an API the key has no rights to refuses its token", async () => {
    const key = hmacSecretKey('acme-frank');
    await createKey('acme-frank', 'by-kid', key.text);
    const token = await signToken(key, freshClaims());
    reached(await call('/by-kid/mine', token), '/mine');
    refused(await call('/elsewhere/theirs', token), 403, 'Access to this API has been disallowed');
  });

  it("applies the key's own rate limit", async () => {
    const key = hmacSecretKey('acme-limited');
    await createKey('acme-limited', 'by-kid', key.text, { rate: 2, per: 60 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call('/by-kid/a', await signToken(key, freshClaims()))).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  });

  it('refuses a token signed with another secret, or naming no key of the store, with 403', async () => {
    const key = hmacSecretKey('acme-bob');
    await createKey('acme-bob', 'by-kid', key.text);
    const before = upstream.received.length;
    const forged = await signToken(hmacSecretKey('acme-bob'), freshClaims());
    refused(await call('/by-kid/a', forged), 403, 'Key not authorized');
    const stranger = await signToken(hmacSecretKey('acme-nobody'), freshClaims());
    refused(await call('/by-kid/a', stranger), 403, 'Key not authorized');
    assert.equal(upstream.received.length, before, 'a refused request never reaches the upstream');
  });

  it('refuses a token of a key that holds no jwt_data.secret with 403', async () => {
    const res = await dashboard('/keys/acme-plain', {
      method: 'POST',
      body: { rate: 1000, per: 60, access_rights: { [apis['by-kid']]: { api_id: apis['by-kid'], versions: [] } } },
    });
    assert.equal(res.status, 200, res.text);
    refused(
      await call('/by-kid/a', await signToken(hmacSecretKey('acme-plain'), freshClaims())),
      403,
      'Key not authorized',
    );
  });

  it('refuses the tokens of a key at once when it is deleted or its secret changes', async () => {
    const key = hmacSecretKey('acme-carol');
    await createKey('acme-carol', 'by-kid', key.text);
    const token = await signToken(key, freshClaims());
    reached(await call('/by-kid/before', token), '/before');
    reached(await call('/by-kid/again', token), '/again');

    const changed = await dashboard(`/apis/${apis['by-kid']}/keys/acme-carol`, {
      method: 'PUT',
      body: {
        rate: 1000,
        per: 60,
        access_rights: { [apis['by-kid']]: { api_id: apis['by-kid'], versions: [] } },
        jwt_data: { secret: 'a-new-secret' },
      },
    });
    assert.equal(changed.status, 200, changed.text);
    refused(await call('/by-kid/changed', token), 403, 'Key not authorized');

    const other = hmacSecretKey('acme-dave');
    await createKey('acme-dave', 'by-kid', other.text);
    const daveToken = await signToken(other, freshClaims());
    reached(await call('/by-kid/dave', daveToken), '/dave');
    const deleted = await dashboard(`/apis/${apis['by-kid']}/keys/acme-dave`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);
    refused(await call('/by-kid/deleted', daveToken), 403, 'Key not authorized');
  });

  it('verifies with a PEM public key in jwt_data.secret (jwt_signing_method rsa)', async () => {
    const rsa = await asymmetricKey('RS256', 'acme-rsa');
    await createKey('acme-rsa', 'rsa', rsa.publicPem);
    reached(await call('/rsa/r', await signToken(rsa, freshClaims())), '/r');
    const otherRsa = await asymmetricKey('RS256', 'acme-rsa');
    refused(await call('/rsa/r', await signToken(otherRsa, freshClaims())), 403, 'Key not authorized');
  });

  it('names the key by sub with jwt_skip_kid, whatever the kid says', async () => {
    const key = hmacSecretKey('acme-erin');
    await createKey('acme-erin', 'by-sub', key.text);
    const token = await signToken(key, freshClaims({ sub: 'acme-erin' }), { kid: 'acme-somebody-else' });
    reached(await call('/by-sub/s', token), '/s');
    const wrongSub = await signToken(key, freshClaims({ sub: 'acme-nobody' }));
    refused(await call('/by-sub/s', wrongSub), 403, 'Key not authorized');
  });
});
