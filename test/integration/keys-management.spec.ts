import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';

for (const store of STORE_VARIANTS) {
  describe(`keys and policies on the management APIs (${store.name})`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    let apiId: string;
    let apiInternalId: string;
    const api = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const session = (extra: Record<string, unknown> = {}) => ({
      rate: 100,
      per: 60,
      expires: 0,
      quota_max: -1,
      access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
      ...extra,
    });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-keys-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
      const created = await api(acme, '/apis', {
        method: 'POST',
        body: keylessApi('Orders', '/orders', 'http://127.0.0.1:9', { use_keyless: false }),
      });
      apiInternalId = created.json.Meta;
      apiId = created.json.ID;
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    describe('dashboard keys', () => {
      let key: string;
      let keyHash: string;

      it('creates a key with a generated id, shown once with its hash', async () => {
        const res = await api(acme, '/keys', { method: 'POST', body: session() });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.json).sort(), ['api_model', 'data', 'key_hash', 'key_id']);
        key = res.json.key_id;
        keyHash = res.json.key_hash;
        assert.ok(key.startsWith(acme.orgId), 'generated keys start with the organisation id');
        assert.match(keyHash, /^[0-9a-f]{64}$/);
        assert.equal(res.json.data.org_id, acme.orgId);
        assert.equal(res.json.data.access_rights[apiId].api_name, 'Orders');
        assert.equal(res.json.data.allowance, 100);
      });

      it('stores only the hash of the key', async () => {
        const rows = await node.runtime.database()('keys').select('key_hash', 'key_id', 'session');
        assert.ok(rows.some((row: { key_hash: string }) => row.key_hash === keyHash));
        assert.ok(
          rows.every(
            (row: { key_id: string | null; session: string }) => row.key_id === null && !row.session.includes(key),
          ),
        );
      });

      for (const by of ['key', 'hash'] as const) {
        it(`reads the key by its ${by} through either API id`, async () => {
          for (const id of [apiId, apiInternalId]) {
            const res = await api(acme, `/apis/${id}/keys/${by === 'key' ? key : keyHash}`);
            assert.equal(res.status, 200, res.text);
            assert.deepEqual(Object.keys(res.json).sort(), ['api_model', 'data', 'key_id']);
            assert.equal(res.json.data.rate, 100);
          }
        });
      }

      it('says hashed keys can not be listed', async () => {
        const res = await api(acme, `/apis/${apiId}/keys`);
        assert.equal(res.status, 400);
        assert.match(res.json.Message, /^Keys are hashed, so they can not be listed/);
      });

      it('updates the key (Message "Key updated") and deletes it (Message "Key deleted succesfully")', async () => {
        const updated = await api(acme, `/apis/${apiId}/keys/${key}`, { method: 'PUT', body: session({ rate: 7 }) });
        assert.deepEqual(updated.json, { Status: 'OK', Message: 'Key updated', Meta: null });
        assert.equal((await api(acme, `/apis/${apiId}/keys/${keyHash}`)).json.data.rate, 7);
        const deleted = await api(acme, `/apis/${apiId}/keys/${key}`, { method: 'DELETE' });
        assert.deepEqual(deleted.json, { Status: 'OK', Message: 'Key deleted succesfully', Meta: null });
        const gone = await api(acme, `/apis/${apiId}/keys/${key}`);
        assert.equal(gone.status, 404);
        assert.equal(gone.json.Message, 'Key not found');
      });

      it('creates a custom key, and refuses the same key twice', async () => {
        const res = await api(acme, '/keys/my-custom-key-123', { method: 'POST', body: session() });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.key_id, 'my-custom-key-123');
        assert.match(res.json.key_hash, /^[0-9a-f]{64}$/);
        const again = await api(acme, '/keys/my-custom-key-123', { method: 'POST', body: session() });
        assert.equal(again.status, 400);
        assert.equal(again.json.Message, 'Key already exists');
      });

      const refused: Array<[string, () => Record<string, unknown>, RegExp]> = [
        [
          'without access_rights, even with a policy',
          () => ({ rate: 1, per: 1, apply_policies: ['x'] }),
          /access_rights is required when creating a key, even when apply_policies is set/,
        ],
        [
          'naming an unknown policy',
          () => session({ apply_policies: ['no-such-policy'] }),
          /apply_policies names a policy that does not exist: no-such-policy/,
        ],
        [
          'naming an API that does not exist',
          () => ({ access_rights: { 'no-such-api': { api_id: 'no-such-api' } } }),
          /access_rights names an API that does not exist: no-such-api/,
        ],
        [
          'in another organisation',
          () => session({ org_id: 'someone-else' }),
          /org_id 'someone-else' is not your organisation/,
        ],
        [
          'with a rate that is not a number',
          () => session({ rate: 'fast' }),
          /The 'session\.rate' field must be a number/,
        ],
      ];
      for (const [what, body, message] of refused) {
        it(`refuses a key ${what} with 400`, async () => {
          const res = await api(acme, '/keys', { method: 'POST', body: body() });
          assert.equal(res.status, 400, res.text);
          assert.match(res.json.Message, message);
        });
      }

      it("does not let another organisation use this organisation's API or keys", async () => {
        assert.equal((await api(globex, '/keys', { method: 'POST', body: session() })).status, 400);
        const created = await api(acme, '/keys', { method: 'POST', body: session() });
        assert.equal((await api(globex, `/apis/${apiId}/keys/${created.json.key_id}`)).status, 404);
      });
    });

    describe('basic-auth users', () => {
      it('creates a user whose password is stored hashed and returned empty', async () => {
        const res = await api(acme, '/apis/keys/basic/alice', {
          method: 'POST',
          body: session({ basic_auth_data: { password: 'wonderland' } }),
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.json).sort(), ['api_model', 'data', 'key_id']);
        assert.equal(res.json.key_id, 'alice');
        assert.equal(res.json.data.basic_auth_data.password, '');
        const rows = await node.runtime
          .database()('keys')
          .where('username', 'alice')
          .select('password_hash', 'session');
        assert.match(rows[0].password_hash, /^scrypt\$/);
        assert.ok(!rows[0].session.includes('wonderland'));
        assert.equal((await api(acme, `/apis/${apiId}/keys/alice`)).json.data.basic_auth_data.password, '');
      });

      it('refuses the same username twice, and a new user without a password', async () => {
        assert.equal(
          (
            await api(acme, '/apis/keys/basic/alice', {
              method: 'POST',
              body: session({ basic_auth_data: { password: 'x' } }),
            })
          ).status,
          400,
        );
        const noPassword = await api(acme, '/apis/keys/basic/bob', { method: 'POST', body: session() });
        assert.equal(noPassword.status, 400);
        assert.equal(noPassword.json.Message, 'basic_auth_data.password is required to create a basic auth user');
      });

      it('updates a user with PUT', async () => {
        const res = await api(acme, '/apis/keys/basic/alice', {
          method: 'PUT',
          body: session({ rate: 3, basic_auth_data: { password: 'new password' } }),
        });
        assert.deepEqual(res.json, { Status: 'OK', Message: 'Key updated', Meta: null });
        assert.equal((await api(acme, `/apis/${apiId}/keys/alice`)).json.data.rate, 3);
        assert.equal((await api(acme, '/apis/keys/basic/nobody', { method: 'PUT', body: session() })).status, 404);
      });
    });

    describe('policy expiry', () => {
      it("dates a new key from a policy's key_expires_in, and leaves an existing key's expiry alone", async () => {
        const policy = await api(acme, '/portal/policies/', {
          method: 'POST',
          body: {
            name: 'Trial',
            rate: 10,
            per: 1,
            key_expires_in: 3600,
            access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
          },
        });
        assert.equal(policy.status, 200, policy.text);
        const before = Math.floor(Date.now() / 1000);
        const created = await api(acme, '/keys', {
          method: 'POST',
          body: session({ expires: 0, apply_policies: [policy.json.Meta] }),
        });
        assert.equal(created.status, 200, created.text);
        const read = async () => (await api(acme, `/apis/${apiId}/keys/${created.json.key_id}`)).json.data.expires;
        const expires = (await read()) as number;
        assert.ok(expires >= before + 3600 && expires <= Math.floor(Date.now() / 1000) + 3600, String(expires));
        const updated = await api(acme, `/apis/${apiId}/keys/${created.json.key_id}`, {
          method: 'PUT',
          body: session({ expires: 0, apply_policies: [policy.json.Meta] }),
        });
        assert.equal(updated.status, 200, updated.text);
        assert.equal(await read(), 0);
        await api(acme, `/apis/${apiId}/keys/${created.json.key_id}`, { method: 'DELETE' });
        const removed = await api(acme, `/portal/policies/${policy.json.Meta}`, { method: 'DELETE' });
        assert.equal(removed.status, 200, removed.text);
      });
    });

    describe('dashboard policies', () => {
      let policyId: string;

      it('creates, reads, lists, updates and deletes a policy', async () => {
        const created = await api(acme, '/portal/policies/', {
          method: 'POST',
          body: {
            name: 'Gold',
            rate: 50,
            per: 1,
            access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
            tags: ['gold'],
          },
        });
        assert.equal(created.status, 200, created.text);
        assert.equal(created.json.Message, 'Policy created');
        policyId = created.json.Meta;
        const fetched = await api(acme, `/portal/policies/${policyId}`);
        assert.equal(fetched.json.name, 'Gold');
        assert.equal(fetched.json.org_id, acme.orgId);
        assert.deepEqual(
          [
            fetched.json.throttle_interval,
            fetched.json.throttle_retry_limit,
            fetched.json.quota_max,
            fetched.json.active,
          ],
          [-1, -1, -1, true],
        );
        const listed = await api(acme, '/portal/policies');
        assert.deepEqual(
          listed.json.policies.map((p: { id: string }) => p.id),
          [policyId],
        );
        assert.equal(listed.json.pages, 1);
        assert.equal((await api(globex, `/portal/policies/${policyId}`)).status, 404);

        const updated = await api(acme, `/portal/policies/${policyId}`, {
          method: 'PUT',
          body: { ...fetched.json, rate: 60 },
        });
        assert.equal(updated.json.Message, 'Policy updated');
        assert.equal((await api(acme, `/portal/policies/${policyId}`)).json.rate, 60);
      });

      it('applies the policy to a key created with it', async () => {
        const res = await api(acme, '/keys', { method: 'POST', body: session({ apply_policies: [policyId] }) });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json.data.apply_policies, [policyId]);
      });

      it('refuses a per-API limit whose numbers are not numbers, naming the field', async () => {
        const body = {
          name: 'Metered',
          rate: 50,
          per: 1,
          access_rights: {
            [apiId]: { api_id: apiId, versions: ['Default'], limit: { rate: 10, per: 60, quota_max: 'two' } },
          },
        };
        const refused = await api(acme, '/portal/policies/', { method: 'POST', body });
        assert.equal(refused.status, 400, refused.text);
        assert.match(
          JSON.stringify(refused.json),
          new RegExp(`The 'policy\\.access_rights\\.${apiId}\\.limit\\.quota_max' field must be a number`),
        );
        const negative = await api(acme, '/portal/policies/', {
          method: 'POST',
          body: { ...body, access_rights: { [apiId]: { api_id: apiId, limit: { rate: -1, per: 60 } } } },
        });
        assert.equal(negative.status, 400, negative.text);
      });

      it('deletes the policy', async () => {
        assert.equal(
          (await api(acme, `/portal/policies/${policyId}`, { method: 'DELETE' })).json.Message,
          'Policy deleted',
        );
        assert.equal((await api(acme, `/portal/policies/${policyId}`)).status, 404);
      });
    });

    describe('gateway API keys and policies (/gw/keys, /gw/policies)', () => {
      it('creates, reads, modifies and deletes a key, answering {key, status, action, key_hash}', async () => {
        const created = await gw('/keys', { method: 'POST', body: session() });
        assert.equal(created.json.status, 'ok');
        assert.equal(created.json.action, 'added');
        assert.match(created.json.key_hash, /^[0-9a-f]{64}$/);
        const key = created.json.key;
        assert.equal((await gw(`/keys/${key}`)).json.rate, 100);
        const modified = await gw(`/keys/${key}`, { method: 'PUT', body: session({ rate: 9 }) });
        assert.deepEqual(modified.json, { key, status: 'ok', action: 'modified', key_hash: created.json.key_hash });
        assert.equal((await gw(`/keys/${created.json.key_hash}`)).json.rate, 9);
        assert.deepEqual((await gw(`/keys/${key}`, { method: 'DELETE' })).json, {
          key,
          status: 'ok',
          action: 'deleted',
        });
        assert.equal((await gw(`/keys/${key}`)).status, 404);
      });

      it('creates a custom key, and a basic-auth user when the body has a password', async () => {
        const custom = await gw('/keys/gw-custom-key', { method: 'POST', body: session() });
        assert.equal(custom.json.key, 'gw-custom-key');
        const basic = await gw('/keys/carol', {
          method: 'POST',
          body: session({ org_id: acme.orgId, basic_auth_data: { password: 'pw' } }),
        });
        assert.equal(basic.json.action, 'added');
        assert.equal(basic.json.key, `${acme.orgId}carol`);
        assert.equal((await gw(`/keys/${acme.orgId}carol`)).json.basic_auth_data.password, '');
        const updated = await gw('/keys/carol', {
          method: 'PUT',
          body: session({ org_id: acme.orgId, basic_auth_data: { password: 'pw2' } }),
        });
        assert.equal(updated.json.action, 'modified');
      });

      it('manages policies', async () => {
        const created = await gw('/policies', {
          method: 'POST',
          body: { id: 'gw-policy', name: 'GW policy', rate: 5, per: 1, access_rights: {} },
        });
        assert.deepEqual(created.json, { key: 'gw-policy', status: 'ok', action: 'added' });
        assert.equal((await gw('/policies/gw-policy')).json.rate, 5);
        assert.ok((await gw('/policies')).json.some((p: { id: string }) => p.id === 'gw-policy'));
        assert.deepEqual(
          (await gw('/policies/gw-policy', { method: 'PUT', body: { name: 'GW policy', rate: 6, per: 1 } })).json,
          { key: 'gw-policy', status: 'ok', action: 'modified' },
        );
        assert.deepEqual((await gw('/policies/gw-policy', { method: 'DELETE' })).json, {
          key: 'gw-policy',
          status: 'ok',
          action: 'deleted',
        });
        assert.equal((await gw('/policies/gw-policy')).status, 404);
      });

      it('answers an unknown policy as the reference gateway does (gateway/api.go handleGetPolicy)', async () => {
        const res = await gw('/policies/no-such-policy');
        assert.equal(res.status, 404);
        assert.deepEqual(res.json, { status: 'error', message: 'Policy not found' });
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      });

      it('refuses to list keys while they are hashed, with the documented 404', async () => {
        const res = await gw('/keys');
        assert.equal(res.status, 404);
        assert.deepEqual(res.json, {
          status: 'error',
          message: 'Hashed key listing is disabled in config (enable_hashed_keys_listing)',
        });
      });
    });
  });
}

describe('key lists with hashing off', () => {
  let node: TestNode;
  let tenant: Tenant;
  before(async () => {
    node = await startTestNode({ hashKeys: false });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('lists the keys of an API as {data: {keys}, pages}', async () => {
    const created = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: tenant.headers,
      body: keylessApi('Listed', '/listed', 'http://127.0.0.1:9', { use_keyless: false }),
    });
    const apiId = created.json.ID;
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await http(`${node.dashboardUrl}/api/keys`, {
        method: 'POST',
        headers: tenant.headers,
        body: { access_rights: { [apiId]: { api_id: apiId } } },
      });
      keys.push(res.json.key_id);
    }
    const listed = await http(`${node.dashboardUrl}/api/apis/${apiId}/keys`, { headers: tenant.headers });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.json, { data: { keys }, pages: 1 });
  });
});
