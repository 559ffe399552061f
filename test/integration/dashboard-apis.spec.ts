import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';

for (const store of STORE_VARIANTS)
  describe(`dashboard REST API: API definitions (/api/apis) on ${store.name}`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    const api = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-dash-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    describe('caller authentication', () => {
      it('answers 401 in the envelope shape without Authorization', async () => {
        const res = await http(`${node.dashboardUrl}/api/apis`);
        assert.equal(res.status, 401);
        assert.deepEqual(res.json, {
          Status: 'Error',
          Message: 'Authorization header missing: send your dashboard access key',
          Meta: null,
        });
      });

      it('answers 403 for an access key nobody has', async () => {
        const res = await http(`${node.dashboardUrl}/api/apis`, {
          headers: { authorization: 'ffffffffffffffffffffffffffffffff' },
        });
        assert.equal(res.status, 403);
        assert.deepEqual(res.json, { Status: 'Error', Message: 'Access key not recognised', Meta: null });
      });
    });

    describe('create, read, update, delete', () => {
      let internalId: string;
      let publicId: string;

      it('creates an API with generated ids (Message "API created", Meta = internal id)', async () => {
        const body = keylessApi('Orders', '/orders/', 'http://127.0.0.1:9/orders');
        (body.api_definition as Record<string, unknown>).api_id = 'chosen-by-client';
        const res = await api(acme, '/apis/', { method: 'POST', body: { ...body, hook_references: [] } });
        assert.equal(res.status, 200);
        assert.equal(res.json.Status, 'OK');
        assert.equal(res.json.Message, 'API created');
        assert.match(res.json.Meta, /^[0-9a-f]{24}$/);
        assert.match(res.json.ID, /^[0-9a-f]{32}$/, 'the dashboard generates the public id');
        internalId = res.json.Meta;
        publicId = res.json.ID;
      });

      for (const which of ['internal', 'public'] as const) {
        it(`reads the API by its ${which} id`, async () => {
          const res = await api(acme, `/apis/${which === 'internal' ? internalId : publicId}`);
          assert.equal(res.status, 200);
          assert.deepEqual(Object.keys(res.json).sort(), [
            'api_definition',
            'api_model',
            'hook_references',
            'is_site',
            'sort_by',
          ]);
          const def = res.json.api_definition;
          assert.equal(def.id, internalId);
          assert.equal(def.api_id, publicId);
          assert.equal(def.org_id, acme.orgId);
          assert.equal(def.name, 'Orders');
          assert.equal(def.active, true);
          assert.deepEqual(def.proxy, {
            listen_path: '/orders/',
            target_url: 'http://127.0.0.1:9/orders',
            strip_listen_path: true,
          });
          assert.deepEqual(def.version_data.versions.Default.name, 'Default');
        });
      }

      it('updates the API (Message "Api updated") and keeps its ids', async () => {
        const current = (await api(acme, `/apis/${publicId}`)).json;
        current.api_definition.name = 'Orders v2';
        current.api_definition.custom_field = { kept: true };
        const res = await api(acme, `/apis/${internalId}`, { method: 'PUT', body: current });
        assert.equal(res.status, 200);
        assert.deepEqual(res.json, { Status: 'OK', Message: 'Api updated', Meta: null });
        const after = (await api(acme, `/apis/${internalId}`)).json.api_definition;
        assert.equal(after.name, 'Orders v2');
        assert.equal(after.id, internalId);
        assert.equal(after.api_id, publicId);
        assert.deepEqual(after.custom_field, { kept: true });
      });

      it('deletes the API (Message "API deleted") and then answers 404', async () => {
        const res = await api(acme, `/apis/${publicId}`, { method: 'DELETE' });
        assert.deepEqual(res.json, { Status: 'OK', Message: 'API deleted', Meta: null });
        const gone = await api(acme, `/apis/${internalId}`);
        assert.equal(gone.status, 404);
        assert.deepEqual(gone.json, { Status: 'Error', Message: `API not found: ${internalId}`, Meta: null });
        assert.equal((await api(acme, `/apis/${internalId}`, { method: 'DELETE' })).status, 404);
        assert.equal(
          (await api(acme, `/apis/${internalId}`, { method: 'PUT', body: keylessApi('X', '/x', 'http://a.test') }))
            .status,
          404,
        );
      });
    });

    describe('lists, pages and search', () => {
      before(async () => {
        for (let i = 1; i <= 12; i++) {
          const name = i % 2 === 0 ? `Billing ${i}` : `Catalog ${i}`;
          const res = await api(globex, '/apis', {
            method: 'POST',
            body: keylessApi(name, `/globex/${i}`, 'http://127.0.0.1:9'),
          });
          assert.equal(res.status, 200, res.text);
        }
      });

      it('returns the first page of 10 by default, with api_model, api_definition and hook_references', async () => {
        const res = await api(globex, '/apis/');
        assert.equal(res.status, 200);
        assert.equal(res.json.apis.length, 10);
        assert.equal(res.json.pages, 2);
        for (const item of res.json.apis) {
          assert.deepEqual(item.api_model, {});
          assert.deepEqual(item.hook_references, []);
          assert.equal(item.api_definition.org_id, globex.orgId);
        }
      });

      it('pages with p, and returns everything for p <= 0', async () => {
        const first = await api(globex, '/apis?p=1');
        const second = await api(globex, '/apis?p=2');
        assert.equal(second.json.apis.length, 2);
        const ids = new Set(
          [...first.json.apis, ...second.json.apis].map((a: { api_definition: { id: string } }) => a.api_definition.id),
        );
        assert.equal(ids.size, 12);
        assert.equal((await api(globex, '/apis?p=0')).json.apis.length, 12);
        assert.equal((await api(globex, '/apis?p=-1')).json.apis.length, 12);
        assert.equal((await api(globex, '/apis?p=3')).json.apis.length, 0);
      });

      it('refuses a p that is not an integer', async () => {
        const res = await api(globex, '/apis?p=two');
        assert.equal(res.status, 400);
        assert.equal(res.json.Message, "Query parameter p must be an integer page number, got 'two'");
      });

      for (const path of ['/apis/search?q=billing', '/apis?q=BILLING']) {
        it(`searches by name text: GET ${path}`, async () => {
          const res = await api(globex, path);
          assert.equal(res.status, 200);
          assert.equal(res.json.apis.length, 6);
          assert.ok(
            res.json.apis.every((a: { api_definition: { name: string } }) =>
              a.api_definition.name.startsWith('Billing'),
            ),
          );
          assert.equal(res.json.pages, 1);
        });
      }

      it('treats LIKE wildcards in q as plain text', async () => {
        assert.equal((await api(globex, '/apis/search?q=%25')).json.apis.length, 0);
      });
    });

    describe('organisation isolation', () => {
      let acmeApiId: string;
      before(async () => {
        acmeApiId = (
          await api(acme, '/apis', {
            method: 'POST',
            body: keylessApi('Acme private', '/acme-private', 'http://127.0.0.1:9'),
          })
        ).json.Meta;
      });

      it("does not list, read, change or delete another organisation's API", async () => {
        const listed = (await api(globex, '/apis?p=0')).json.apis.map(
          (a: { api_definition: { id: string } }) => a.api_definition.id,
        );
        assert.ok(!listed.includes(acmeApiId));
        assert.equal((await api(globex, `/apis/${acmeApiId}`)).status, 404);
        assert.equal(
          (
            await api(globex, `/apis/${acmeApiId}`, {
              method: 'PUT',
              body: keylessApi('Stolen', '/stolen', 'http://a.test'),
            })
          ).status,
          404,
        );
        assert.equal((await api(globex, `/apis/${acmeApiId}`, { method: 'DELETE' })).status, 404);
        assert.equal((await api(acme, `/apis/${acmeApiId}`)).json.api_definition.name, 'Acme private');
      });

      it('refuses to create an API in another organisation', async () => {
        const res = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Sneaky', '/sneaky', 'http://a.test', { org_id: globex.orgId }),
        });
        assert.equal(res.status, 400);
        assert.equal(
          res.json.Message,
          `org_id '${globex.orgId}' is not your organisation; leave it out or send your own`,
        );
      });
    });

    describe('bad input', () => {
      it('refuses a second API on the same listen path, naming the API that holds it', async () => {
        const first = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Payments', '/payments', 'http://127.0.0.1:9'),
        });
        const holder = (await api(acme, `/apis/${first.json.Meta}`)).json.api_definition;
        const second = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Payments copy', '/payments/', 'http://127.0.0.1:9'),
        });
        assert.equal(second.status, 400);
        assert.equal(
          second.json.Message,
          `Listen path /payments/ is already used by API 'Payments' (api_id ${holder.api_id})`,
        );
        const fromOtherOrg = await api(globex, '/apis', {
          method: 'POST',
          body: keylessApi('Payments', '/payments', 'http://127.0.0.1:9'),
        });
        assert.equal(fromOtherOrg.status, 400, 'listen paths are unique on the gateway, whatever the organisation');
      });

      it('allows the same listen path on another domain', async () => {
        const res = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Payments EU', '/payments', 'http://127.0.0.1:9', { domain: 'eu.example.test' }),
        });
        assert.equal(res.status, 200, res.text);
      });

      it('refuses to move an API onto a taken listen path and leaves it unchanged', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Mover', '/mover', 'http://127.0.0.1:9'),
        });
        const moved = await api(acme, `/apis/${created.json.Meta}`, {
          method: 'PUT',
          body: keylessApi('Mover', '/payments', 'http://127.0.0.1:9'),
        });
        assert.equal(moved.status, 400);
        assert.equal((await api(acme, `/apis/${created.json.Meta}`)).json.api_definition.proxy.listen_path, '/mover');
      });

      it('refuses the reserved /gw listen path', async () => {
        const res = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Sneaky', '/gw/apis', 'http://127.0.0.1:9'),
        });
        assert.equal(res.status, 400);
        assert.equal(res.json.Message, 'Listen path /gw/apis is reserved for the gateway management API (/gw)');
      });

      it('lists every schema problem in Errors and stores nothing', async () => {
        const before = (await api(acme, '/apis?p=0')).json.apis.length;
        const res = await api(acme, '/apis', {
          method: 'POST',
          body: { api_definition: { use_keyless: 'yes', proxy: { listen_path: 'no-slash', target_url: 'ftp://x' } } },
        });
        assert.equal(res.status, 400);
        assert.equal(res.json.Status, 'Error');
        assert.equal(res.json.Meta, null);
        assert.deepEqual(res.json.Errors, [
          "The 'api_definition.name' field is required.",
          "The 'api_definition.use_keyless' field must be a boolean.",
          "The 'api_definition.proxy.listen_path' field must start with '/' and hold no spaces.",
          "The 'api_definition.proxy.target_url' field must be an absolute http://, https:// or h2c:// URL.",
        ]);
        assert.equal((await api(acme, '/apis?p=0')).json.apis.length, before);
      });

      it('refuses a body without api_definition', async () => {
        const res = await api(acme, '/apis', { method: 'POST', body: { name: 'flat' } });
        assert.equal(res.status, 400);
        assert.deepEqual(res.json.Errors, ["The 'api_definition' field is required."]);
      });

      it('refuses malformed JSON and non-object bodies', async () => {
        const malformed = await api(acme, '/apis', { method: 'POST', body: '{"api_definition":' });
        assert.equal(malformed.status, 400);
        assert.match(malformed.json.Message, /^Malformed JSON in request body/);
        const array = await api(acme, '/apis', { method: 'POST', body: '[]' });
        assert.equal(array.json.Message, 'Request body must be a JSON object, not an array');
      });

      it('answers 404 in the envelope for an unknown endpoint', async () => {
        const res = await api(acme, '/nothing-here');
        assert.equal(res.status, 404);
        assert.equal(res.json.Status, 'Error');
      });
    });

    describe('JWT and OpenID Connect settings', () => {
      const secret = Buffer.from('a shared secret').toString('base64');
      const jwtApi = (name: string, listenPath: string, settings: Record<string, unknown>) =>
        keylessApi(name, listenPath, 'http://127.0.0.1:9', {
          use_keyless: false,
          enable_jwt: true,
          jwt_signing_method: 'hmac',
          jwt_source: secret,
          ...settings,
        });
      const openIdApi = (name: string, listenPath: string, providers: unknown[]) =>
        keylessApi(name, listenPath, 'http://127.0.0.1:9', {
          use_keyless: false,
          use_openid: true,
          openid_options: { providers, segregate_by_client: false },
        });

      it('stores every JWT and OpenID Connect field as sent', async () => {
        const jwt = {
          jwt_signing_method: 'eddsa',
          jwt_source: 'https://idp.example.test/.well-known/jwks.json',
          jwt_jwks_uris: [{ url: 'https://idp.example.test/keys', cache_timeout: 300 }],
          jwt_identity_base_field: 'sub',
          jwt_client_base_field: 'azp',
          jwt_policy_field_name: 'pol',
          jwt_default_policies: ['p1'],
          jwt_expires_at_validation_skew: 5,
          jwt_issued_at_validation_skew: 0,
          jwt_not_before_validation_skew: 2.5,
          jwt_skip_kid: true,
          idp_client_id_mapping_disabled: true,
          jwt_allowed_issuers: ['https://idp.example.test/'],
          jwt_require_jti: true,
          scopes: { jwt: { scope_claim_name: 'scope', scope_to_policy: { read: 'p-read' } }, oidc: {} },
          auth_configs: {
            jwt: { auth_header_name: 'X-Token', use_param: true, param_name: 'token', use_cookie: false },
          },
          base_identity_provided_by: 'jwt_claim',
        };
        const created = await api(acme, '/apis', { method: 'POST', body: jwtApi('JWT ok', '/jwt-ok', jwt) });
        assert.equal(created.status, 200, created.text);
        const stored = (await api(acme, `/apis/${created.json.Meta}`)).json.api_definition;
        for (const [field, value] of Object.entries(jwt)) assert.deepEqual(stored[field], value, field);
        const provider = { issuer: 'https://accounts.example.test', client_ids: { [btoa('web-app')]: 'p1' } };
        const openId = await api(acme, '/apis', { method: 'POST', body: openIdApi('OIDC ok', '/oidc-ok', [provider]) });
        assert.equal(openId.status, 200, openId.text);
        const storedOpenId = (await api(acme, `/apis/${openId.json.Meta}`)).json.api_definition;
        assert.deepEqual(storedOpenId.openid_options.providers, [provider]);
      });

      it('stores enable_jwt with no jwt_source and no jwt_jwks_uris (each token names the key whose secret verifies it)', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: jwtApi('JWT key secrets', '/jwt-key-secrets', { jwt_source: '', jwt_jwks_uris: [] }),
        });
        assert.equal(created.status, 200, created.text);
        const stored = (await api(acme, `/apis/${created.json.Meta}`)).json.api_definition;
        assert.equal(stored.enable_jwt, true);
        assert.equal(stored.jwt_source, '');
        assert.deepEqual(stored.jwt_jwks_uris, []);
      });

      const refusals: Array<[string, Record<string, unknown>, string]> = [
        [
          'an unknown signing method',
          jwtApi('Bad method', '/bad-1', { jwt_signing_method: 'none' }),
          'jwt_signing_method: "none" is not one of hmac, rsa, ecdsa, eddsa',
        ],
        [
          'a negative skew',
          jwtApi('Bad skew', '/bad-2', { jwt_expires_at_validation_skew: -1 }),
          'jwt_expires_at_validation_skew: must be a number of seconds, 0 or more',
        ],
        [
          'a jwt_source that is neither base64 nor a URL',
          jwtApi('Bad source', '/bad-3', { jwt_source: 'not base64!' }),
          'jwt_source: must be base64 (of a shared secret, a PEM public key or certificate, or a JWKS URL) or an http(s) JWKS URL',
        ],
        [
          'a JWKS entry whose url is not http(s)',
          jwtApi('Bad JWKS', '/bad-5', { jwt_jwks_uris: [{ url: 'ftp://idp.example.test/keys', cache_timeout: 60 }] }),
          'jwt_jwks_uris[0].url: "ftp://idp.example.test/keys" is not an absolute http:// or https:// URL',
        ],
        [
          'an enable_jwt that is not a boolean',
          jwtApi('Bad flag', '/bad-6', { enable_jwt: 'yes' }),
          'enable_jwt: must be true or false',
        ],
        [
          'default policies that are not a list',
          jwtApi('Bad policies', '/bad-7', { jwt_default_policies: 'p1' }),
          'jwt_default_policies: must be a list of strings',
        ],
        [
          'an OpenID Connect provider without issuer',
          openIdApi('No issuer', '/bad-8', [{ client_ids: {} }]),
          'openid_options.providers[0].issuer: is required',
        ],
        [
          'an OpenID Connect client id that is not base64',
          openIdApi('Bad client', '/bad-9', [
            { issuer: 'https://accounts.example.test', client_ids: { 'web app': 'p1' } },
          ]),
          'openid_options.providers[0].client_ids: key "web app" is not the base64 of a client id',
        ],
      ];
      for (const [what, body, message] of refusals) {
        it(`refuses ${what} with 400 naming the field, and stores nothing`, async () => {
          const res = await api(acme, '/apis', { method: 'POST', body });
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.Status, 'Error');
          assert.equal(res.json.Message, message);
          const name = (body.api_definition as { name: string }).name;
          const listed = (await api(acme, `/apis?p=0&q=${encodeURIComponent(name)}`)).json.apis;
          assert.deepEqual(listed, []);
        });
      }

      it('refuses the same on an update and on the gateway API (/gw/apis)', async () => {
        const created = await api(acme, '/apis', { method: 'POST', body: jwtApi('JWT update', '/jwt-update', {}) });
        assert.equal(created.status, 200, created.text);
        const updated = await api(acme, `/apis/${created.json.Meta}`, {
          method: 'PUT',
          body: jwtApi('JWT update', '/jwt-update', { jwt_not_before_validation_skew: -5 }),
        });
        assert.equal(updated.status, 400, updated.text);
        assert.equal(updated.json.Message, 'jwt_not_before_validation_skew: must be a number of seconds, 0 or more');
        const stored = (await api(acme, `/apis/${created.json.Meta}`)).json.api_definition;
        assert.equal(stored.jwt_not_before_validation_skew, undefined);
        const viaGateway = await http(`${node.gatewayUrl}/gw/apis`, {
          method: 'POST',
          headers: node.gwHeaders,
          body: jwtApi('JWT gw', '/jwt-gw', { jwt_signing_method: 'hs256' }).api_definition,
        });
        assert.equal(viaGateway.status, 400, viaGateway.text);
        assert.equal(viaGateway.json.message, 'jwt_signing_method: "hs256" is not one of hmac, rsa, ecdsa, eddsa');
      });
    });
  });
