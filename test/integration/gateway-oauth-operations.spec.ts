import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, type HttpOptions } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { createOAuthApi, dashboardOf, form, REDIRECT_URI } from '../support/oauth';
import { startUpstream, type Upstream } from '../support/upstream';

interface Client {
  client_id: string;
  secret: string;
}

/**
 * The OAuth operations of the gateway management API beyond client creation and reading:
 * update, rotation, paged token listing, a client's APIs, refresh-token invalidation, revocation
 * and the purge of lapsed tokens, as a caller of `/gw` sees them and as the proxy then behaves.
 */
describe('/gw OAuth operations (update, rotate, tokens, refresh, revoke, revoke_all)', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  let globex: Tenant;
  let acmeApi: string;
  let globexApi: string;
  let plainApi: string;
  const gw = (path: string, options: HttpOptions = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: { ...node.gwHeaders, ...(options.headers ?? {}) } });
  const tokenAt = (listenPath: string, fields: Record<string, string>) =>
    http(`${node.gatewayUrl}${listenPath}/oauth/token`, form(fields));
  const through = (listenPath: string, accessToken: string) =>
    http(`${node.gatewayUrl}${listenPath}/anything`, { headers: { authorization: accessToken } });
  const newClient = async (apiId: string, extra: Record<string, unknown> = {}): Promise<Client> => {
    const res = await gw('/oauth/clients/create', {
      method: 'POST',
      body: { api_id: apiId, redirect_uri: REDIRECT_URI, ...extra },
    });
    assert.equal(res.status, 200, res.text);
    return res.json;
  };
  const clientToken = async (listenPath: string, client: Client): Promise<string> => {
    const res = await tokenAt(listenPath, {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.secret,
    });
    assert.equal(res.status, 200, res.text);
    return res.json.access_token;
  };
  /** An access token and its refresh token, through the authorisation code flow. */
  const codeTokens = async (client: Client): Promise<{ access_token: string; refresh_token: string }> => {
    const authorised = await gw(
      '/oauth/authorize-client/',
      form({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI }),
    );
    assert.equal(authorised.status, 200, authorised.text);
    const res = await tokenAt('/acme', {
      grant_type: 'authorization_code',
      code: authorised.json.code,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
      client_secret: client.secret,
    });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.json.refresh_token);
    return res.json;
  };
  /** A revoked token's key is gone on every gateway node: the proxy refuses it as unknown. */
  const refusedSoon = (listenPath: string, accessToken: string) =>
    eventually(async () => assert.equal((await through(listenPath, accessToken)).status, 403), 5000);

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    acmeApi = await createOAuthApi(dashboardOf(node.dashboardUrl, acme), 'acme-oauth', '/acme', upstream.url);
    globexApi = await createOAuthApi(dashboardOf(node.dashboardUrl, globex), 'globex-oauth', '/globex', upstream.url);
    const plain = await dashboardOf(node.dashboardUrl, acme)('/apis', {
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
    await eventually(async () => {
      assert.notEqual((await http(`${node.gatewayUrl}/acme/oauth/token`)).status, 404);
      assert.notEqual((await http(`${node.gatewayUrl}/globex/oauth/token`)).status, 404);
    }, 5000);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  describe('PUT /gw/oauth/clients/{apiID}/{keyName}/rotate', () => {
    it('answers the client with a new secret; the new one gets tokens, the old one no longer does', async () => {
      const client = await newClient(acmeApi, { description: 'to rotate', meta_data: { team: 'mobile' } });
      const before = await clientToken('/acme', client);

      const rotated = await gw(`/oauth/clients/${acmeApi}/${client.client_id}/rotate`, { method: 'PUT' });
      assert.equal(rotated.status, 200, rotated.text);
      assert.equal(rotated.json.client_id, client.client_id);
      assert.equal(rotated.json.redirect_uri, REDIRECT_URI);
      assert.equal(rotated.json.description, 'to rotate');
      assert.deepEqual(rotated.json.meta_data, { team: 'mobile' });
      assert.equal(typeof rotated.json.secret, 'string');
      assert.ok(rotated.json.secret.length >= 24);
      assert.notEqual(rotated.json.secret, client.secret);

      const old = await tokenAt('/acme', {
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.secret,
      });
      assert.equal(old.status, 401);
      assert.equal(old.json.error, 'invalid_client');
      await clientToken('/acme', { client_id: client.client_id, secret: rotated.json.secret });
      assert.equal((await through('/acme', before)).status, 200, 'tokens already issued stay valid');
      const got = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`);
      assert.equal(got.json.secret, '', 'the new secret is shown only in the rotation answer');
    });

    it('answers 404 for an unknown API or client, and 403 without the gateway secret', async () => {
      const client = await newClient(acmeApi);
      const noApi = await gw(`/oauth/clients/no-such-api/${client.client_id}/rotate`, { method: 'PUT' });
      assert.equal(noApi.status, 404);
      assert.deepEqual(noApi.json, { status: 'error', message: "API doesn't exist" });
      const noClient = await gw(`/oauth/clients/${acmeApi}/no-such-client/rotate`, { method: 'PUT' });
      assert.equal(noClient.status, 404);
      assert.deepEqual(noClient.json, { status: 'error', message: 'OAuth Client ID not found' });
      const otherApi = await gw(`/oauth/clients/${globexApi}/${client.client_id}/rotate`, { method: 'PUT' });
      assert.equal(otherApi.status, 404, 'a client is rotated only through its own API');
      const anonymous = await http(`${node.gatewayUrl}/gw/oauth/clients/${acmeApi}/${client.client_id}/rotate`, {
        method: 'PUT',
      });
      assert.equal(anonymous.status, 403);
      await clientToken('/acme', client);
    });
  });

  describe('PUT /gw/oauth/clients/{apiID}/{keyName}', () => {
    const policy = async (name: string, apiId: string, orgId: string): Promise<string> => {
      const res = await gw('/policies', {
        method: 'POST',
        body: {
          name,
          org_id: orgId,
          rate: 100,
          per: 60,
          quota_max: -1,
          access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
        },
      });
      assert.equal(res.status, 200, res.text);
      return res.json.key;
    };

    it('updates redirect URI, description and metadata, keeps id and secret, never shows the secret', async () => {
      const client = await newClient(acmeApi, { description: 'before' });
      const res = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`, {
        method: 'PUT',
        body: {
          client_id: 'ignored',
          redirect_uri: 'http://client.example.test/other',
          description: 'after',
          meta_data: { tier: 'gold' },
        },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.client_id, client.client_id);
      assert.equal(res.json.redirect_uri, 'http://client.example.test/other');
      assert.equal(res.json.description, 'after');
      assert.deepEqual(res.json.meta_data, { tier: 'gold' });
      assert.equal(res.json.secret, '');
      const got = (await gw(`/oauth/clients/${acmeApi}/${client.client_id}`)).json;
      assert.equal(got.redirect_uri, 'http://client.example.test/other');
      assert.equal(got.description, 'after');
      await clientToken('/acme', client);
    });

    it("revokes the client's tokens when its policy changes, and refuses a policy without the API", async () => {
      const first = await policy('first', acmeApi, acme.orgId);
      const second = await policy('second', acmeApi, acme.orgId);
      const elsewhere = await policy('elsewhere', plainApi, acme.orgId);
      const client = await newClient(acmeApi, { policy_id: first });
      const issued = await clientToken('/acme', client);
      assert.equal((await through('/acme', issued)).status, 200);

      const without = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`, {
        method: 'PUT',
        body: { redirect_uri: REDIRECT_URI, policy_id: elsewhere },
      });
      assert.equal(without.status, 400);
      assert.deepEqual(without.json, {
        status: 'error',
        message: "Policy access rights doesn't contain API this OAuth client belongs to",
      });
      const unknown = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`, {
        method: 'PUT',
        body: { redirect_uri: REDIRECT_URI, policy_id: 'no-such-policy' },
      });
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.json, { status: 'error', message: "Policy doesn't exist" });
      assert.equal((await through('/acme', issued)).status, 200, 'a refused update changes nothing');

      const changed = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`, {
        method: 'PUT',
        body: { redirect_uri: REDIRECT_URI, policy_id: second },
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.policy_id, second);
      await refusedSoon('/acme', issued);
    });

    it('answers the reference errors for an unknown API or client and a body that is not JSON', async () => {
      const client = await newClient(acmeApi);
      const noApi = await gw(`/oauth/clients/no-such-api/${client.client_id}`, {
        method: 'PUT',
        body: { redirect_uri: REDIRECT_URI },
      });
      assert.equal(noApi.status, 404);
      assert.deepEqual(noApi.json, { status: 'error', message: "API doesn't exist" });
      const noClient = await gw(`/oauth/clients/${acmeApi}/no-such-client`, {
        method: 'PUT',
        body: { redirect_uri: REDIRECT_URI },
      });
      assert.equal(noClient.status, 404);
      assert.deepEqual(noClient.json, { status: 'error', message: 'OAuth Client ID not found' });
      const garbled = await gw(`/oauth/clients/${acmeApi}/${client.client_id}`, {
        method: 'PUT',
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(garbled.status, 500);
      assert.equal(garbled.json.status, 'error');
      assert.match(garbled.json.message, /^Unmarshalling failed: /);
    });
  });

  describe('GET and DELETE /gw/oauth/clients/{apiID}/{keyName}', () => {
    it('answer an unknown API as an unknown client, and delete only through the right API', async () => {
      const client = await newClient(acmeApi);
      for (const method of ['GET', 'DELETE']) {
        const res = await gw(`/oauth/clients/no-such-api/${client.client_id}`, { method });
        assert.equal(res.status, 404, `${method} ${res.text}`);
        assert.deepEqual(res.json, { status: 'error', message: 'OAuth Client ID not found' });
      }
      const otherApi = await gw(`/oauth/clients/${globexApi}/${client.client_id}`, { method: 'DELETE' });
      assert.equal(otherApi.status, 404);
      assert.equal((await gw(`/oauth/clients/${acmeApi}/${client.client_id}`)).status, 200, 'still there');
    });
  });

  describe('GET /gw/oauth/clients/{apiID}/{keyName}/tokens', () => {
    it('answers the plain list without `page`, and the paged shape with it', async () => {
      const client = await newClient(acmeApi);
      const issued = [await clientToken('/acme', client), await clientToken('/acme', client)];
      const path = `/oauth/clients/${acmeApi}/${client.client_id}/tokens`;

      const plain = await gw(path);
      assert.equal(plain.status, 200);
      assert.ok(Array.isArray(plain.json));
      assert.equal(plain.json.length, 2);

      const first = await gw(`${path}?page=1`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json.Pagination, { page_size: 100, page_num: 1, page_total: 1 });
      assert.equal(first.json.Tokens.length, 2);
      for (const entry of first.json.Tokens) {
        assert.deepEqual(Object.keys(entry).sort(), ['code', 'expires']);
        assert.ok(entry.expires > Date.now() / 1000);
      }
      // Keys are hashed on this node: the listing shows hashes, never the tokens.
      assert.ok(first.json.Tokens.every((entry: { code: string }) => !issued.includes(entry.code)));

      const past = await gw(`${path}?page=2`);
      assert.deepEqual(past.json, { Pagination: { page_size: 100, page_num: 2, page_total: 1 }, Tokens: [] });
      const garbled = await gw(`${path}?page=abc`);
      assert.equal(garbled.json.Pagination.page_num, 1, 'a page that is not a number is the first');
      assert.equal(garbled.json.Tokens.length, 2);

      const noApi = await gw(`/oauth/clients/no-such-api/${client.client_id}/tokens?page=1`);
      assert.equal(noApi.status, 404);
      assert.deepEqual(noApi.json, { status: 'error', message: 'OAuth Client ID not found' });
    });
  });

  describe('GET /gw/oauth/clients/apis/{appID}', () => {
    it("answers the client's API ids, within the organisation asked about", async () => {
      const client = await newClient(acmeApi);
      assert.deepEqual((await gw(`/oauth/clients/apis/${client.client_id}`)).json, [acmeApi]);
      assert.deepEqual((await gw(`/oauth/clients/apis/${client.client_id}?orgID=${acme.orgId}`)).json, [acmeApi]);
      assert.deepEqual((await gw(`/oauth/clients/apis/${client.client_id}?orgID=`)).json, [acmeApi]);
      const other = await gw(`/oauth/clients/apis/${client.client_id}?orgID=${globex.orgId}`);
      assert.equal(other.status, 200);
      assert.deepEqual(other.json, []);
      assert.deepEqual((await gw('/oauth/clients/apis/no-such-client')).json, []);
    });
  });

  describe('DELETE /gw/oauth/refresh/{keyName}', () => {
    it('invalidates a refresh token of the API named by api_id', async () => {
      const client = await newClient(acmeApi);
      const { refresh_token } = await codeTokens(client);
      const refresh = () =>
        tokenAt('/acme', {
          grant_type: 'refresh_token',
          refresh_token,
          client_id: client.client_id,
          client_secret: client.secret,
        });

      const wrongApi = await gw(`/oauth/refresh/${encodeURIComponent(refresh_token)}?api_id=${globexApi}`, {
        method: 'DELETE',
      });
      assert.equal(wrongApi.status, 200, 'the reference answers 200 whether or not the API holds the token');

      const res = await gw(`/oauth/refresh/${encodeURIComponent(refresh_token)}?api_id=${acmeApi}`, {
        method: 'DELETE',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { key: refresh_token, status: 'ok', action: 'deleted' });
      const used = await refresh();
      assert.equal(used.status, 400);
      assert.equal(used.json.error, 'invalid_grant');
    });

    it('leaves a refresh token alone when another API is named', async () => {
      const client = await newClient(acmeApi);
      const { refresh_token } = await codeTokens(client);
      await gw(`/oauth/refresh/${encodeURIComponent(refresh_token)}?api_id=${globexApi}`, { method: 'DELETE' });
      const refreshed = await tokenAt('/acme', {
        grant_type: 'refresh_token',
        refresh_token,
        client_id: client.client_id,
        client_secret: client.secret,
      });
      assert.equal(refreshed.status, 200, refreshed.text);
    });

    const bad: Array<[string, () => string, number, string]> = [
      ['no api_id', () => '', 400, 'Missing parameter api_id'],
      ['an unknown API', () => '?api_id=no-such-api', 404, 'API for this refresh token not found'],
      ['an API without OAuth', () => `?api_id=${plainApi}`, 400, 'OAuth is not enabled on this API'],
    ];
    for (const [what, query, status, message] of bad) {
      it(`answers ${status} for ${what}`, async () => {
        const res = await gw(`/oauth/refresh/some-token${query()}`, { method: 'DELETE' });
        assert.equal(res.status, status, res.text);
        assert.deepEqual(res.json, { status: 'error', message });
      });
    }
  });

  describe('POST /gw/oauth/revoke', () => {
    it('revokes a token of the client: the proxy then refuses it', async () => {
      const client = await newClient(acmeApi);
      const issued = await clientToken('/acme', client);
      const kept = await clientToken('/acme', client);
      assert.equal((await through('/acme', issued)).status, 200);
      const res = await gw(
        '/oauth/revoke',
        form({ token: issued, token_type_hint: 'access_token', client_id: client.client_id }),
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { status: 'ok', message: 'token revoked successfully' });
      await refusedSoon('/acme', issued);
      assert.equal((await through('/acme', kept)).status, 200, 'only the named token is revoked');
    });

    it("does not revoke another client's token", async () => {
      const owner = await newClient(acmeApi);
      const other = await newClient(globexApi);
      const issued = await clientToken('/acme', owner);
      const res = await gw('/oauth/revoke', form({ token: issued, client_id: other.client_id }));
      assert.equal(res.status, 200);
      const scoped = await gw(
        '/oauth/revoke',
        form({ token: issued, client_id: owner.client_id, org_id: globex.orgId }),
      );
      assert.equal(scoped.status, 400, 'the client is not in the organisation named by org_id');
      assert.equal((await through('/acme', issued)).status, 200);
    });

    const bad: Array<[string, Record<string, string>, string]> = [
      ['no token', { client_id: 'x' }, 'token is required'],
      ['no client_id', { token: 'x' }, 'client_id is required'],
      ['an unknown client', { token: 'x', client_id: 'no-such-client' }, "oauth client doesn't exist"],
    ];
    for (const [what, fields, message] of bad) {
      it(`answers 400 for ${what}`, async () => {
        const res = await gw('/oauth/revoke', form(fields));
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json, { status: 'error', message });
      });
    }
  });

  describe('POST /gw/oauth/revoke_all', () => {
    it('revokes every token of the client with its secret; a wrong secret revokes nothing', async () => {
      const client = await newClient(acmeApi);
      const issued = [await clientToken('/acme', client), await clientToken('/acme', client)];
      const { refresh_token } = await codeTokens(client);
      const bystander = await clientToken('/acme', await newClient(acmeApi));

      const wrong = await gw('/oauth/revoke_all', form({ client_id: client.client_id, client_secret: 'nope-nope' }));
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.json, { status: 'error', message: 'client secret is wrong' });
      assert.equal((await through('/acme', issued[0])).status, 200);

      const res = await gw('/oauth/revoke_all', form({ client_id: client.client_id, client_secret: client.secret }));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { status: 'ok', message: 'tokens revoked successfully' });
      for (const token of issued) await refusedSoon('/acme', token);
      const refreshed = await tokenAt('/acme', {
        grant_type: 'refresh_token',
        refresh_token,
        client_id: client.client_id,
        client_secret: client.secret,
      });
      assert.equal(refreshed.status, 400, 'refresh tokens go too');
      assert.equal((await through('/acme', bystander)).status, 200, "another client's tokens stay");
    });

    const bad: Array<[string, Record<string, string>, number, string]> = [
      ['no client_id', { client_secret: 'x' }, 401, 'client_id is required'],
      ['no client_secret', { client_id: 'x' }, 401, 'client_secret is required'],
      ['an unknown client', { client_id: 'no-such-client', client_secret: 'x' }, 404, "oauth client doesn't exist"],
    ];
    for (const [what, fields, status, message] of bad) {
      it(`answers ${status} for ${what}`, async () => {
        const res = await gw('/oauth/revoke_all', form(fields));
        assert.equal(res.status, status, res.text);
        assert.deepEqual(res.json, { status: 'error', message });
      });
    }
  });

  describe('DELETE /gw/oauth/tokens', () => {
    it('needs scope=lapsed', async () => {
      const missing = await gw('/oauth/tokens', { method: 'DELETE' });
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.json, { status: 'error', message: 'scope parameter is required' });
      const unknown = await gw('/oauth/tokens?scope=all', { method: 'DELETE' });
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.json, { status: 'error', message: 'unknown scope' });
    });

    it('keeps tokens that have not lapsed', async () => {
      const client = await newClient(acmeApi);
      const issued = await clientToken('/acme', client);
      const res = await gw('/oauth/tokens?scope=lapsed', { method: 'DELETE' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { status: 'ok', message: 'lapsed tokens purged' });
      assert.equal((await gw(`/oauth/clients/${acmeApi}/${client.client_id}/tokens`)).json.length, 1);
      assert.equal((await through('/acme', issued)).status, 200);
    });
  });
});

describe('/gw OAuth lapsed-token purge (1-second tokens, expired tokens kept for ever)', function () {
  this.timeout(30_000);
  let node: TestNode;
  let upstream: Upstream;
  let apiId: string;

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({ oauthTokenExpire: 1, oauthTokenExpiredRetainPeriod: 0 });
    const tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    apiId = await createOAuthApi(dashboardOf(node.dashboardUrl, tenant), 'short', '/short', upstream.url);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  it('forgets the expired tokens that the listing otherwise keeps', async () => {
    const gw = (path: string, options: HttpOptions = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const client = (
      await gw('/oauth/clients/create', { method: 'POST', body: { api_id: apiId, redirect_uri: REDIRECT_URI } })
    ).json;
    await eventually(async () => {
      const res = await http(
        `${node.gatewayUrl}/short/oauth/token`,
        form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.secret }),
      );
      assert.equal(res.status, 200, res.text);
    }, 5000);
    const tokens = () => gw(`/oauth/clients/${apiId}/${client.client_id}/tokens`);
    await eventually(async () => {
      const [entry] = (await tokens()).json;
      assert.ok(entry.expires < Date.now() / 1000, 'the token has expired');
    }, 5000);
    assert.equal((await tokens()).json.length, 1, 'without a retain period the listing keeps it');

    const res = await gw('/oauth/tokens?scope=lapsed', { method: 'DELETE' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await tokens()).json, []);
  });
});
