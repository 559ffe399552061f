import { strict as assert } from 'node:assert';
import type { GatewayEvent } from '../../../contracts/events';
import { AnalyticsStore } from '../../../services/analytics/lib/analytics-store';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { singleVersion } from '../../support/gateway-fixture';
import { http, type HttpResult } from '../../support/http';
import { freshClaims, hmacKey, signToken } from '../../support/jwt-tokens';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { startUpstream, type Upstream } from '../../support/upstream';

/**
 * The session a verified JWT gets: who it is (identity claims), what it may do (policies from
 * claims, defaults, scopes or a key of the key store), and what that changes for the client and
 * the upstream (limits, access rights, context variables, analytics, events).
 */
describe('JWT sessions: identity and policies derived from the token claims', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  let globex: Tenant;
  const hmac = hmacKey();
  const events: GatewayEvent[] = [];
  /** name → { id (dashboard), apiId } */
  const apis: Record<string, { id: string; apiId: string }> = {};
  /** name → policy id */
  const policies: Record<string, string> = {};
  let clientKey: string;
  let comboKeys: { jwtBase: string; tokenBase: string };
  let tokenCounter = 0;

  const dashboard = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, headers: Record<string, string> = {}) => http(`${node.gatewayUrl}${path}`, { headers });
  const bearer = (token: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  /** A new token each time (its own jti), so two tokens of one identity are two different tokens. */
  const token = (claims: Record<string, unknown>) =>
    signToken(hmac, freshClaims({ jti: `t${++tokenCounter}`, ...claims }));
  const jwtFields = {
    use_keyless: false,
    enable_jwt: true,
    jwt_signing_method: 'hmac',
    jwt_source: Buffer.from(hmac.secret).toString('base64'),
  };
  const createApi = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await dashboard(acme, '/apis', {
      method: 'POST',
      body: keylessApi(name, `/${name}`, upstream.url, { ...jwtFields, ...extra }),
    });
    assert.equal(res.status, 200, res.text);
    apis[name] = { id: res.json.Meta, apiId: res.json.ID };
  };
  /** Changes an API's definition, and waits until the gateway serves the change. */
  const updateApi = async (name: string, patch: Record<string, unknown>) => {
    const current = await dashboard(acme, `/apis/${apis[name].id}`);
    assert.equal(current.status, 200, current.text);
    const res = await dashboard(acme, `/apis/${apis[name].id}`, {
      method: 'PUT',
      body: { api_definition: { ...current.json.api_definition, ...patch } },
    });
    assert.equal(res.status, 200, res.text);
    await eventually(async () => {
      const loaded = await http(`${node.gatewayUrl}/gw/apis/${apis[name].apiId}`, { headers: node.gwHeaders });
      for (const [field, value] of Object.entries(patch)) assert.deepEqual(loaded.json[field], value);
    }, 5000);
  };
  const rights = (...names: string[]) =>
    Object.fromEntries(names.map((name) => [apis[name].apiId, { api_id: apis[name].apiId, versions: [] }]));
  const createPolicy = async (tenant: Tenant, name: string, body: Record<string, unknown>) => {
    const res = await dashboard(tenant, '/portal/policies', { method: 'POST', body: { name, ...body } });
    assert.equal(res.status, 200, res.text);
    policies[name] = res.json.Meta;
    return policies[name];
  };
  const createKey = async (body: Record<string, unknown>) => {
    const res = await dashboard(acme, '/keys', { method: 'POST', body });
    assert.equal(res.status, 200, res.text);
    return res.json.key_id as string;
  };
  const statuses = async (count: number, path: string, headers: () => Record<string, string>) => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((await call(path, headers())).status);
    return out;
  };
  const refused = (res: HttpResult, status: number, error: string) => {
    assert.equal(res.status, status, res.text);
    assert.deepEqual(res.json, { error });
  };
  /** Asserts a refused request never reached the upstream. */
  const refusedBeforeUpstream = async (
    path: string,
    headers: Record<string, string>,
    status: number,
    error: string,
  ) => {
    const before = upstream.received.length;
    refused(await call(path, headers), status, error);
    assert.equal(upstream.received.length, before, 'a refused request never reaches the upstream');
  };
  const quotaRemaining = async (path: string, claims: Record<string, unknown>) => {
    const res = await call(path, bearer(await token(claims)));
    assert.equal(res.status, 200, res.text);
    return res.headers.get('x-ratelimit-remaining');
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({ analyticsFlushInterval: 0.05 });
    node.broker.createService({
      name: 'jwt-event-recorder',
      events: {
        'gw.event.*'(ctx: { params: GatewayEvent }) {
          events.push(ctx.params);
        },
      },
    });
    await node.broker.waitForServices('jwt-event-recorder', 5000);
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');

    await createApi('id-custom', { jwt_identity_base_field: 'uid' });
    await createApi('id-nested', { jwt_identity_base_field: 'user.id' });
    await createApi('id-order', { jwt_subject_claims: ['email', 'uid'] });
    await createApi('rate');
    await createApi('pol-claim', { jwt_policy_field_name: 'pol' });
    await createApi('pol-default');
    await createApi('pol-none');
    await createApi('scopes-legacy', { jwt_scope_claim_name: 'permissions.granted' });
    await createApi('scopes-new');
    await createApi('client-base', { jwt_client_base_field: 'client' });
    await createApi('client-and-claim', { jwt_client_base_field: 'client', jwt_policy_field_name: 'pol' });
    await createApi('changing');
    await createApi('acl', {
      version_data: {
        not_versioned: false,
        default_version: 'v1',
        versions: { v1: { name: 'v1' }, v2: { name: 'v2' } },
      },
      definition: { location: 'header', key: 'x-api-version' },
    });
    await createApi('ctx', {
      enable_context_vars: true,
      strip_auth_data: true,
      version_data: singleVersion({ global_headers: { 'X-User': '$gw_context.jwt_claims_sub' } }),
    });
    await createApi('located', {
      auth_configs: { jwt: { auth_header_name: 'X-Token', use_param: true, param_name: 'jwt' } },
    });
    const combo = { use_standard_auth: true, auth_configs: { authToken: { auth_header_name: 'X-Api-Key' } } };
    await createApi('combo-jwt', { ...combo, base_identity_provided_by: 'jwt_claim' });
    await createApi('combo-key', { ...combo, base_identity_provided_by: 'auth_token' });
    await createApi('elsewhere');

    const quota = { rate: 1000, per: 60, quota_max: 3, quota_renewal_rate: 3600 };
    await createPolicy(acme, 'quota', { ...quota, access_rights: rights('id-custom', 'id-nested', 'id-order') });
    await createPolicy(acme, 'rate', { rate: 2, per: 60, access_rights: rights('rate') });
    await createPolicy(acme, 'open', {
      rate: 1000,
      per: 60,
      access_rights: rights('pol-claim', 'pol-default', 'located', 'ctx'),
    });
    await createPolicy(acme, 'no-access', { rate: 1000, per: 60, access_rights: rights('elsewhere') });
    await createPolicy(acme, 'scope-read', {
      rate: 1000,
      per: 60,
      quota_max: 10,
      quota_renewal_rate: 3600,
      access_rights: rights('scopes-legacy', 'scopes-new'),
    });
    await createPolicy(acme, 'scope-write', {
      rate: 1000,
      per: 60,
      quota_max: 20,
      quota_renewal_rate: 3600,
      access_rights: rights('scopes-legacy', 'scopes-new'),
    });
    await createPolicy(acme, 'client', {
      rate: 1000,
      per: 60,
      quota_max: 7,
      quota_renewal_rate: 3600,
      access_rights: rights('client-base', 'client-and-claim'),
    });
    await createPolicy(acme, 'changing', { rate: 1000, per: 60, access_rights: rights('changing') });
    await createPolicy(acme, 'acl', {
      rate: 1000,
      per: 60,
      access_rights: {
        [apis.acl.apiId]: {
          api_id: apis.acl.apiId,
          versions: ['v1'],
          allowed_urls: [{ url: '/acl/users', methods: ['GET'] }],
        },
      },
    });
    await createPolicy(acme, 'combo', { rate: 2, per: 60, access_rights: rights('combo-jwt', 'combo-key') });
    await createPolicy(globex, 'foreign', { rate: 1000, per: 60, access_rights: {} });

    for (const name of ['id-custom', 'id-nested', 'id-order'])
      await updateApi(name, { jwt_default_policies: [policies.quota] });
    await updateApi('rate', { jwt_default_policies: [policies.rate] });
    await updateApi('pol-default', { jwt_default_policies: [policies.open] });
    await updateApi('located', { jwt_default_policies: [policies.open] });
    await updateApi('ctx', { jwt_default_policies: [policies.open] });
    await updateApi('scopes-legacy', {
      jwt_scope_to_policy_mapping: { 'read:orders': policies['scope-read'], 'write:orders': policies['scope-write'] },
    });
    await updateApi('scopes-new', {
      scopes: {
        jwt: {
          scope_claim_name: 'scp',
          scope_to_policy: { orders: policies['scope-read'], foreign: policies.foreign },
        },
      },
    });
    await updateApi('changing', { jwt_default_policies: [policies.changing] });
    await updateApi('acl', { jwt_default_policies: [policies.acl] });
    await updateApi('combo-jwt', { jwt_default_policies: [policies.combo] });
    await updateApi('combo-key', { jwt_default_policies: [policies.combo] });

    clientKey = await createKey({ apply_policies: [policies.client], access_rights: rights('client-base') });
    comboKeys = {
      jwtBase: await createKey({ rate: 1000, per: 60, access_rights: rights('combo-jwt') }),
      tokenBase: await createKey({ rate: 1, per: 60, access_rights: rights('combo-key') }),
    };
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  describe('identity', () => {
    it('is the jwt_identity_base_field claim: tokens with one uid share a quota, whatever their sub', async () => {
      assert.equal(await quotaRemaining('/id-custom/a', { uid: 'u-one', sub: 's-one' }), '2');
      assert.equal(await quotaRemaining('/id-custom/a', { uid: 'u-one', sub: 's-two' }), '1');
      assert.equal(await quotaRemaining('/id-custom/a', { uid: 'u-two', sub: 's-one' }), '2');
    });

    it('reads a nested claim (user.id)', async () => {
      assert.equal(await quotaRemaining('/id-nested/a', { user: { id: 'nested-1' }, sub: 'n-a' }), '2');
      assert.equal(await quotaRemaining('/id-nested/a', { user: { id: 'nested-1' }, sub: 'n-b' }), '1');
      assert.equal(await quotaRemaining('/id-nested/a', { user: { id: 'nested-2' }, sub: 'n-a' }), '2');
    });

    it('falls back to sub when the identity claim is absent', async () => {
      assert.equal(await quotaRemaining('/id-custom/a', { sub: 'only-sub' }), '2');
      assert.equal(await quotaRemaining('/id-custom/a', { sub: 'only-sub', other: 1 }), '1');
    });

    it('tries jwt_subject_claims in order, then sub', async () => {
      assert.equal(await quotaRemaining('/id-order/a', { email: 'e@x', uid: 'order-u', sub: 'order-s' }), '2');
      // email is the identity: the same email with another uid is the same identity
      assert.equal(await quotaRemaining('/id-order/a', { email: 'e@x', uid: 'order-v' }), '1');
      // no email: uid is the identity
      assert.equal(await quotaRemaining('/id-order/a', { uid: 'order-u', sub: 'order-s' }), '2');
      // neither: sub
      assert.equal(await quotaRemaining('/id-order/a', { sub: 'order-only-sub' }), '2');
    });

    it('refuses a token with no identity claim: 403 no suitable claims for user ID were found', async () => {
      await refusedBeforeUpstream(
        '/id-custom/a',
        bearer(await token({ name: 'nobody' })),
        403,
        'no suitable claims for user ID were found',
      );
    });

    it('refuses an identity claim that is there but empty, rather than falling back to another claim', async () => {
      await refusedBeforeUpstream(
        '/id-custom/a',
        bearer(await token({ uid: '', sub: 'empty-uid' })),
        403,
        'found an empty user ID in predefined base claim, claim: uid',
      );
      await refusedBeforeUpstream(
        '/id-custom/a',
        bearer(await token({ sub: '' })),
        403,
        'found an empty user ID in sub claim',
      );
    });

    it('counts the rate limit per identity: two tokens of one identity share it, another identity does not', async () => {
      const alice = { sub: 'rate-alice' };
      const tokens = [await token(alice), await token(alice), await token(alice)];
      const results = [];
      for (const each of tokens) results.push(await call('/rate/a', bearer(each)));
      assert.deepEqual(
        results.map((res) => res.status),
        [200, 200, 429],
      );
      assert.deepEqual(results[2].json, { error: 'Rate Limit Exceeded' });
      assert.equal((await call('/rate/a', bearer(await token({ sub: 'rate-bob' })))).status, 200);
    });

    it('counts the quota per identity: past it, 403 Quota exceeded for every token of that identity only', async () => {
      const carol = { uid: 'quota-carol' };
      for (const expected of ['2', '1', '0']) assert.equal(await quotaRemaining('/id-custom/a', carol), expected);
      const res = await call('/id-custom/a', bearer(await token(carol)));
      refused(res, 403, 'Quota exceeded');
      assert.equal(await quotaRemaining('/id-custom/a', { uid: 'quota-dan' }), '2');
    });
  });

  describe('policies', () => {
    it('applies the policy a claim names (jwt_policy_field_name)', async () => {
      const res = await call('/pol-claim/a', bearer(await token({ sub: 'p1', pol: policies.open })));
      assert.equal(res.status, 200, res.text);
      assert.equal(upstream.received.at(-1)!.url, '/a');
    });

    it('applies jwt_default_policies when the token names none', async () => {
      assert.equal((await call('/pol-default/a', bearer(await token({ sub: 'p2' })))).status, 200);
    });

    it('refuses a token with no policy at all: 403 key not authorized: no matching policy found', async () => {
      await refusedBeforeUpstream(
        '/pol-none/a',
        bearer(await token({ sub: 'p3' })),
        403,
        'key not authorized: no matching policy found',
      );
      await refusedBeforeUpstream(
        '/pol-claim/a',
        bearer(await token({ sub: 'p3' })),
        403,
        'key not authorized: no matching policy found',
      );
    });

    it('refuses a policy id that does not exist: 403 Key not authorized: no matching policy', async () => {
      await refusedBeforeUpstream(
        '/pol-claim/a',
        bearer(await token({ sub: 'p4', pol: 'no-such-policy' })),
        403,
        'Key not authorized: no matching policy',
      );
    });

    it("never lends another organisation's policy to a token", async () => {
      await refusedBeforeUpstream(
        '/pol-claim/a',
        bearer(await token({ sub: 'p5', pol: policies.foreign })),
        403,
        'Key not authorized: no matching policy',
      );
    });

    it('refuses a policy without access to this API: 403 Access to this API has been disallowed', async () => {
      await refusedBeforeUpstream(
        '/pol-claim/a',
        bearer(await token({ sub: 'p6', pol: policies['no-access'] })),
        403,
        'Access to this API has been disallowed',
      );
    });

    it('maps scopes to policies (jwt_scope_to_policy_mapping, a nested claim, string or array)', async () => {
      const inString = await call(
        '/scopes-legacy/a',
        bearer(await token({ sub: 's1', permissions: { granted: 'profile read:orders' } })),
      );
      assert.equal(inString.status, 200, inString.text);
      assert.equal(inString.headers.get('x-ratelimit-limit'), '10');
      const inArray = await call(
        '/scopes-legacy/a',
        bearer(await token({ sub: 's2', permissions: { granted: ['profile', 'write:orders'] } })),
      );
      assert.equal(inArray.status, 200, inArray.text);
      assert.equal(inArray.headers.get('x-ratelimit-limit'), '20');
    });

    it('maps scopes with scopes.jwt.scope_to_policy and its scope_claim_name', async () => {
      const res = await call('/scopes-new/a', bearer(await token({ sub: 's3', scp: ['orders'] })));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('x-ratelimit-limit'), '10');
    });

    it('refuses scopes that map to no policy: 403 key not authorized: no matching policy found in scope claim', async () => {
      await refusedBeforeUpstream(
        '/scopes-legacy/a',
        bearer(await token({ sub: 's4', permissions: { granted: 'profile admin' } })),
        403,
        'key not authorized: no matching policy found in scope claim',
      );
      await refusedBeforeUpstream(
        '/scopes-new/a',
        bearer(await token({ sub: 's5', scp: 'nothing' })),
        403,
        'key not authorized: no matching policy found in scope claim',
      );
    });

    it("refuses a scope mapped to another organisation's policy: 403 Key not authorized: no matching policy", async () => {
      await refusedBeforeUpstream(
        '/scopes-new/a',
        bearer(await token({ sub: 's6', scp: 'foreign' })),
        403,
        'Key not authorized: no matching policy',
      );
    });

    it('applies the policy of the key jwt_client_base_field names (a key made in the dashboard)', async () => {
      const res = await call('/client-base/a', bearer(await token({ sub: 'c1', client: clientKey })));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('x-ratelimit-limit'), '7');
      await refusedBeforeUpstream(
        '/client-base/a',
        bearer(await token({ sub: 'c2', client: 'no-such-key' })),
        403,
        'key not authorized: no matching policy found',
      );
    });

    it('with jwt_policy_field_name too, takes the policy from the claim only, never from the client key', async () => {
      await refusedBeforeUpstream(
        '/client-and-claim/a',
        bearer(await token({ sub: 'c3', client: clientKey })),
        403,
        'key not authorized: no matching policy found',
      );
      const res = await call('/client-and-claim/a', bearer(await token({ sub: 'c4', pol: policies.client })));
      assert.equal(res.status, 200, res.text);
    });

    it('applies a policy change to the next request of an identity already seen', async () => {
      const erin = await token({ sub: 'changing-erin' });
      assert.deepEqual(await statuses(3, '/changing/a', () => bearer(erin)), [200, 200, 200]);
      const current = await dashboard(acme, `/portal/policies/${policies.changing}`);
      assert.equal(current.status, 200, current.text);
      const res = await dashboard(acme, `/portal/policies/${policies.changing}`, {
        method: 'PUT',
        body: { ...current.json, rate: 1, per: 60 },
      });
      assert.equal(res.status, 200, res.text);
      await eventually(
        async () => refused(await call('/changing/a', bearer(erin)), 429, 'Rate Limit Exceeded'),
        5000,
        100,
      );
      // a new token of the same identity is just as limited
      assert.equal((await call('/changing/a', bearer(await token({ sub: 'changing-erin' })))).status, 429);
    });
  });

  describe('what the session changes downstream', () => {
    it("applies the policy's versions and allowed_urls", async () => {
      const frank = await token({ sub: 'acl-frank' });
      const allowed = await call('/acl/users/1', bearer(frank, { 'x-api-version': 'v1' }));
      assert.equal(allowed.status, 200, allowed.text);
      assert.equal(upstream.received.at(-1)!.url, '/users/1');
      await refusedBeforeUpstream(
        '/acl/users/1',
        bearer(frank, { 'x-api-version': 'v2' }),
        403,
        'Access to this API has been disallowed',
      );
      await refusedBeforeUpstream(
        '/acl/orders',
        bearer(frank, { 'x-api-version': 'v1' }),
        403,
        'Access to this resource has been disallowed',
      );
    });

    it('sends $gw_context.jwt_claims_sub upstream and strips the token (strip_auth_data)', async () => {
      const res = await call('/ctx/a', bearer(await token({ sub: 'ctx-grace' })));
      assert.equal(res.status, 200, res.text);
      const received = upstream.received.at(-1)!;
      assert.equal(received.headers['x-user'], 'ctx-grace');
      assert.equal(received.headers.authorization, undefined);
    });

    it('reads the token from auth_configs.jwt: a custom header, or a query parameter (use_param)', async () => {
      const jwt = await token({ sub: 'located-heidi' });
      assert.equal((await call('/located/a', { 'x-token': jwt })).status, 200);
      assert.equal(upstream.received.at(-1)!.headers['x-token'], jwt);
      assert.equal((await call(`/located/b?jwt=${jwt}`)).status, 200);
      await refusedBeforeUpstream('/located/c', bearer(jwt), 401, 'Authorization field missing');
    });
  });

  describe('JWT with an auth token (use_standard_auth)', () => {
    it('needs both credentials', async () => {
      const jwt = await token({ sub: 'combo-ivan' });
      await refusedBeforeUpstream('/combo-jwt/a', bearer(jwt), 401, 'Authorization field missing');
      await refusedBeforeUpstream(
        '/combo-jwt/a',
        { 'x-api-key': comboKeys.jwtBase },
        401,
        'Authorization field missing',
      );
      assert.equal((await call('/combo-jwt/a', bearer(jwt, { 'x-api-key': comboKeys.jwtBase }))).status, 200);
    });

    it("base_identity_provided_by jwt_claim: the token identity's limits apply", async () => {
      const jwt = await token({ sub: 'combo-judy' });
      // the policy allows 2 a minute, the key 1000
      assert.deepEqual(
        await statuses(3, '/combo-jwt/a', () => bearer(jwt, { 'x-api-key': comboKeys.jwtBase })),
        [200, 200, 429],
      );
    });

    it("base_identity_provided_by auth_token: the key's limits apply", async () => {
      const jwt = await token({ sub: 'combo-ken' });
      // the key allows 1 a minute, the token's policy 2
      assert.deepEqual(
        await statuses(2, '/combo-key/a', () => bearer(jwt, { 'x-api-key': comboKeys.tokenBase })),
        [200, 429],
      );
    });
  });

  describe('analytics and events', () => {
    it('records the identity as the alias, never the token', async () => {
      const jwt = await token({ sub: 'analytics-liz' });
      assert.equal((await call('/pol-default/recorded', bearer(jwt))).status, 200);
      const store = new AnalyticsStore(node.runtime.database());
      const record = await eventually(async () => {
        const rows = await store.rawRecords(acme.orgId, apis['pol-default'].apiId);
        const row = rows.find((each) => each.path === '/recorded');
        assert.ok(row, 'the request was recorded');
        return row;
      }, 5000);
      assert.equal(record.alias, 'analytics-liz');
      assert.equal(record.response_code, 200);
      assert.ok(!JSON.stringify(record).includes(jwt.split('.')[2]), 'the record holds no token');
      assert.notEqual(record.key_hash, '');
    });

    it('fires AuthFailure for an invalid token, without the token', async () => {
      const forged = await signToken(hmacKey(), freshClaims({ sub: 'mallory' }));
      await refusedBeforeUpstream('/pol-default/a', bearer(forged), 403, 'Key not authorized');
      const event = await eventually(() => {
        const found = events.find((each) => each.event === 'AuthFailure' && each.api_id === apis['pol-default'].apiId);
        assert.ok(found, 'AuthFailure was published');
        return found;
      }, 5000);
      assert.equal(event.org_id, acme.orgId);
      const published = JSON.stringify(event);
      assert.ok(!published.includes(forged.split('.')[2]), 'the event holds no signature');
      assert.ok(!published.includes(forged.split('.')[1]), 'the event holds no claims');
      const store = new AnalyticsStore(node.runtime.database());
      const record = await eventually(async () => {
        const rows = await store.rawRecords(acme.orgId, apis['pol-default'].apiId);
        const row = rows.find((each) => each.response_code === 403);
        assert.ok(row, 'the refused request was recorded');
        return row;
      }, 5000);
      assert.ok(!JSON.stringify(record).includes(forged.split('.')[2]), 'the record holds no token');
    });
  });
});
