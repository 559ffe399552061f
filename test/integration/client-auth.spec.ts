import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('client authentication on proxied APIs', () => {
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  const ids: Record<string, string> = {};
  const keys: Record<string, string> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    http(`${node.gatewayUrl}${path}`, { method, headers });
  const createApi = async (name: string, listenPath: string, extra: Record<string, unknown>) => {
    const res = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi(name, listenPath, upstream.url, { use_keyless: false, ...extra }),
    });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
  };
  const createKey = async (name: string, session: Record<string, unknown>) => {
    const res = await dashboard('/keys', { method: 'POST', body: session });
    assert.equal(res.status, 200, res.text);
    keys[name] = res.json.key_id;
    return res.json;
  };
  const rights = (apiName: string, extra: Record<string, unknown> = {}) => ({
    [ids[apiName]]: { api_id: ids[apiName], ...extra },
  });

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    await createApi('token', '/token', {
      version_data: {
        not_versioned: false,
        default_version: 'v1',
        versions: { v1: { name: 'v1' }, v2: { name: 'v2' } },
      },
      definition: { location: 'header', key: 'x-api-version' },
    });
    await createApi('other', '/other', {});
    await createApi('custom', '/custom', {
      auth: {
        auth_header_name: 'X-Api-Key',
        use_param: true,
        param_name: 'api_key',
        use_cookie: true,
        cookie_name: 'gwkey',
      },
      strip_auth_data: true,
    });
    await createApi('basic', '/basic', { use_basic_auth: true });
    await createApi('basic-more', '/basic-more', {
      use_basic_auth: true,
      auth_configs: { basic: { query: { enabled: true, name: 'Credentials' } } },
      basic_auth: {
        extract_from_body: true,
        body_user_regexp: '<user>(\\w+)</user>',
        body_password_regexp: '<pass>(\\w+)</pass>',
      },
      strip_auth_data: true,
    });
    await createKey('good', { access_rights: rights('token') });
    await createKey('v1-only', { access_rights: rights('token', { versions: ['v1'] }) });
    await createKey('urls', {
      access_rights: rights('token', { allowed_urls: [{ url: '/token/users', methods: ['GET'] }] }),
    });
    await createKey('expired', { expires: Math.floor(Date.now() / 1000) - 60, access_rights: rights('token') });
    await createKey('inactive', { is_inactive: true, access_rights: rights('token') });
    await createKey('elsewhere', { access_rights: rights('other') });
    await createKey('custom', { access_rights: rights('custom') });
    const basicUser = await dashboard('/apis/keys/basic/alice', {
      method: 'POST',
      body: {
        access_rights: { ...rights('basic'), ...rights('basic-more') },
        basic_auth_data: { password: 'wonderland' },
      },
    });
    assert.equal(basicUser.status, 200, basicUser.text);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  describe('auth token: the results table', () => {
    const cases: Array<[string, string, () => Record<string, string>, number, string | undefined]> = [
      ['no credential', '/token/a', () => ({}), 401, 'Authorization field missing'],
      [
        'an unknown key',
        '/token/a',
        () => ({ authorization: 'no-such-key' }),
        403,
        'Access to this API has been disallowed',
      ],
      ['a valid key', '/token/a', () => ({ authorization: keys.good }), 200, undefined],
      [
        'a valid key with the Bearer prefix',
        '/token/a',
        () => ({ authorization: `Bearer ${keys.good}` }),
        200,
        undefined,
      ],
      ['an expired key', '/token/a', () => ({ authorization: keys.expired }), 401, 'Key has expired, please renew'],
      ['an inactive key', '/token/a', () => ({ authorization: keys.inactive }), 403, 'Key is inactive, please renew'],
      [
        'a key for another API',
        '/token/a',
        () => ({ authorization: keys.elsewhere }),
        403,
        'Access to this API has been disallowed',
      ],
      [
        'a version the key may use',
        '/token/a',
        () => ({ authorization: keys['v1-only'], 'x-api-version': 'v1' }),
        200,
        undefined,
      ],
      [
        'a version the key may not use',
        '/token/a',
        () => ({ authorization: keys['v1-only'], 'x-api-version': 'v2' }),
        403,
        'Access to this API has been disallowed',
      ],
      ['an allowed URL and method', '/token/users/1', () => ({ authorization: keys.urls }), 200, undefined],
      [
        'a URL outside allowed_urls',
        '/token/orders',
        () => ({ authorization: keys.urls }),
        403,
        'Access to this resource has been disallowed',
      ],
    ];
    for (const [what, path, headers, status, error] of cases) {
      it(`${what} → ${status}`, async () => {
        const before = upstream.received.length;
        const res = await call(path, headers());
        assert.equal(res.status, status, res.text);
        if (error) {
          assert.deepEqual(res.json, { error });
          assert.equal(res.headers.get('x-generator'), 'gw');
          assert.equal(upstream.received.length, before, 'a refused request never reaches the upstream');
        } else
          assert.equal(
            upstream.received.at(-1)!.headers.authorization,
            headers().authorization,
            'the credential goes upstream unless strip_auth_data',
          );
      });
    }

    it('refuses a method outside allowed_urls', async () => {
      assert.equal((await call('/token/users/1', { authorization: keys.urls }, 'DELETE')).status, 403);
    });
  });

  describe('auth token locations and strip_auth_data', () => {
    it('reads a custom header, a query parameter and a cookie, and strips each before proxying', async () => {
      assert.equal((await call('/custom/a', { 'x-api-key': keys.custom })).status, 200);
      assert.equal(upstream.received.at(-1)!.headers['x-api-key'], undefined);
      assert.equal((await call(`/custom/b?api_key=${keys.custom}&keep=1`)).status, 200);
      assert.equal(upstream.received.at(-1)!.url, '/b?keep=1');
      assert.equal((await call('/custom/c', { cookie: `theme=dark; gwkey=${keys.custom}` })).status, 200);
      assert.equal(upstream.received.at(-1)!.headers.cookie, 'theme=dark');
    });

    it('does not read the default Authorization header when the API names another', async () => {
      assert.equal((await call('/custom/a', { authorization: keys.custom })).status, 401);
    });
  });

  describe('basic authentication', () => {
    it('asks for credentials with 401 and WWW-Authenticate', async () => {
      const res = await call('/basic/a');
      assert.equal(res.status, 401);
      assert.deepEqual(res.json, { error: 'Authorization field missing' });
      assert.equal(res.headers.get('www-authenticate'), 'Basic realm="basic"');
    });

    const cases: Array<[string, string, number]> = [
      ['the right password', basic('alice', 'wonderland'), 200],
      ['a wrong password', basic('alice', 'looking-glass'), 403],
      ['an unknown user', basic('mallory', 'wonderland'), 403],
      ['a malformed header', 'Basic not*base64', 400],
    ];
    for (const [what, header, status] of cases) {
      it(`${what} → ${status}`, async () => {
        assert.equal((await call('/basic/a', { authorization: header })).status, status);
      });
    }

    // gateway/mw_basic_auth.go basicAuthHeaderCredentials: each unreadable form has its own text
    const encoded = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    const malformed: Array<[string, string, string]> = [
      ['one word', 'Basic', 'Attempted access with malformed header, header not in basic auth format'],
      ['three words', 'Basic abc= def', 'Attempted access with malformed header, header not in basic auth format'],
      ['not base64', 'Basic not*base64', 'Attempted access with malformed header, auth data not encoded correctly'],
      ['no colon', encoded('alice'), 'Attempted access with malformed header, values not in basic auth format'],
      [
        'two colons',
        encoded('alice:won:der'),
        'Attempted access with malformed header, values not in basic auth format',
      ],
    ];
    for (const [what, header, message] of malformed) {
      it(`a malformed credential (${what}) answers 400 with the reference gateway's text`, async () => {
        const res = await call('/basic/a', { authorization: header });
        assert.equal(res.status, 400);
        assert.deepEqual(res.json, { error: message });
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      });
    }

    it('reads credentials from a query parameter (name case-sensitive) and strips them', async () => {
      const value = encodeURIComponent(basic('alice', 'wonderland'));
      assert.equal((await call(`/basic-more/a?Credentials=${value}&x=1`)).status, 200);
      assert.equal(upstream.received.at(-1)!.url, '/a?x=1');
      assert.equal((await call(`/basic-more/a?credentials=${value}`)).status, 401);
    });

    it('extracts credentials from the body with one group per expression', async () => {
      const res = await http(`${node.gatewayUrl}/basic-more/login`, {
        method: 'POST',
        body: '<login><user>alice</user><pass>wonderland</pass></login>',
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(
        upstream.received.at(-1)!.body,
        '<login><user>alice</user><pass>wonderland</pass></login>',
        'the body still goes upstream',
      );
      const wrong = await http(`${node.gatewayUrl}/basic-more/login`, {
        method: 'POST',
        body: '<user>alice</user><pass>nope</pass>',
      });
      assert.equal(wrong.status, 403);
    });

    it('reads the body when the header can not be read, as gateway/mw_basic_auth.go does', async () => {
      const login = (body: string) =>
        http(`${node.gatewayUrl}/basic-more/login`, { method: 'POST', body, headers: { authorization: 'Basic' } });
      const res = await login('<login><user>alice</user><pass>wonderland</pass></login>');
      assert.equal(res.status, 200, res.text);
      const none = await login('<login/>');
      assert.equal(none.status, 400);
      const message = 'Attempted access with malformed header, header not in basic auth format';
      assert.deepEqual(none.json, { error: message });
    });

    it('refuses a definition whose body expressions do not have exactly one group', async () => {
      await createApi('bad-regexp', '/bad-regexp', {
        use_basic_auth: true,
        basic_auth: { extract_from_body: true, body_user_regexp: '(a)(b)', body_password_regexp: '(c)' },
      });
      const res = await eventually(async () => {
        const r = await call('/bad-regexp/x');
        assert.equal(r.status, 503);
        return r;
      });
      assert.match(res.json.error, /is not available/);
      const health = await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders });
      assert.match(
        health.json.apis_failed[ids['bad-regexp']],
        /body_user_regexp must have exactly one group, it has 2/,
      );
    });
  });

  describe('changes reach the gateway at once', () => {
    it('refuses a key within a second of its deletion', async () => {
      const created = await createKey('doomed', { access_rights: rights('token') });
      assert.equal((await call('/token/a', { authorization: created.key_id })).status, 200);
      await dashboard(`/apis/${ids.token}/keys/${created.key_id}`, { method: 'DELETE' });
      await eventually(async () =>
        assert.equal((await call('/token/a', { authorization: created.key_id })).status, 403),
      );
    });

    it('applies a changed key within a second', async () => {
      const created = await createKey('changing', { access_rights: rights('token') });
      assert.equal((await call('/token/a', { authorization: created.key_id })).status, 200);
      await dashboard(`/apis/${ids.token}/keys/${created.key_id}`, {
        method: 'PUT',
        body: { ...created.data, is_inactive: true },
      });
      await eventually(async () =>
        assert.equal((await call('/token/a', { authorization: created.key_id })).status, 403),
      );
    });

    it('follows a policy: its access rights, its deactivation and its deletion', async () => {
      const policy = await dashboard('/portal/policies', {
        method: 'POST',
        body: { name: 'Token users', access_rights: rights('token') },
      });
      const policyId = policy.json.Meta;
      const created = await createKey('by-policy', { access_rights: rights('other'), apply_policies: [policyId] });
      assert.equal(
        (await call('/token/a', { authorization: created.key_id })).status,
        200,
        'the policy grants the token API',
      );
      assert.equal(
        (await call('/other/a', { authorization: created.key_id })).status,
        403,
        "the policy's rights replace the key's own",
      );

      const current = (await dashboard(`/portal/policies/${policyId}`)).json;
      await dashboard(`/portal/policies/${policyId}`, { method: 'PUT', body: { ...current, active: false } });
      await eventually(async () =>
        assert.equal((await call('/token/a', { authorization: created.key_id })).status, 403),
      );

      await dashboard(`/portal/policies/${policyId}`, { method: 'PUT', body: { ...current, active: true } });
      await eventually(async () =>
        assert.equal((await call('/token/a', { authorization: created.key_id })).status, 200),
      );
      await dashboard(`/portal/policies/${policyId}`, { method: 'DELETE' });
      await eventually(async () =>
        assert.equal((await call('/token/a', { authorization: created.key_id })).status, 403),
      );
    });

    it('stops accepting an old basic-auth password once it is changed', async () => {
      assert.equal((await call('/basic/a', { authorization: basic('alice', 'wonderland') })).status, 200);
      await dashboard('/apis/keys/basic/alice', {
        method: 'PUT',
        body: { access_rights: rights('basic'), basic_auth_data: { password: 'rabbit-hole' } },
      });
      await eventually(async () =>
        assert.equal((await call('/basic/a', { authorization: basic('alice', 'wonderland') })).status, 403),
      );
      assert.equal((await call('/basic/a', { authorization: basic('alice', 'rabbit-hole') })).status, 200);
    });
  });
});
