import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizationCode, ClientCredentials, ResourceOwnerPassword, type ModuleOptions } from 'simple-oauth2';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { createOAuthApi, dashboardOf, form, LOGIN_APP, REDIRECT_URI } from '../support/oauth';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** simple-oauth2 (wreck) throws a Boom error: what the client saw. */
async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; body: any; headers: Record<string, string> }> {
  try {
    await promise;
  } catch (err) {
    const boom = err as {
      output?: { statusCode: number };
      data?: { payload?: unknown; res?: { headers: Record<string, string> } };
    };
    assert.ok(boom.output, `expected an HTTP refusal, got ${(err as Error).message}`);
    const payload = boom.data?.payload;
    return {
      status: boom.output.statusCode,
      body: Buffer.isBuffer(payload) ? JSON.parse(payload.toString('utf8')) : payload,
      headers: boom.data?.res?.headers ?? {},
    };
  }
  assert.fail('the OAuth client expected a refusal');
}

for (const store of STORE_VARIANTS)
  describe(`OAuth 2.0 on the gateway (simple-oauth2 as the client) on ${store.name}`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let upstream: Upstream;
    let receiver: Upstream;
    let tenant: Tenant;
    let dashboard: ReturnType<typeof dashboardOf>;
    let apiId: string;
    let ccOnlyApiId: string;
    let policyId: string;
    let client: { client_id: string; secret: string };
    const api = (path: string, token?: string) =>
      http(`${node.gatewayUrl}/oauthapi${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const config = (id: string, secret: string, listenPath = '/oauthapi'): ModuleOptions => ({
      client: { id, secret },
      auth: {
        tokenHost: node.gatewayUrl,
        tokenPath: `${listenPath}/oauth/token`,
        revokePath: `${listenPath}/oauth/revoke`,
      },
    });
    const codeConfig = (id: string, secret: string): ModuleOptions => ({
      ...config(id, secret),
      auth: { ...config(id, secret).auth, authorizePath: '/oauthapi/oauth/authorize' },
    });
    /** The login app: the user said yes, so it asks the dashboard for a code. */
    const loginAppApproves = async (
      clientId: string,
      redirectUri = REDIRECT_URI,
      extra: Record<string, string> = {},
    ) => {
      const res = await dashboard(
        `/apis/oauth/${apiId}/authorize-client/`,
        form({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, ...extra }),
      );
      assert.equal(res.status, 200, res.text);
      return res.json as { code: string; redirect_to: string };
    };

    before(async function () {
      if (!store.enabled) this.skip();
      upstream = await startUpstream();
      receiver = await startUpstream();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-oauth-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
      dashboard = dashboardOf(node.dashboardUrl, tenant);
      apiId = await createOAuthApi(dashboard, 'oauth', '/oauthapi', upstream.url, {
        notifications: { oauth_on_keychange_url: `${receiver.url}/keychange`, shared_secret: 'sssh' },
      });
      ccOnlyApiId = await createOAuthApi(dashboard, 'cc-only', '/cconly', upstream.url, {
        oauth_meta: {
          allowed_access_types: ['client_credentials'],
          allowed_authorize_types: ['code'],
          auth_login_redirect: LOGIN_APP,
        },
      });
      const policy = await dashboard('/portal/policies', {
        method: 'POST',
        body: {
          name: 'OAuth apps',
          rate: 1000,
          per: 60,
          quota_max: 50,
          access_rights: { [apiId]: { api_id: apiId, versions: [] } },
        },
      });
      assert.equal(policy.status, 200, policy.text);
      policyId = policy.json.Meta;
      const created = await dashboard(`/apis/oauth/${apiId}`, {
        method: 'POST',
        body: { redirect_uri: REDIRECT_URI, policy_id: policyId },
      });
      assert.equal(created.status, 200, created.text);
      client = created.json;
      const user = await dashboard('/apis/keys/basic/alice', {
        method: 'POST',
        body: {
          access_rights: { [apiId]: { api_id: apiId, versions: [] } },
          basic_auth_data: { password: 'wonderland' },
        },
      });
      assert.equal(user.status, 200, user.text);
      await eventually(async () => assert.equal((await api('/ready')).status, 401), 3000);
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await database.cleanup();
      await upstream.close();
      await receiver.close();
      removeDir(node.dataDir);
    });

    describe('authorisation code flow', () => {
      let code: string;
      let accessToken: string;
      let refreshToken: string;
      let token: Awaited<ReturnType<AuthorizationCode['getToken']>>;
      let oauth: AuthorizationCode;

      before(() => {
        oauth = new AuthorizationCode(codeConfig(client.client_id, client.secret));
      });

      it('/oauth/authorize sends the user to the login app with the original query', async () => {
        const url = oauth.authorizeURL({ redirect_uri: REDIRECT_URI, state: 'xyz-123' });
        const res = await http(url);
        assert.equal(res.status, 307, res.text);
        const location = new URL(res.headers.get('location')!);
        assert.equal(`${location.origin}${location.pathname}`, LOGIN_APP);
        assert.equal(location.searchParams.get('client_id'), client.client_id);
        assert.equal(location.searchParams.get('redirect_uri'), REDIRECT_URI);
        assert.equal(location.searchParams.get('response_type'), 'code');
        assert.equal(location.searchParams.get('state'), 'xyz-123');
      });

      it('the login app gets a code for the registered redirect URI', async () => {
        const approved = await loginAppApproves(client.client_id);
        assert.match(approved.code, /^[A-Za-z0-9_-]{20,}$/);
        assert.equal(approved.redirect_to, `${REDIRECT_URI}?code=${approved.code}`);
        code = approved.code;
      });

      it('the client exchanges the code for an access and a refresh token (no-store)', async () => {
        token = await oauth.getToken({ code, redirect_uri: REDIRECT_URI });
        accessToken = token.token.access_token as string;
        refreshToken = token.token.refresh_token as string;
        assert.equal(token.token.token_type, 'bearer');
        assert.equal(token.token.expires_in, 3600);
        assert.ok(accessToken && refreshToken);
        const raw = await http(
          `${node.gatewayUrl}/oauthapi/oauth/token`,
          form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.secret }),
        );
        assert.equal(raw.headers.get('cache-control'), 'no-store');
      });

      it('the access token opens the API; the upstream gets the request', async () => {
        const res = await api('/orders/7', accessToken);
        assert.equal(res.status, 200, res.text);
        const received = upstream.received.at(-1)!;
        assert.equal(received.url, '/orders/7');
        assert.equal(received.headers.authorization, `Bearer ${accessToken}`);
      });

      it("the token is a key carrying oauth_client_id and the client's policy", async () => {
        const key = await dashboard(`/apis/${apiId}/keys/${accessToken}`);
        assert.equal(key.status, 200, key.text);
        assert.equal(key.json.data.oauth_client_id, client.client_id);
        assert.deepEqual(key.json.data.apply_policies, [policyId]);
        assert.ok(key.json.data.expires > Date.now() / 1000 + 3500);
      });

      it('the key-change URL receives the new token, signed with the shared secret', async () => {
        const note = await eventually(() => {
          const found = receiver.received.find(
            (r) => r.url === '/keychange' && JSON.parse(r.body).new_oauth_token === accessToken,
          );
          assert.ok(found, 'no notification yet');
          return found;
        }, 3000);
        assert.equal(note.method, 'POST');
        assert.equal(note.headers['x-gw-shared-secret'], 'sssh');
        assert.equal(note.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(note.body), {
          auth_code: code,
          new_oauth_token: accessToken,
          refresh_token: refreshToken,
          old_refresh_token: '',
          notification_type: 'new',
        });
      });

      it('the dashboard lists the token (its hash, keys being hashed) with its expiry', async () => {
        const res = await dashboard(`/apis/oauth/${apiId}/${client.client_id}/tokens`);
        assert.equal(res.status, 200, res.text);
        const entry = res.json.find((t: { code: string }) => t.code === sha256(accessToken));
        assert.ok(entry, res.text);
        assert.ok(Math.abs(entry.expires - (Math.floor(Date.now() / 1000) + 3600)) < 30);
      });

      it('refresh: a new pair; the old access and refresh tokens stop working', async () => {
        const refreshed = await token.refresh();
        const newAccess = refreshed.token.access_token as string;
        assert.notEqual(newAccess, accessToken);
        assert.ok(refreshed.token.refresh_token);
        assert.equal((await api('/a', newAccess)).status, 200);
        await eventually(async () => assert.equal((await api('/a', accessToken)).status, 403));
        const replay = await refusal(oauth.createToken({ refresh_token: refreshToken }).refresh());
        assert.equal(replay.status, 400);
        assert.equal(replay.body.error, 'invalid_grant');
        const note = await eventually(() => {
          const found = receiver.received.find((r) => JSON.parse(r.body).notification_type === 'refresh');
          assert.ok(found);
          return JSON.parse(found.body);
        }, 3000);
        assert.deepEqual(note, {
          auth_code: '',
          new_oauth_token: newAccess,
          refresh_token: refreshed.token.refresh_token,
          old_refresh_token: refreshToken,
          notification_type: 'refresh',
        });
        token = refreshed;
      });

      it('revoke (RFC 7009): the token is refused at once and leaves the listing', async () => {
        const revoked = token.token.access_token as string;
        await token.revoke('access_token');
        await eventually(async () => assert.equal((await api('/a', revoked)).status, 403));
        const listing = (await dashboard(`/apis/oauth/${apiId}/${client.client_id}/tokens`)).json as Array<{
          code: string;
        }>;
        assert.ok(!listing.some((t) => t.code === sha256(revoked)));
        await token.revoke('refresh_token');
        const replay = await refusal(token.refresh());
        assert.equal(replay.body.error, 'invalid_grant');
      });

      // Last: presenting the code again also revokes what it gave (oauth-pkce-and-code-reuse.spec.ts).
      it('a used code is refused (invalid_grant) and issues nothing', async () => {
        const listed = (await dashboard(`/apis/oauth/${apiId}/${client.client_id}/tokens`)).json.length;
        const refused = await refusal(oauth.getToken({ code, redirect_uri: REDIRECT_URI }));
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error, 'invalid_grant');
        assert.equal((await dashboard(`/apis/oauth/${apiId}/${client.client_id}/tokens`)).json.length, listed);
      });
    });

    describe('bad input at the authorisation endpoints', () => {
      it('/oauth/authorize refuses an unknown client, a wrong redirect URI and a response type the API does not allow', async () => {
        const base = `${node.gatewayUrl}/oauthapi/oauth/authorize`;
        const unknown = await http(
          `${base}?response_type=code&client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
        );
        assert.equal(unknown.status, 400);
        assert.equal(unknown.json.error, 'invalid_request');
        const wrongUri = await http(
          `${base}?response_type=code&client_id=${client.client_id}&redirect_uri=${encodeURIComponent('http://evil.example/cb')}`,
        );
        assert.equal(wrongUri.status, 400);
        assert.equal(wrongUri.headers.get('location'), null);
        const cc = await http(
          `${node.gatewayUrl}/cconly/oauth/authorize?response_type=token&client_id=${client.client_id}`,
        );
        assert.equal(cc.status, 400);
        assert.equal(cc.json.error, 'unsupported_response_type');
      });

      it('authorize-client refuses a redirect URI other than the registered one, and a non-public api id', async () => {
        const res = await dashboard(
          `/apis/oauth/${apiId}/authorize-client/`,
          form({ response_type: 'code', client_id: client.client_id, redirect_uri: 'http://evil.example/cb' }),
        );
        assert.equal(res.status, 400);
        assert.equal(res.json.Status, 'Error');
        assert.match(res.json.Message, /redirect_uri/);
        const internalId = (await dashboard(`/apis/${apiId}`)).json.api_definition.id;
        const byInternal = await dashboard(
          `/apis/oauth/${internalId}/authorize-client/`,
          form({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI }),
        );
        assert.equal(byInternal.status, 400, byInternal.text);
        assert.match(byInternal.json.Message, /public api_id/);
      });

      it('a code is bound to its client and redirect URI', async () => {
        const other = (
          await dashboard(`/apis/oauth/${apiId}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } })
        ).json;
        const { code } = await loginAppApproves(client.client_id);
        const stolen = await refusal(
          new AuthorizationCode(codeConfig(other.client_id, other.secret)).getToken({
            code,
            redirect_uri: REDIRECT_URI,
          }),
        );
        assert.equal(stolen.status, 400);
        assert.equal(stolen.body.error, 'invalid_grant');
        const second = (await loginAppApproves(client.client_id)).code;
        const wrongUri = await refusal(
          new AuthorizationCode(codeConfig(client.client_id, client.secret)).getToken({
            code: second,
            redirect_uri: 'http://client.example.test/other',
          }),
        );
        assert.equal(wrongUri.body.error, 'invalid_grant');
      });

      it('an unknown client or a wrong secret is 401 invalid_client with WWW-Authenticate', async () => {
        for (const [id, secret] of [
          ['nobody', 'whatever-secret'],
          [client.client_id, 'wrong-secret'],
        ]) {
          const refused = await refusal(new ClientCredentials(config(id, secret)).getToken({}));
          assert.equal(refused.status, 401);
          assert.equal(refused.body.error, 'invalid_client');
          assert.equal(refused.headers['www-authenticate'], 'Basic realm="oauth"');
        }
      });

      it('a grant type the API does not allow, or an unknown one, is unsupported_grant_type', async () => {
        const ccClient = (
          await dashboard(`/apis/oauth/${ccOnlyApiId}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } })
        ).json;
        const password = await refusal(
          new ResourceOwnerPassword(config(ccClient.client_id, ccClient.secret, '/cconly')).getToken({
            username: 'alice',
            password: 'wonderland',
          }),
        );
        assert.equal(password.status, 400);
        assert.equal(password.body.error, 'unsupported_grant_type');
        const raw = await http(
          `${node.gatewayUrl}/oauthapi/oauth/token`,
          form({ grant_type: 'magic', client_id: client.client_id, client_secret: client.secret }),
        );
        assert.equal(raw.status, 400);
        assert.equal(raw.json.error, 'unsupported_grant_type');
        const missing = await http(
          `${node.gatewayUrl}/oauthapi/oauth/token`,
          form({ client_id: client.client_id, client_secret: client.secret }),
        );
        assert.equal(missing.status, 400);
        assert.equal(missing.json.error, 'invalid_request');
        const get = await http(`${node.gatewayUrl}/oauthapi/oauth/token`);
        assert.equal(get.status, 405);
      });
    });

    describe('/oauth/revoke and /oauth/revoke_all on the gateway', () => {
      const post = (path: string, fields: Record<string, string>) =>
        http(`${node.gatewayUrl}/oauthapi/oauth/${path}`, form(fields));

      it('refuses a revoke without client authentication, with a wrong secret, or without a token; the token keeps working', async () => {
        const token = (await new ClientCredentials(config(client.client_id, client.secret)).getToken({})).token
          .access_token as string;
        const anonymous = await post('revoke', { token });
        assert.equal(anonymous.status, 401);
        assert.equal(anonymous.json.error, 'invalid_client');
        const wrong = await post('revoke', { token, client_id: client.client_id, client_secret: 'wrong-secret' });
        assert.equal(wrong.status, 401);
        assert.equal(wrong.json.error, 'invalid_client');
        const noToken = await post('revoke', { client_id: client.client_id, client_secret: client.secret });
        assert.equal(noToken.status, 400);
        assert.equal(noToken.json.error, 'invalid_request');
        assert.equal((await api('/still', token)).status, 200);
        const unknown = await post('revoke', {
          token: 'not-a-token',
          client_id: client.client_id,
          client_secret: client.secret,
        });
        assert.equal(unknown.status, 200, 'RFC 7009: an unknown token is not an error');
      });

      it("a client cannot revoke another client's token", async () => {
        const other = (
          await dashboard(`/apis/oauth/${apiId}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } })
        ).json;
        const token = (await new ClientCredentials(config(client.client_id, client.secret)).getToken({})).token
          .access_token as string;
        assert.equal(
          (await post('revoke', { token, client_id: other.client_id, client_secret: other.secret })).status,
          200,
        );
        assert.equal((await api('/still', token)).status, 200);
      });

      it("/oauth/revoke_all with the client's credentials revokes its tokens", async () => {
        const own = (
          await dashboard(`/apis/oauth/${apiId}`, {
            method: 'POST',
            body: { redirect_uri: REDIRECT_URI, policy_id: policyId },
          })
        ).json;
        const token = (await new ClientCredentials(config(own.client_id, own.secret)).getToken({})).token
          .access_token as string;
        assert.equal((await post('revoke_all', { client_id: own.client_id, client_secret: 'nope-nope' })).status, 401);
        assert.equal((await api('/x', token)).status, 200);
        const res = await post('revoke_all', { client_id: own.client_id, client_secret: own.secret });
        assert.equal(res.status, 200, res.text);
        await eventually(async () => assert.equal((await api('/x', token)).status, 403));
      });
    });

    describe('client credentials and password grants', () => {
      it("client credentials: a token without a refresh token, limited by the client's policy", async () => {
        const token = await new ClientCredentials(config(client.client_id, client.secret)).getToken({});
        assert.equal(token.token.refresh_token, undefined);
        const res = await api('/cc', token.token.access_token as string);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers.get('x-ratelimit-limit'), '50', "the policy's quota applies");
        assert.equal(upstream.received.at(-1)!.url, '/cc');
      });

      it('client credentials work with the credentials in the form instead of HTTP Basic', async () => {
        const raw = await http(
          `${node.gatewayUrl}/oauthapi/oauth/token`,
          form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.secret }),
        );
        assert.equal(raw.status, 200, raw.text);
        assert.equal((await api('/form', raw.json.access_token)).status, 200);
      });

      it('password: a basic-auth user of the organisation gets a token; a wrong password gets invalid_grant', async () => {
        const owner = new ResourceOwnerPassword(config(client.client_id, client.secret));
        const token = await owner.getToken({ username: 'alice', password: 'wonderland' });
        assert.equal((await api('/pw', token.token.access_token as string)).status, 200);
        const refused = await refusal(owner.getToken({ username: 'alice', password: 'looking-glass' }));
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error, 'invalid_grant');
        const unknown = await refusal(owner.getToken({ username: 'mallory', password: 'wonderland' }));
        assert.equal(unknown.body.error, 'invalid_grant');
      });

      it("key_rules given at authorize-client become the token's session", async () => {
        const rules = JSON.stringify({
          access_rights: {
            [apiId]: { api_id: apiId, versions: [], allowed_urls: [{ url: '^/oauthapi/only', methods: ['GET'] }] },
          },
        });
        const { code } = await loginAppApproves(client.client_id, REDIRECT_URI, { key_rules: rules });
        const token = await new AuthorizationCode(codeConfig(client.client_id, client.secret)).getToken({
          code,
          redirect_uri: REDIRECT_URI,
        });
        assert.equal((await api('/only/this', token.token.access_token as string)).status, 200);
        assert.equal((await api('/elsewhere', token.token.access_token as string)).status, 403);
      });
    });

    describe('implicit grant (response_type token)', () => {
      it('authorize-client hands the login app an access token in the redirect fragment', async () => {
        const res = await dashboard(
          `/apis/oauth/${apiId}/authorize-client/`,
          form({ response_type: 'token', client_id: client.client_id, redirect_uri: REDIRECT_URI }),
        );
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.token_type, 'bearer');
        assert.equal(res.json.expires_in, 3600);
        assert.equal(res.json.code, undefined);
        const fragment = new URLSearchParams(new URL(res.json.redirect_to).hash.slice(1));
        assert.equal(fragment.get('access_token'), res.json.access_token);
        assert.equal((await api('/implicit', res.json.access_token)).status, 200);
      });

      it('is refused on an API whose allowed_authorize_types lacks token', async () => {
        const ccClient = (
          await dashboard(`/apis/oauth/${ccOnlyApiId}`, { method: 'POST', body: { redirect_uri: REDIRECT_URI } })
        ).json;
        const res = await dashboard(
          `/apis/oauth/${ccOnlyApiId}/authorize-client/`,
          form({ response_type: 'token', client_id: ccClient.client_id, redirect_uri: REDIRECT_URI }),
        );
        assert.equal(res.status, 400);
        assert.match(res.json.Message, /response type token is not allowed/);
        assert.deepEqual((await dashboard(`/apis/oauth/${ccOnlyApiId}/${ccClient.client_id}/tokens`)).json, []);
      });
    });

    describe('revoke_all and deleted clients', () => {
      it('revoke_all needs the client secret, then every token of the client is refused', async () => {
        const other = (
          await dashboard(`/apis/oauth/${apiId}`, {
            method: 'POST',
            body: { redirect_uri: REDIRECT_URI, policy_id: policyId },
          })
        ).json;
        const cc = new ClientCredentials(config(other.client_id, other.secret));
        const tokens = [
          (await cc.getToken({})).token.access_token as string,
          (await cc.getToken({})).token.access_token as string,
        ];
        for (const t of tokens) assert.equal((await api('/x', t)).status, 200);
        const wrong = await dashboard(`/apis/oauth/${other.client_id}/revoke_all`, {
          method: 'POST',
          body: { client_secret: 'not-it' },
        });
        assert.equal(wrong.status, 403);
        assert.equal((await api('/x', tokens[0])).status, 200, 'a refused revoke_all changes nothing');
        const res = await dashboard(`/apis/oauth/${other.client_id}/revoke_all`, {
          method: 'POST',
          body: { client_secret: other.secret },
        });
        assert.deepEqual(res.json, { Status: 'OK', Message: 'tokens revoked successfully', Meta: null });
        for (const t of tokens) await eventually(async () => assert.equal((await api('/x', t)).status, 403));
      });

      it('the dashboard revokes one token by value', async () => {
        const token = (await new ClientCredentials(config(client.client_id, client.secret)).getToken({})).token
          .access_token as string;
        const res = await dashboard(
          `/apis/oauth/${client.client_id}/revoke`,
          form({ token, token_type_hint: 'access_token' }),
        );
        assert.deepEqual(res.json, { Status: 'OK', Message: 'token revoked successfully', Meta: null });
        await eventually(async () => assert.equal((await api('/x', token)).status, 403));
      });

      it("a deleted client's tokens stay valid until they expire; the client gets no new ones", async () => {
        const doomed = (
          await dashboard(`/apis/oauth/${apiId}`, {
            method: 'POST',
            body: { redirect_uri: REDIRECT_URI, policy_id: policyId },
          })
        ).json;
        const cc = new ClientCredentials(config(doomed.client_id, doomed.secret));
        const token = (await cc.getToken({})).token.access_token as string;
        const res = await dashboard(`/apis/oauth/${apiId}/${doomed.client_id}`, { method: 'DELETE' });
        assert.deepEqual(res.json, { Status: 'OK', Message: 'OAuth Client deleted successfully', Meta: null });
        assert.equal((await api('/x', token)).status, 200);
        assert.equal((await refusal(cc.getToken({}))).body.error, 'invalid_client');
      });
    });
  });
