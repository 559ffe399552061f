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
          "The 'api_definition.proxy.target_url' field must be an absolute http:// or https:// URL.",
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
  });
