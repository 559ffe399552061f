import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { createOAuthApi, dashboardOf, form, REDIRECT_URI } from '../support/oauth';
import { startUpstream, type Upstream } from '../support/upstream';

describe('OAuth 2.0 client management (dashboard and /gw)', () => {
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  let globex: Tenant;
  let asAcme: ReturnType<typeof dashboardOf>;
  let asGlobex: ReturnType<typeof dashboardOf>;
  let acmeApi: string;
  let globexApi: string;
  let plainApi: string;
  const gw = (path: string, options: Parameters<typeof http>[1] = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: { ...node.gwHeaders, ...(options.headers ?? {}) } });
  const token = (listenPath: string, fields: Record<string, string>) =>
    http(`${node.gatewayUrl}${listenPath}/oauth/token`, form(fields));

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    asAcme = dashboardOf(node.dashboardUrl, acme);
    asGlobex = dashboardOf(node.dashboardUrl, globex);
    acmeApi = await createOAuthApi(asAcme, 'acme-oauth', '/acme', upstream.url);
    globexApi = await createOAuthApi(asGlobex, 'globex-oauth', '/globex', upstream.url);
    const plain = await asAcme('/apis', {
      method: 'POST',
      body: {
        api_definition: {
          name: 'plain',
          use_keyless: false,
          active: true,
          proxy: { listen_path: '/plain', target_url: upstream.url, strip_listen_path: true },
        },
      },
    });
    plainApi = plain.json.ID;
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  describe('dashboard client CRUD', () => {
    it('creates a client: {client_id, secret, redirect_uri, policy_id}; the secret is shown once', async () => {
      const created = await asAcme(`/apis/oauth/${acmeApi}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } });
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(Object.keys(created.json).sort(), ['client_id', 'policy_id', 'redirect_uri', 'secret']);
      assert.match(created.json.client_id, /^[0-9a-f]{32}$/);
      assert.ok(created.json.secret.length >= 24);
      assert.equal(created.json.redirect_uri, REDIRECT_URI);
      assert.equal(created.json.policy_id, '');

      const listed = await asAcme(`/apis/oauth/${acmeApi}`);
      assert.equal(listed.status, 200);
      assert.equal(listed.json.pages, 1);
      const app = listed.json.apps.find((a: { client_id: string }) => a.client_id === created.json.client_id);
      assert.equal(app.redirect_uri, REDIRECT_URI);
      assert.equal(app.secret, '', 'the secret is kept hashed and never listed');

      const got = await asAcme(`/apis/oauth/${acmeApi}/${created.json.client_id}`);
      assert.equal(got.status, 200);
      assert.equal(got.json.client_id, created.json.client_id);
      assert.equal(got.json.secret, '');

      const deleted = await asAcme(`/apis/oauth/${acmeApi}/${created.json.client_id}`, { method: 'DELETE' });
      assert.deepEqual(deleted.json, { Status: 'OK', Message: 'OAuth Client deleted successfully', Meta: null });
      const gone = await asAcme(`/apis/oauth/${acmeApi}/${created.json.client_id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.json, { Status: 'Error', Message: 'OAuth Client ID not found', Meta: null });
    });

    const bad: Array<[string, () => string, unknown, number, RegExp]> = [
      ['no redirect_uri', () => acmeApi, {}, 400, /redirect_uri/],
      ['a redirect_uri that is not a URL', () => acmeApi, { redirect_uri: 'not a url' }, 400, /redirect_uri/],
      ['an unknown policy', () => acmeApi, { redirect_uri: REDIRECT_URI, policy_id: 'no-such-policy' }, 400, /policy/],
      ['an API without use_oauth2', () => plainApi, { redirect_uri: REDIRECT_URI }, 400, /use_oauth2/],
      ['an unknown API', () => 'no-such-api', { redirect_uri: REDIRECT_URI }, 404, /API not found/],
      ['a body that is not JSON', () => acmeApi, 'redirect_uri=x', 400, /JSON/],
    ];
    for (const [what, api, body, status, message] of bad) {
      it(`refuses ${what} with ${status} and stores nothing`, async () => {
        const before = (await asAcme(`/apis/oauth/${acmeApi}`)).json.apps.length;
        const res = await asAcme(`/apis/oauth/${api()}`, {
          method: 'POST',
          body,
          headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
        });
        assert.equal(res.status, status, res.text);
        assert.equal(res.json.Status, 'Error');
        assert.match(res.json.Message, message);
        assert.equal((await asAcme(`/apis/oauth/${acmeApi}`)).json.apps.length, before);
      });
    }
  });

  describe('organisation scoping', () => {
    let acmeClient: { client_id: string; secret: string };
    let acmeToken: string;

    before(async () => {
      acmeClient = (await asAcme(`/apis/oauth/${acmeApi}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } }))
        .json;
      // Served once the gateway has loaded the API.
      await eventually(
        async () => assert.notEqual((await http(`${node.gatewayUrl}/acme/oauth/token`)).status, 404),
        3000,
      );
    });

    it('another tenant neither sees, lists, revokes nor deletes a client, nor gets codes for it', async () => {
      const attempts = [
        asGlobex(`/apis/oauth/${acmeApi}`),
        asGlobex(`/apis/oauth/${acmeApi}/${acmeClient.client_id}`),
        asGlobex(`/apis/oauth/${globexApi}/${acmeClient.client_id}`),
        asGlobex(`/apis/oauth/${acmeApi}/${acmeClient.client_id}/tokens`),
        asGlobex(`/apis/oauth/${globexApi}/${acmeClient.client_id}`, { method: 'DELETE' }),
        asGlobex(`/apis/oauth/${acmeClient.client_id}/revoke_all`, {
          method: 'POST',
          body: { client_secret: acmeClient.secret },
        }),
        asGlobex(
          `/apis/oauth/${acmeApi}/authorize-client/`,
          form({ response_type: 'code', client_id: acmeClient.client_id, redirect_uri: REDIRECT_URI }),
        ),
        asGlobex(
          `/apis/oauth/${globexApi}/authorize-client/`,
          form({ response_type: 'code', client_id: acmeClient.client_id, redirect_uri: REDIRECT_URI }),
        ),
      ];
      for (const res of await Promise.all(attempts)) {
        assert.ok(res.status === 404 || res.status === 400, `${res.status} ${res.text}`);
        assert.equal(res.json.Status, 'Error');
      }
      assert.equal(
        (await asAcme(`/apis/oauth/${acmeApi}/${acmeClient.client_id}`)).status,
        200,
        'the client is still there',
      );
    });

    it('a client of one API gets no token on another API', async () => {
      const res = await token('/globex', {
        grant_type: 'client_credentials',
        client_id: acmeClient.client_id,
        client_secret: acmeClient.secret,
      });
      assert.equal(res.status, 401);
      assert.equal(res.json.error, 'invalid_client');
    });

    it('another tenant cannot revoke a token by value', async () => {
      const { code } = (
        await asAcme(
          `/apis/oauth/${acmeApi}/authorize-client/`,
          form({ response_type: 'code', client_id: acmeClient.client_id, redirect_uri: REDIRECT_URI }),
        )
      ).json;
      const issued = await token('/acme', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: acmeClient.client_id,
        client_secret: acmeClient.secret,
      });
      assert.equal(issued.status, 200, issued.text);
      acmeToken = issued.json.access_token;
      const res = await asGlobex(`/apis/oauth/${acmeClient.client_id}/revoke`, {
        method: 'POST',
        body: { token: acmeToken, token_type_hint: 'access_token' },
      });
      assert.equal(res.status, 404);
      assert.equal((await http(`${node.gatewayUrl}/acme/x`, { headers: { authorization: acmeToken } })).status, 200);
    });
  });

  describe('a deleted organisation', () => {
    it('takes its OAuth clients with it', async () => {
      const initech = await createTenant(node.dashboardUrl, node.adminHeaders, 'Initech');
      const initechApi = await createOAuthApi(
        dashboardOf(node.dashboardUrl, initech),
        'initech-oauth',
        '/initech',
        upstream.url,
      );
      const created = await gw('/oauth/clients/create', {
        method: 'POST',
        body: { api_id: initechApi, redirect_uri: REDIRECT_URI, client_id: 'initech-app' },
      });
      assert.equal(created.status, 200, created.text);
      const removed = await http(`${node.dashboardUrl}/admin/organisations/${initech.orgId}`, {
        method: 'DELETE',
        headers: node.adminHeaders,
      });
      assert.equal(removed.status, 200, removed.text);
      // The client id is free again only once the organisation's clients are gone.
      await eventually(async () => {
        const again = await gw('/oauth/clients/create', {
          method: 'POST',
          body: { api_id: acmeApi, redirect_uri: REDIRECT_URI, client_id: 'initech-app' },
        });
        assert.equal(again.status, 200, again.text);
      }, 3000);
    });
  });

  describe('the gateway management API mirror (/gw/oauth)', () => {
    it('creates, lists, gets, authorises, lists tokens of and deletes a client', async () => {
      const created = await gw('/oauth/clients/create', {
        method: 'POST',
        body: { api_id: acmeApi, redirect_uri: REDIRECT_URI, description: 'mobile app' },
      });
      assert.equal(created.status, 200, created.text);
      const client = created.json;
      assert.equal(client.api_id, acmeApi);
      assert.ok(client.secret);
      const listed = await gw(`/oauth/clients/${acmeApi}`);
      assert.ok(
        Array.isArray(listed.json) &&
          listed.json.some(
            (c: { client_id: string; secret: string }) => c.client_id === client.client_id && c.secret === '',
          ),
      );
      assert.equal((await gw(`/oauth/clients/${acmeApi}/${client.client_id}`)).json.description, 'mobile app');

      const authorised = await gw(
        '/oauth/authorize-client/',
        form({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI }),
      );
      assert.equal(authorised.status, 200, authorised.text);
      assert.equal(authorised.json.redirect_to, `${REDIRECT_URI}?code=${authorised.json.code}`);
      const issued = await token('/acme', {
        grant_type: 'authorization_code',
        code: authorised.json.code,
        redirect_uri: REDIRECT_URI,
        client_id: client.client_id,
        client_secret: client.secret,
      });
      assert.equal(issued.status, 200, issued.text);
      const tokens = await gw(`/oauth/clients/${acmeApi}/${client.client_id}/tokens`);
      assert.equal(tokens.json.length, 1);
      assert.ok(tokens.json[0].expires > Date.now() / 1000);

      const deleted = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`, { method: 'DELETE' });
      assert.deepEqual(deleted.json, { key: client.client_id, status: 'ok', action: 'deleted' });
      const gone = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.json, { status: 'error', message: 'OAuth Client ID not found' });
    });

    it('answers bad input in its own shape', async () => {
      const noApi = await gw('/oauth/clients/create', {
        method: 'POST',
        body: { api_id: 'nope', redirect_uri: REDIRECT_URI },
      });
      assert.equal(noApi.status, 400, 'the documented status of an unknown API on creation');
      assert.deepEqual(noApi.json, { status: 'error', message: "API doesn't exist" });
      const garbled = await gw('/oauth/clients/create', {
        method: 'POST',
        body: 'api_id=x',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(garbled.status, 500);
      assert.equal(garbled.json.status, 'error');
      assert.match(garbled.json.message, /^Unmarshalling failed: /);
      const noClient = await gw(
        '/oauth/authorize-client/',
        form({ response_type: 'code', redirect_uri: REDIRECT_URI }),
      );
      assert.equal(noClient.status, 400);
      assert.deepEqual(noClient.json, { status: 'error', message: 'client_id is required' });
      assert.equal(
        (await http(`${node.gatewayUrl}/gw/oauth/clients/${acmeApi}`)).status,
        403,
        'the gateway secret is required',
      );
    });
  });
});

describe('OAuth 2.0 expiry (1-second tokens and codes, 2-second retention, keys not hashed)', () => {
  let node: TestNode;
  let upstream: Upstream;
  let dashboard: ReturnType<typeof dashboardOf>;
  let apiId: string;

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({
      oauthTokenExpire: 1,
      oauthAuthCodeExpire: 1,
      oauthTokenExpiredRetainPeriod: 2,
      hashKeys: false,
    });
    dashboard = dashboardOf(node.dashboardUrl, await createTenant(node.dashboardUrl, node.adminHeaders));
    apiId = await createOAuthApi(dashboard, 'short', '/short', upstream.url);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  it('an expired token is refused with 401; an expired code gets invalid_grant; the listing keeps expired tokens for the retain period', async () => {
    const client = (await dashboard(`/apis/oauth/${apiId}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } }))
      .json;
    const credentials = { client_id: client.client_id, client_secret: client.secret };
    const { code } = (
      await dashboard(
        `/apis/oauth/${apiId}/authorize-client/`,
        form({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI }),
      )
    ).json;
    const issued = await eventually(async () => {
      const res = await http(
        `${node.gatewayUrl}/short/oauth/token`,
        form({ grant_type: 'client_credentials', ...credentials }),
      );
      assert.equal(res.status, 200, res.text);
      return res.json;
    }, 3000);
    assert.equal(issued.expires_in, 1);
    const call = () => http(`${node.gatewayUrl}/short/x`, { headers: { authorization: issued.access_token } });
    const expired = await eventually(
      async () => {
        const res = await call();
        assert.equal(res.status, 401);
        return res;
      },
      4000,
      100,
    );
    assert.deepEqual(expired.json, { error: 'Key has expired, please renew' });

    // The code was issued before the token, with the same lifetime: it has expired too.
    const late = await http(
      `${node.gatewayUrl}/short/oauth/token`,
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...credentials }),
    );
    assert.equal(late.status, 400);
    assert.equal(late.json.error, 'invalid_grant');

    const tokens = () => dashboard(`/apis/oauth/${apiId}/${client.client_id}/tokens`);
    const listed = (await tokens()).json;
    assert.equal(listed.length, 1, 'an expired token stays listed for the retain period');
    assert.equal(listed[0].code, issued.access_token, 'with keys not hashed, the listing shows the token itself');
    await eventually(async () => assert.deepEqual((await tokens()).json, []), 6000, 200);
  });
});
