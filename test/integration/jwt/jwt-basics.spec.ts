import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { http } from '../../support/http';
import {
  asymmetricKey,
  freshClaims,
  hmacKey,
  signToken,
  startJwksServer,
  type JwksServer,
} from '../../support/jwt-tokens';
import { startTestNode, type TestNode } from '../../support/node';
import { startUpstream, type Upstream } from '../../support/upstream';

describe('JWT authentication: a token from the client identity provider opens an API', () => {
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let jwks: JwksServer;
  let rsa: Awaited<ReturnType<typeof asymmetricKey>>;
  const hmac = hmacKey();
  let policyId: string;
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, token?: string) =>
    http(`${node.gatewayUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const createApi = async (name: string, listenPath: string, extra: Record<string, unknown>) => {
    const res = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi(name, listenPath, upstream.url, { use_keyless: false, enable_jwt: true, ...extra }),
    });
    assert.equal(res.status, 200, res.text);
    return res.json.Meta as string;
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    rsa = await asymmetricKey('RS256');
    jwks = await startJwksServer([rsa]);
    const rsaApi = await createApi('rsa', '/rsa', {
      jwt_signing_method: 'rsa',
      jwt_source: Buffer.from(jwks.url).toString('base64'),
      jwt_policy_field_name: 'pol',
    });
    const hmacApi = await createApi('hmac', '/hmac', {
      jwt_signing_method: 'hmac',
      jwt_source: Buffer.from(hmac.secret).toString('base64'),
    });
    const apis = [rsaApi, hmacApi];
    const dashboardApis = (await dashboard('/apis')).json.apis as Array<{
      api_definition: { id: string; api_id: string };
    }>;
    const apiIds = dashboardApis.filter((a) => apis.includes(a.api_definition.id)).map((a) => a.api_definition.api_id);
    const policy = await dashboard('/portal/policies', {
      method: 'POST',
      body: {
        name: 'jwt users',
        rate: 2,
        per: 60,
        access_rights: Object.fromEntries(apiIds.map((id) => [id, { api_id: id }])),
      },
    });
    assert.equal(policy.status, 200, policy.text);
    policyId = policy.json.Meta;
    const hmacDefinition = dashboardApis.find((a) => a.api_definition.id === hmacApi)!;
    await dashboard(`/apis/${hmacApi}`, {
      method: 'PUT',
      body: { api_definition: { ...hmacDefinition.api_definition, jwt_default_policies: [policyId] } },
    });
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    await jwks?.close();
  });

  it('accepts an RS256 token from a key set and rate limits its identity', async () => {
    const token = await signToken(rsa, freshClaims({ sub: 'alice', pol: policyId }));
    const first = await call('/rsa/hello', token);
    assert.equal(first.status, 200, first.text);
    assert.equal((await call('/rsa/hello', token)).status, 200);
    assert.equal((await call('/rsa/hello', token)).status, 429);
    const other = await signToken(rsa, freshClaims({ sub: 'bob', pol: policyId }));
    assert.equal((await call('/rsa/hello', other)).status, 200);
  });

  it('refuses a missing, an expired and a wrongly signed token', async () => {
    assert.equal((await call('/rsa/x')).status, 401);
    const expired = await signToken(rsa, { sub: 'carol', pol: policyId, exp: Math.floor(Date.now() / 1000) - 10 });
    const res = await call('/rsa/x', expired);
    assert.equal(res.status, 401);
    assert.equal(res.json.error, 'Key not authorized: token has expired');
    const stranger = await asymmetricKey('RS256', rsa.kid);
    const forged = await call('/rsa/x', await signToken(stranger, freshClaims({ sub: 'eve', pol: policyId })));
    assert.equal(forged.status, 403);
  });

  it('accepts an HS256 token with the default policy', async () => {
    const token = await signToken(hmac, freshClaims({ sub: 'dave' }));
    const res = await call('/hmac/x', token);
    assert.equal(res.status, 200, res.text);
  });
});
