import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, type HttpResult } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { createOAuthApi, dashboardOf, form, LOGIN_APP, REDIRECT_URI } from '../support/oauth';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

const newVerifier = () => randomBytes(32).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

interface Client {
  client_id: string;
  secret: string;
}

/**
 * PKCE (RFC 7636) on the authorisation code flow, and a code presented twice (RFC 6749 §4.1.2):
 * refused, and every token issued from it revoked. A real gateway, the dashboard as the login
 * app's authorisation server, clients speaking HTTP.
 */
for (const store of STORE_VARIANTS)
  describe(`OAuth 2.0: PKCE and code reuse on ${store.name}`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let upstream: Upstream;
    let tenant: Tenant;
    let dashboard: ReturnType<typeof dashboardOf>;
    /** an API where PKCE is the client's choice, and one that requires it */
    const apis = { optional: { id: '', path: '/pkce-optional' }, required: { id: '', path: '/pkce-required' } };
    type Api = keyof typeof apis;
    const clients = {} as Record<Api, Client>;
    const endpoint = (api: Api, path: string) => `${node.gatewayUrl}${apis[api].path}${path}`;
    /** What a client sends to /oauth/authorize, and the login app to authorize-client. */
    const request = (api: Api, extra: Record<string, string>) => ({
      response_type: 'code',
      client_id: clients[api].client_id,
      redirect_uri: REDIRECT_URI,
      ...extra,
    });
    /** What a client sends to /oauth/token with its credentials. */
    const tokenRequest = (api: Api, fields: Record<string, string>) =>
      form({ ...fields, client_id: clients[api].client_id, client_secret: clients[api].secret });

    const authorize = (api: Api, query: Record<string, string>) =>
      http(`${endpoint(api, '/oauth/authorize')}?${new URLSearchParams(request(api, query))}`);
    /** The login app: the user said yes, so it asks the dashboard for a code with what /oauth/authorize got. */
    const approve = (api: Api, extra: Record<string, string> = {}) =>
      dashboard(`/apis/oauth/${apis[api].id}/authorize-client/`, form(request(api, extra)));
    const codeFor = async (api: Api, extra: Record<string, string> = {}) => {
      const res = await approve(api, extra);
      assert.equal(res.status, 200, res.text);
      return res.json.code as string;
    };
    const exchange = (api: Api, code: string, extra: Record<string, string> = {}) =>
      http(
        endpoint(api, '/oauth/token'),
        tokenRequest(api, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...extra }),
      );
    const refresh = (api: Api, refreshToken: string) =>
      http(
        endpoint(api, '/oauth/token'),
        tokenRequest(api, { grant_type: 'refresh_token', refresh_token: refreshToken }),
      );
    const callApi = async (api: Api, token: string) =>
      (await http(endpoint(api, '/orders'), { headers: { authorization: `Bearer ${token}` } })).status;
    const assertOAuthError = (res: HttpResult, status: number, error: string) => {
      assert.equal(res.status, status, res.text);
      assert.equal(res.json.error, error, res.text);
      assert.equal(typeof res.json.error_description, 'string');
      assert.equal(res.headers.get('cache-control'), 'no-store');
    };

    before(async function () {
      if (!store.enabled) this.skip();
      upstream = await startUpstream();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-pkce-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
      dashboard = dashboardOf(node.dashboardUrl, tenant);
      const meta = {
        allowed_access_types: ['authorization_code', 'refresh_token'],
        allowed_authorize_types: ['code'],
        auth_login_redirect: LOGIN_APP,
      };
      for (const api of ['optional', 'required'] as const) {
        const oauthMeta = { ...meta, ...(api === 'required' ? { require_pkce: true } : {}) };
        apis[api].id = await createOAuthApi(dashboard, `pkce ${api}`, apis[api].path, upstream.url, {
          oauth_meta: oauthMeta,
        });
        const created = await dashboard(`/apis/oauth/${apis[api].id}`, {
          method: 'POST',
          body: { redirect_uri: REDIRECT_URI },
        });
        assert.equal(created.status, 200, created.text);
        clients[api] = created.json;
        await eventually(async () => assert.equal((await http(endpoint(api, '/orders'))).status, 401), 3000);
      }
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await database.cleanup();
      await upstream.close();
      removeDir(node.dataDir);
    });

    describe('PKCE', () => {
      it('S256: the login app gets the challenge from /oauth/authorize; the verifier gets a token', async () => {
        const verifier = newVerifier();
        const challenge = { code_challenge: s256(verifier), code_challenge_method: 'S256' };
        const redirected = await authorize('optional', challenge);
        assert.equal(redirected.status, 307, redirected.text);
        const login = new URL(redirected.headers.get('location')!);
        assert.equal(`${login.origin}${login.pathname}`, LOGIN_APP);
        assert.equal(login.searchParams.get('code_challenge'), challenge.code_challenge);
        assert.equal(login.searchParams.get('code_challenge_method'), 'S256');
        const issued = await exchange('optional', await codeFor('optional', challenge), { code_verifier: verifier });
        assert.equal(issued.status, 200, issued.text);
        assert.equal(issued.json.token_type, 'bearer');
        assert.equal(await callApi('optional', issued.json.access_token), 200);
      });

      it('plain, the default method: the verifier is the challenge itself', async () => {
        const verifier = newVerifier();
        assert.equal((await authorize('optional', { code_challenge: verifier })).status, 307);
        const code = await codeFor('optional', { code_challenge: verifier });
        const issued = await exchange('optional', code, { code_verifier: verifier });
        assert.equal(issued.status, 200, issued.text);
        assert.equal(await callApi('optional', issued.json.access_token), 200);
      });

      it('a wrong verifier is 400 invalid_grant, and the code is used up', async () => {
        const verifier = newVerifier();
        const code = await codeFor('optional', { code_challenge: s256(verifier), code_challenge_method: 'S256' });
        assertOAuthError(await exchange('optional', code, { code_verifier: newVerifier() }), 400, 'invalid_grant');
        assertOAuthError(await exchange('optional', code, { code_verifier: verifier }), 400, 'invalid_grant');
      });

      it('the challenge given as the S256 verifier, a malformed verifier, or none is 400 invalid_grant', async () => {
        const verifier = newVerifier();
        const challenge = { code_challenge: s256(verifier), code_challenge_method: 'S256' };
        const wrong = [challenge.code_challenge, `${verifier}!`, 'short'].map((sent) => ({ code_verifier: sent }));
        for (const extra of [...wrong, {}]) {
          const code = await codeFor('optional', challenge);
          assertOAuthError(await exchange('optional', code, extra), 400, 'invalid_grant');
        }
      });

      it('a verifier for a code issued without a challenge is 400 invalid_grant', async () => {
        const code = await codeFor('optional');
        assertOAuthError(await exchange('optional', code, { code_verifier: newVerifier() }), 400, 'invalid_grant');
      });

      it('an unknown method or a malformed challenge is refused at /oauth/authorize and authorize-client', async () => {
        const queries: Array<Record<string, string>> = [
          { code_challenge: s256(newVerifier()), code_challenge_method: 'S512' },
          { code_challenge: 'too-short', code_challenge_method: 'plain' },
          { code_challenge: `${s256(newVerifier())}=`, code_challenge_method: 'S256' },
          { code_challenge_method: 'S256' },
        ];
        for (const query of queries) {
          assertOAuthError(await authorize('optional', query), 400, 'invalid_request');
          const refused = await approve('optional', query);
          assert.equal(refused.status, 400, refused.text);
        }
      });

      it('an API with oauth_meta.require_pkce refuses an authorisation request without a challenge', async () => {
        assertOAuthError(await authorize('required', {}), 400, 'invalid_request');
        const refused = await approve('required');
        assert.equal(refused.status, 400, refused.text);
        assert.match(refused.json.Message, /code_challenge is required/);
      });

      it('an API with oauth_meta.require_pkce completes a flow with a challenge', async () => {
        const verifier = newVerifier();
        const challenge = { code_challenge: s256(verifier), code_challenge_method: 'S256' };
        assert.equal((await authorize('required', challenge)).status, 307);
        const issued = await exchange('required', await codeFor('required', challenge), { code_verifier: verifier });
        assert.equal(issued.status, 200, issued.text);
        assert.equal(await callApi('required', issued.json.access_token), 200);
      });
    });

    it("the gateway API's authorize-client keeps the challenge with the code, and applies require_pkce", async () => {
      const viaGateway = (api: Api, extra: Record<string, string>) => {
        const body = form(request(api, extra));
        return http(`${node.gatewayUrl}/gw/oauth/authorize-client`, {
          ...body,
          headers: { ...body.headers, ...node.gwHeaders },
        });
      };
      const verifier = newVerifier();
      const approved = await viaGateway('optional', { code_challenge: s256(verifier), code_challenge_method: 'S256' });
      assert.equal(approved.status, 200, approved.text);
      assertOAuthError(await exchange('optional', approved.json.code), 400, 'invalid_grant');
      const refused = await viaGateway('required', {});
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /code_challenge is required/);
    });

    describe('a code presented twice', () => {
      it('is refused (400 invalid_grant), and the tokens issued for it stop working', async () => {
        const code = await codeFor('optional');
        const first = await exchange('optional', code);
        assert.equal(first.status, 200, first.text);
        const { access_token: accessToken, refresh_token: refreshToken } = first.json;
        assert.equal(await callApi('optional', accessToken), 200);
        assertOAuthError(await exchange('optional', code), 400, 'invalid_grant');
        await eventually(async () => assert.equal(await callApi('optional', accessToken), 403), 3000);
        assertOAuthError(await refresh('optional', refreshToken), 400, 'invalid_grant');
        const tokens = `/apis/oauth/${apis.optional.id}/${clients.optional.client_id}/tokens`;
        const listed = (await dashboard(tokens)).json as Array<{ code: string }>;
        const hash = createHash('sha256').update(accessToken).digest('hex');
        assert.ok(!listed.some((token) => token.code === hash), 'the token left the listing');
      });

      it('revokes what refreshing the first tokens gave too', async () => {
        const code = await codeFor('optional');
        const first = await exchange('optional', code);
        assert.equal(first.status, 200, first.text);
        const refreshed = await refresh('optional', first.json.refresh_token);
        assert.equal(refreshed.status, 200, refreshed.text);
        assert.equal(await callApi('optional', refreshed.json.access_token), 200);
        assertOAuthError(await exchange('optional', code), 400, 'invalid_grant');
        await eventually(async () => assert.equal(await callApi('optional', refreshed.json.access_token), 403), 3000);
        assertOAuthError(await refresh('optional', refreshed.json.refresh_token), 400, 'invalid_grant');
      });

      it('at the same time: exactly one exchange succeeds, and its tokens are revoked all the same', async () => {
        for (let round = 0; round < 5; round++) {
          const code = await codeFor('optional');
          const answers = await Promise.all([exchange('optional', code), exchange('optional', code)]);
          const succeeded = answers.filter((res) => res.status === 200);
          assert.equal(succeeded.length, 1, answers.map((res) => `${res.status} ${res.text}`).join('\n'));
          assertOAuthError(
            answers.find((res) => res.status !== 200)!,
            400,
            'invalid_grant',
          );
          const { access_token: accessToken, refresh_token: refreshToken } = succeeded[0].json;
          await eventually(async () => assert.equal(await callApi('optional', accessToken), 403), 3000);
          assertOAuthError(await refresh('optional', refreshToken), 400, 'invalid_grant');
        }
      });
    });
  });
