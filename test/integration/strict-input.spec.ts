import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, type HttpOptions } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

const SDL = 'type Query { hello: String }';
const graphqlApi = (name: string, listenPath: string, graphql: Record<string, unknown>) =>
  keylessApi(name, listenPath, 'http://127.0.0.1:9/graphql', {
    graphql: { enabled: true, execution_mode: 'proxyOnly', ...graphql },
  });
/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

for (const store of STORE_VARIANTS) {
  describe(`strict input on the management surfaces (${store.name})`, () => {
    let node: TestNode;
    let upstream: Upstream;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    const api = (tenant: Tenant, path: string, options: HttpOptions = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const gw = (path: string, options: HttpOptions = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const admin = (path: string, options: HttpOptions = {}) =>
      http(`${node.dashboardUrl}/admin${path}`, { ...options, headers: node.adminHeaders });
    const envelope = (message: string) => ({ Status: 'Error', Message: message, Meta: null });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-strict-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    describe('definitions the gateway cannot serve are refused at save time', () => {
      it('refuses a GraphQL API without a schema on the dashboard', async () => {
        const res = await api(acme, '/apis', { method: 'POST', body: graphqlApi('no-schema', '/no-schema', {}) });
        assert.equal(res.status, 400);
        assert.deepEqual(
          res.json,
          envelope(
            'graphql.schema is required: the gateway validates requests against it and does not introspect the upstream',
          ),
        );
      });

      it('refuses a schema the gateway cannot build (no Query type) on the dashboard, listing why', async () => {
        const res = await api(acme, '/apis', {
          method: 'POST',
          body: graphqlApi('no-query', '/no-query', { schema: 'type Foo { a: String }' }),
        });
        assert.equal(res.status, 400);
        assert.deepEqual(res.json, {
          ...envelope('Invalid GraphQL schema'),
          Errors: ['Query root type must be provided.'],
        });
      });

      it('refuses an invalid schema on /gw, naming the problem', async () => {
        const definition = {
          ...graphqlApi('gw-bad', '/gw-bad', { schema: 'type Query { a: Missing }' }).api_definition,
          api_id: 'gw-bad',
        };
        const res = await gw('/apis', { method: 'POST', body: definition });
        assert.equal(res.status, 400);
        assert.deepEqual(res.json, { status: 'error', message: 'Invalid GraphQL schema: Unknown type "Missing".' });
        assert.equal((await gw('/apis/gw-bad')).status, 404);
      });

      it('refuses an update that drops the schema of a GraphQL API', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: graphqlApi('keeps-schema', '/keeps-schema', { schema: SDL }),
        });
        assert.equal(created.status, 200, created.text);
        const record = (await api(acme, `/apis/${created.json.Meta}`)).json;
        delete record.api_definition.graphql.schema;
        const res = await api(acme, `/apis/${created.json.Meta}`, { method: 'PUT', body: record });
        assert.equal(res.status, 400);
        assert.match(res.json.Message, /^graphql.schema is required/);
      });

      for (const targetUrl of ['http://upstream.test:99999/', 'http://[::1/']) {
        it(`refuses a target_url that does not parse (${targetUrl}) on the dashboard and on /gw`, async () => {
          const dashboard = await api(acme, '/apis', {
            method: 'POST',
            body: keylessApi('bad-url', '/bad-url', targetUrl),
          });
          assert.equal(dashboard.status, 400);
          assert.deepEqual(dashboard.json, envelope(`proxy.target_url '${targetUrl}' is not a valid URL`));
          const gateway = await gw('/apis', {
            method: 'POST',
            body: { ...keylessApi('bad-url', '/bad-url', targetUrl).api_definition, api_id: 'bad-url' },
          });
          assert.equal(gateway.status, 400);
          assert.deepEqual(gateway.json, {
            status: 'error',
            message: `proxy.target_url '${targetUrl}' is not a valid URL`,
          });
        });
      }
    });

    describe('changing an api_id on the dashboard', () => {
      it('refuses it while a key grants access to the API, and leaves the API as it was', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Keyed', '/keyed', upstream.url, { use_keyless: false }),
        });
        const publicId = created.json.ID;
        const key = await api(acme, '/keys', {
          method: 'POST',
          body: { access_rights: { [publicId]: { api_id: publicId } } },
        });
        assert.equal(key.status, 200, key.text);
        const record = (await api(acme, `/apis/${created.json.Meta}`)).json;
        record.api_definition.api_id = 'renamed-keyed';
        const res = await api(acme, `/apis/${created.json.Meta}`, { method: 'PUT', body: record });
        assert.equal(res.status, 400);
        assert.deepEqual(
          res.json,
          envelope(
            `api_id ${publicId} can not be changed to renamed-keyed: keys or policies grant access to it; create a new API instead`,
          ),
        );
        assert.equal((await api(acme, `/apis/${created.json.Meta}`)).json.api_definition.api_id, publicId);
      });

      it('refuses it while a policy grants access to the API', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Policied', '/policied', upstream.url),
        });
        const publicId = created.json.ID;
        const policy = await api(acme, '/portal/policies', {
          method: 'POST',
          body: { name: 'p', access_rights: { [publicId]: { api_id: publicId } } },
        });
        assert.equal(policy.status, 200, policy.text);
        const record = (await api(acme, `/apis/${created.json.Meta}`)).json;
        record.api_definition.api_id = 'renamed-policied';
        const res = await api(acme, `/apis/${created.json.Meta}`, { method: 'PUT', body: record });
        assert.equal(res.status, 400);
        assert.match(res.json.Message, /keys or policies grant access to it/);
      });

      it('allows it for an API nothing refers to', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Unused', '/unused', upstream.url),
        });
        const record = (await api(acme, `/apis/${created.json.Meta}`)).json;
        record.api_definition.api_id = 'renamed-unused';
        const res = await api(acme, `/apis/${created.json.Meta}`, { method: 'PUT', body: record });
        assert.equal(res.status, 200, res.text);
        assert.equal((await api(acme, '/apis/renamed-unused')).json.api_definition.id, created.json.Meta);
      });
    });

    describe('policies', () => {
      let acmeApi = '';
      let globexApi = '';
      before(async () => {
        acmeApi = (
          await api(acme, '/apis', {
            method: 'POST',
            body: keylessApi('Acme policy API', '/acme-pol', upstream.url, { use_keyless: false }),
          })
        ).json.ID;
        globexApi = (
          await api(globex, '/apis', {
            method: 'POST',
            body: keylessApi('Globex policy API', '/globex-pol', upstream.url),
          })
        ).json.ID;
      });
      const rights = (apiId: string) => ({ [apiId]: { api_id: apiId, versions: ['Default'] } });

      const refused: Array<[string, () => Record<string, unknown>, string]> = [
        [
          'without a name',
          () => ({ rate: 1, per: 1, access_rights: rights(acmeApi) }),
          "The 'policy.name' field is required.",
        ],
        [
          'with an empty name',
          () => ({ name: ' ', access_rights: rights(acmeApi) }),
          "The 'policy.name' field must not be empty.",
        ],
        [
          'naming an API that does not exist',
          () => ({ name: 'x', access_rights: rights('no-such-api') }),
          "access_rights names an API that does not exist in the policy's organisation: no-such-api",
        ],
        [
          "naming another organisation's API",
          () => ({ name: 'x', access_rights: rights(globexApi) }),
          `access_rights names an API that does not exist in the policy's organisation: ${globexApi}`,
        ],
        [
          'with a negative rate',
          () => ({ name: 'x', rate: -1, per: 1 }),
          "The 'policy.rate' field must be greater than or equal to 0.",
        ],
        [
          'with a negative per',
          () => ({ name: 'x', rate: 1, per: -5 }),
          "The 'policy.per' field must be greater than or equal to 0.",
        ],
        [
          'with quota_max below -1',
          () => ({ name: 'x', quota_max: -2 }),
          "The 'policy.quota_max' field must be greater than or equal to -1.",
        ],
        [
          'with a rate that is a string',
          () => ({ name: 'x', rate: '10' }),
          "The 'policy.rate' field must be a number.",
        ],
        [
          'with is_inactive that is not a boolean',
          () => ({ name: 'x', is_inactive: 'yes' }),
          "The 'policy.is_inactive' field must be a boolean.",
        ],
      ];
      for (const [what, body, message] of refused) {
        it(`refuses a policy ${what} with 400`, async () => {
          const res = await api(acme, '/portal/policies', { method: 'POST', body: body() });
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.Status, 'Error');
          assert.equal(res.json.Meta, null);
          assert.ok(res.json.Message.includes(message), res.json.Message);
        });
      }

      it('refuses the same on /gw in its shape, and accepts expires: -1 and quota_max: -1', async () => {
        const bad = await gw('/policies', { method: 'POST', body: { id: 'gw-unnamed', rate: 1, per: 1 } });
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.json, {
          status: 'error',
          message: "Request validation failed: The 'policy.name' field is required.",
        });
        const good = await gw('/policies', {
          method: 'POST',
          body: { id: 'gw-named', name: 'named', expires: -1, quota_max: -1, access_rights: rights(acmeApi) },
        });
        assert.equal(good.status, 200, good.text);
        assert.equal((await gw('/policies/gw-named')).json.expires, -1);
      });

      it('makes a key inactive when its policy says is_inactive: true', async () => {
        const policy = await api(acme, '/portal/policies', {
          method: 'POST',
          body: { name: 'switched off', is_inactive: true, access_rights: rights(acmeApi) },
        });
        assert.equal(policy.status, 200, policy.text);
        const key = (
          await api(acme, '/keys', {
            method: 'POST',
            body: { access_rights: rights(acmeApi), apply_policies: [policy.json.Meta] },
          })
        ).json.key_id;
        await eventually(async () => {
          const res = await http(`${node.gatewayUrl}/acme-pol/`, { headers: { authorization: key } });
          assert.equal(res.status, 403, res.text);
          assert.deepEqual(res.json, { error: 'Key is inactive, please renew' });
        });
      });

      it('answers 503, not 403 "Key is inactive", when the store fails while a key is looked up', async () => {
        const policy = await api(acme, '/portal/policies', {
          method: 'POST',
          body: { name: 'live', access_rights: rights(acmeApi) },
        });
        const key = (
          await api(acme, '/keys', {
            method: 'POST',
            body: { access_rights: rights(acmeApi), apply_policies: [policy.json.Meta] },
          })
        ).json.key_id;
        await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/acme-pol/`)).status, 401));
        const db = node.runtime.database();
        await db.schema.renameTable('policies', 'policies_away');
        try {
          const res = await http(`${node.gatewayUrl}/acme-pol/`, { headers: { authorization: key } });
          assert.equal(res.status, 503, res.text);
          assert.deepEqual(res.json, { error: 'The key store is not reachable, please try again later' });
        } finally {
          await db.schema.renameTable('policies_away', 'policies');
        }
        const res = await http(`${node.gatewayUrl}/acme-pol/`, { headers: { authorization: key } });
        assert.equal(res.status, 200, res.text);
      });
    });

    describe('strings longer than their column', () => {
      const long = (n: number) => 'x'.repeat(n);
      it('refuses an API name over 255 characters and a listen path over 500, naming the field', async () => {
        const name = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi(long(256), '/long-name', upstream.url),
        });
        assert.equal(name.status, 400);
        assert.deepEqual(name.json, envelope('name is longer than 255 characters'));
        const path = await gw('/apis', {
          method: 'POST',
          body: { ...keylessApi('long path', `/${long(500)}`, upstream.url).api_definition, api_id: 'long-path' },
        });
        assert.equal(path.status, 400);
        assert.deepEqual(path.json, { status: 'error', message: 'proxy.listen_path is longer than 500 characters' });
        assert.equal(
          (await api(acme, '/apis', { method: 'POST', body: keylessApi('é'.repeat(255), '/accents', upstream.url) }))
            .status,
          200,
          'characters, not bytes, count',
        );
      });

      it('refuses a custom key or basic-auth username over 255 characters and an org_id over 64 on /gw', async () => {
        const customKey = await gw(`/keys/${long(256)}`, { method: 'POST', body: { access_rights: {} } });
        assert.equal(customKey.status, 400);
        assert.deepEqual(customKey.json, { status: 'error', message: 'key is longer than 255 characters' });
        const username = await gw(`/keys/${long(256)}`, {
          method: 'POST',
          body: { access_rights: {}, basic_auth_data: { password: 'secret' } },
        });
        assert.deepEqual(username.json, { status: 'error', message: 'username is longer than 255 characters' });
        const keyOrg = await gw('/keys', { method: 'POST', body: { access_rights: {}, org_id: long(65) } });
        assert.deepEqual(keyOrg.json, { status: 'error', message: 'org_id is longer than 64 characters' });
        const policyOrg = await gw('/policies', { method: 'POST', body: { name: 'p', org_id: long(65) } });
        assert.equal(policyOrg.status, 400);
        assert.match(policyOrg.json.message, /'policy.org_id' field length must be less than or equal to 64/);
      });

      it('refuses an organisation owner_name over 255 characters on create and update, naming the field', async () => {
        const created = await admin('/organisations', { method: 'POST', body: { owner_name: long(300) } });
        assert.equal(created.status, 400, created.text);
        assert.deepEqual(created.json, envelope('owner_name is longer than 255 characters'));
        const updated = await admin(`/organisations/${acme.orgId}`, { method: 'PUT', body: { owner_name: long(256) } });
        assert.equal(updated.status, 400, updated.text);
        assert.deepEqual(updated.json, envelope('owner_name is longer than 255 characters'));
        assert.equal((await admin(`/organisations/${acme.orgId}`)).json.owner_name, 'Acme', 'nothing was stored');
      });

      it('refuses user names and e-mail addresses over 255 characters on /api and /admin, naming the field', async () => {
        const user = (extra: Record<string, unknown>) => ({
          first_name: 'A',
          last_name: 'B',
          email_address: `u${Math.random().toString(36).slice(2)}@example.com`,
          password: 'correct horse',
          ...extra,
        });
        const cases: Array<[string, ReturnType<typeof http>]> = [
          [
            'first_name is longer than 255 characters',
            api(acme, '/users', { method: 'POST', body: user({ first_name: long(256) }) }),
          ],
          [
            'last_name is longer than 255 characters',
            admin('/users', { method: 'POST', body: user({ last_name: long(256), org_id: acme.orgId }) }),
          ],
          [
            'email_address is longer than 255 characters',
            api(acme, '/users', { method: 'POST', body: user({ email_address: `${long(250)}@example.com` }) }),
          ],
          [
            'first_name is longer than 255 characters',
            api(acme, `/users/${acme.userId}`, { method: 'PUT', body: { first_name: long(256) } }),
          ],
          [
            'user_permissions is longer than 65535 bytes',
            api(acme, `/users/${acme.userId}`, {
              method: 'PUT',
              body: {
                user_permissions: Object.fromEntries(
                  Array.from({ length: 3000 }, (_, i) => [`permission-${long(20)}-${i}`, 'read']),
                ),
              },
            }),
          ],
        ];
        for (const [message, pending] of cases) {
          const res = await pending;
          assert.equal(res.status, 400, message);
          assert.deepEqual(res.json, envelope(message));
        }
        const users = (await api(acme, '/users')).json.users as Array<{ first_name: string }>;
        assert.ok(
          users.every((u) => u.first_name.length <= 255),
          'nothing was stored',
        );
      });

      it('refuses a user group name over 255 characters and a description over 65535 bytes, naming the field', async () => {
        const name = await api(acme, '/usergroups', { method: 'POST', body: { name: long(256) } });
        assert.equal(name.status, 400, name.text);
        assert.deepEqual(name.json, envelope('name is longer than 255 characters'));
        const description = await api(acme, '/usergroups', {
          method: 'POST',
          body: { name: 'Readers', description: 'é'.repeat(40_000) },
        });
        assert.equal(description.status, 400, description.text);
        assert.deepEqual(description.json, envelope('description is longer than 65535 bytes'));
        const group = await api(acme, '/usergroups', {
          method: 'POST',
          body: { name: 'é'.repeat(255), description: 'é'.repeat(30_000) },
        });
        assert.equal(
          group.status,
          200,
          `characters, not bytes, count for name; 60000 bytes fit a TEXT column: ${group.text}`,
        );
        const renamed = await api(acme, `/usergroups/${group.json.Meta}`, { method: 'PUT', body: { name: long(256) } });
        assert.equal(renamed.status, 400, renamed.text);
        assert.deepEqual(renamed.json, envelope('name is longer than 255 characters'));
      });

      it('refuses a single sign-on e-mail address over 255 characters, naming the field', async () => {
        const res = await api(acme, '/sso', {
          method: 'POST',
          body: { ForSection: 'dashboard', OrgID: acme.orgId, EmailAddress: `${long(250)}@example.com` },
        });
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json, envelope('EmailAddress is longer than 255 characters'));
      });
    });

    describe('bodies nested too deeply', () => {
      for (const levels of [101, 50_000]) {
        it(`refuses ${levels} levels with 400 on /api, /admin and /gw`, async () => {
          const message = 'Request body nests objects or arrays more than 100 levels deep';
          const headers = { 'content-type': 'application/json' };
          const dashboard = await http(`${node.dashboardUrl}/api/apis`, {
            method: 'POST',
            headers: { ...acme.headers, ...headers },
            body: nested(levels),
          });
          assert.equal(dashboard.status, 400);
          assert.deepEqual(dashboard.json, envelope(message));
          const adminRes = await http(`${node.dashboardUrl}/admin/organisations`, {
            method: 'POST',
            headers: { ...node.adminHeaders, ...headers },
            body: nested(levels),
          });
          assert.deepEqual(adminRes.json, envelope(message));
          const gateway = await http(`${node.gatewayUrl}/gw/policies`, {
            method: 'POST',
            headers: { ...node.gwHeaders, ...headers },
            body: nested(levels),
          });
          assert.equal(gateway.status, 400);
          assert.deepEqual(gateway.json, { status: 'error', message });
        });
      }

      it('still accepts 100 levels, and brackets inside strings do not count', async () => {
        const deep = JSON.parse(nested(97));
        const res = await gw('/policies', {
          method: 'POST',
          body: { id: 'deep', name: '[[[[{{{{'.repeat(50), meta_data: deep },
        });
        assert.equal(res.status, 200, res.text);
      });
    });

    describe('pages, unknown paths, errors across the edge', () => {
      for (const p of ['99999999', '99999999999999999999999', `9${'9'.repeat(400)}`]) {
        it(`answers an empty page for p=${p.length > 30 ? `${p.slice(0, 10)}…` : p}`, async () => {
          const apis = await api(acme, `/apis?p=${p}`);
          assert.equal(apis.status, 200, apis.text);
          assert.deepEqual(apis.json.apis, []);
          const policies = await api(acme, `/portal/policies?p=${p}`);
          assert.equal(policies.status, 200, policies.text);
          assert.deepEqual(policies.json.policies, []);
          const orgs = await admin(`/organisations?p=${p}`);
          assert.equal(orgs.status, 200, orgs.text);
          assert.deepEqual(orgs.json.organisations, []);
        });
      }

      for (const path of ['/nothing-here', '/api', '/adminx/users']) {
        it(`answers a JSON 404 envelope for an unknown path on the dashboard port: ${path}`, async () => {
          const res = await http(`${node.dashboardUrl}${path}`, { method: 'POST' });
          assert.equal(res.status, 404);
          assert.match(res.headers.get('content-type')!, /^application\/json/);
          assert.deepEqual(res.json, envelope(`No such endpoint: POST ${path}`));
        });
      }

      it('keeps a failed schema sync a 502 with its message', async () => {
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: graphqlApi('unreachable', '/unreachable', { schema: SDL }),
        });
        assert.equal(created.status, 200, created.text);
        const res = await api(acme, `/apis/${created.json.Meta}/graphql/schema/sync`, { method: 'POST', body: {} });
        assert.equal(res.status, 502, res.text);
        assert.equal(res.json.Status, 'Error');
        assert.match(res.json.Message, /^Could not reach the GraphQL upstream http:\/\/127\.0\.0\.1:9\/graphql: /);
      });
    });

    describe('POST /gw/keys/create', () => {
      it('creates a key with a generated id, as the reference gateway does', async () => {
        const res = await gw('/keys/create', { method: 'POST', body: { access_rights: {}, org_id: acme.orgId } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.json).sort(), ['action', 'key', 'key_hash', 'status']);
        assert.equal(res.json.status, 'ok');
        assert.equal(res.json.action, 'added');
        assert.notEqual(res.json.key, 'create');
        assert.ok(res.json.key.startsWith(acme.orgId), res.json.key);
        assert.equal((await gw(`/keys/${res.json.key}`)).status, 200);
        assert.equal((await gw('/keys/create')).status, 404, 'no key is named "create"');
      });
    });
  });
}
