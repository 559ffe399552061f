import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';

/**
 * Ids are case-sensitive on every store: SQLite compares text byte by byte, and MySQL/MariaDB
 * must not fold `ABC` and `abc` together under a case-insensitive default collation.
 */
for (const store of STORE_VARIANTS) {
  describe(`store: ids that differ only in case name different things (${store.name})`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    const headers: Record<string, Record<string, string>> = {};
    const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/admin${path}`, { ...init, headers: node.adminHeaders });
    const dashboard = (org: string, path: string, init: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...init, headers: headers[org] });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-case-ids-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      for (const name of ['Acme', 'Globex'])
        headers[name] = (await createTenant(node.dashboardUrl, node.adminHeaders, name)).headers;
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it('creates two organisations whose ids differ only in case, each with its own user', async () => {
      for (const [id, name] of [
        ['CaseCo', 'Upper'],
        ['caseco', 'Lower'],
      ]) {
        const org = await admin('/organisations', { method: 'POST', body: { id, owner_name: name } });
        assert.equal(org.status, 200, org.text);
        assert.equal(org.json.Meta, id);
        const user = await admin('/users', {
          method: 'POST',
          body: {
            first_name: name,
            last_name: 'Admin',
            email_address: `admin@${name.toLowerCase()}.test`,
            org_id: id,
            password: 'correct horse',
            active: true,
          },
        });
        assert.equal(user.status, 200, user.text);
        headers[id] = { authorization: user.json.Meta.access_key as string };
      }
      assert.equal((await admin('/organisations/CaseCo')).json.owner_name, 'Upper');
      assert.equal((await admin('/organisations/caseco')).json.owner_name, 'Lower');
    });

    it('shows an organisation none of the users, APIs or policies of one whose id differs only in case', async () => {
      const api = await dashboard('CaseCo', '/apis', {
        method: 'POST',
        body: keylessApi('Upper api', '/upper-api', 'http://127.0.0.1:9'),
      });
      assert.equal(api.status, 200, api.text);
      const policy = await dashboard('CaseCo', '/portal/policies', {
        method: 'POST',
        body: { name: 'Upper policy', rate: 10, per: 1, quota_max: -1, access_rights: {} },
      });
      assert.equal(policy.status, 200, policy.text);
      assert.deepEqual((await dashboard('caseco', '/apis?p=0')).json.apis, []);
      assert.deepEqual((await dashboard('caseco', '/portal/policies?p=0')).json.policies, []);
      const users = await dashboard('caseco', '/users?p=0');
      assert.equal(users.status, 200, users.text);
      assert.deepEqual(
        users.json.users.map((u: { email_address: string }) => u.email_address),
        ['admin@lower.test'],
      );
    });

    it('keeps APIs whose api_ids differ only in case apart, each in its own organisation', async () => {
      // The dashboard generates ids on create; an update may name the api_id.
      for (const [org, apiId, path] of [
        ['Acme', 'Orders', '/acme-orders'],
        ['Globex', 'orders', '/globex-orders'],
      ]) {
        const created = await dashboard(org, '/apis', {
          method: 'POST',
          body: keylessApi(`${org} orders`, path, 'http://127.0.0.1:9'),
        });
        assert.equal(created.status, 200, created.text);
        const id = created.json.Meta as string;
        const renamed = await dashboard(org, `/apis/${id}`, {
          method: 'PUT',
          body: keylessApi(`${org} orders`, path, 'http://127.0.0.1:9', { id, api_id: apiId }),
        });
        assert.equal(renamed.status, 200, renamed.text);
      }
      for (const [org, apiId] of [
        ['Acme', 'Orders'],
        ['Globex', 'orders'],
      ]) {
        const list = await dashboard(org, '/apis?p=0');
        assert.equal(list.status, 200, list.text);
        assert.deepEqual(
          list.json.apis.map((a: { api_definition: { api_id: string; name: string } }) => [
            a.api_definition.api_id,
            a.api_definition.name,
          ]),
          [[apiId, `${org} orders`]],
        );
      }
    });

    it('keeps policies whose ids differ only in case apart, each in its own organisation', async () => {
      for (const [org, id] of [
        ['Acme', 'Gold'],
        ['Globex', 'gold'],
      ]) {
        const res = await dashboard(org, '/portal/policies', {
          method: 'POST',
          body: { id, name: `${org} gold`, rate: 10, per: 1, quota_max: -1, access_rights: {} },
        });
        assert.equal(res.status, 200, res.text);
      }
      for (const [org, id] of [
        ['Acme', 'Gold'],
        ['Globex', 'gold'],
      ]) {
        const own = await dashboard(org, `/portal/policies/${id}`);
        assert.equal(own.status, 200, own.text);
        assert.equal(own.json.name, `${org} gold`);
        const list = await dashboard(org, '/portal/policies?p=0');
        assert.deepEqual(
          list.json.policies.map((p: { name: string }) => p.name),
          [`${org} gold`],
        );
      }
    });
  });
}
