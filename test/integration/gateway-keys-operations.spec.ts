import { strict as assert } from 'node:assert';
import { hash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, type HttpOptions } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

/** Two tenants, each with one API that takes keys, on a node of its own. */
async function setUp(node: TestNode, upstreamUrl: string) {
  const tenants: Tenant[] = [];
  const apis: string[] = [];
  for (const [name, path] of [
    ['Acme', '/acme'],
    ['Globex', '/globex'],
  ]) {
    const tenant = await createTenant(node.dashboardUrl, node.adminHeaders, name);
    const created = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: tenant.headers,
      body: keylessApi(`${name} orders`, path, upstreamUrl, { use_keyless: false }),
    });
    assert.equal(created.status, 200, created.text);
    tenants.push(tenant);
    apis.push(created.json.ID);
  }
  return { tenants, apis };
}

describe('/gw key operations: preview, policy, hashed lookups, suppress_reset (hashed keys)', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;
  let acmeApi: string;
  let globexApi: string;
  const gw = (path: string, options: HttpOptions = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: { ...node.gwHeaders, ...(options.headers ?? {}) } });
  const through = (key: string) => http(`${node.gatewayUrl}/acme/anything`, { headers: { authorization: key } });
  const session = (extra: Record<string, unknown> = {}) => ({
    org_id: acme.orgId,
    rate: 1000,
    per: 1,
    expires: 0,
    quota_max: -1,
    access_rights: { [acmeApi]: { api_id: acmeApi, versions: ['Default'] } },
    ...extra,
  });
  const newKey = async (extra: Record<string, unknown> = {}) => {
    const res = await gw('/keys', { method: 'POST', body: session(extra) });
    assert.equal(res.status, 200, res.text);
    return { key: res.json.key as string, hash: res.json.key_hash as string };
  };
  const newPolicy = async (extra: Record<string, unknown>) => {
    const res = await gw('/policies', {
      method: 'POST',
      body: {
        name: 'p',
        org_id: acme.orgId,
        rate: 1000,
        per: 1,
        quota_max: -1,
        access_rights: { [acmeApi]: { api_id: acmeApi, versions: ['Default'] } },
        ...extra,
      },
    });
    assert.equal(res.status, 200, res.text);
    return res.json.key as string;
  };
  const storedKeys = async () => Number((await node.runtime.database()('keys').count({ total: '*' }))[0].total);

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    const { tenants, apis } = await setUp(node, upstream.url);
    [acme] = tenants;
    [acmeApi, globexApi] = apis;
    await eventually(async () => assert.equal((await through('no-such-key-0123456789')).status, 403), 5000);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  describe('POST /gw/keys/preview', () => {
    it('answers the session with its policies applied, and stores nothing', async () => {
      const policy = await newPolicy({ rate: 7, per: 2, quota_max: 50, tags: ['from-policy'] });
      const before = await storedKeys();
      const res = await gw('/keys/preview', { method: 'POST', body: session({ apply_policies: [policy] }) });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.rate, 7);
      assert.equal(res.json.per, 2);
      assert.equal(res.json.quota_max, 50);
      assert.deepEqual(res.json.apply_policies, [policy]);
      assert.ok(res.json.tags.includes('from-policy'));
      assert.equal(res.json.access_rights[acmeApi].api_id, acmeApi);
      assert.equal(res.json.org_id, acme.orgId);
      assert.equal(await storedKeys(), before);
    });

    it('refuses a definition a creation would refuse, and a body that is not JSON', async () => {
      const unknownPolicy = await gw('/keys/preview', {
        method: 'POST',
        body: session({ apply_policies: ['no-such-policy'] }),
      });
      assert.equal(unknownPolicy.status, 400);
      assert.equal(unknownPolicy.json.status, 'error');
      const unknownApi = await gw('/keys/preview', {
        method: 'POST',
        body: session({ access_rights: { nope: { api_id: 'nope', versions: [] } } }),
      });
      assert.equal(unknownApi.status, 400);
      const garbled = await gw('/keys/preview', {
        method: 'POST',
        body: '[1,2',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(garbled.status, 500);
      assert.equal(garbled.json.status, 'error');
      assert.match(garbled.json.message, /^Unmarshalling failed: /);
      assert.equal((await http(`${node.gatewayUrl}/gw/keys/preview`, { method: 'POST', body: session() })).status, 403);
    });
  });

  describe('POST /gw/keys/create', () => {
    it('answers a body that is not JSON with the documented 500', async () => {
      const before = await storedKeys();
      const res = await gw('/keys/create', {
        method: 'POST',
        body: '{"rate":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 500);
      assert.equal(res.json.status, 'error');
      assert.match(res.json.message, /^Unmarshalling failed: /);
      assert.equal(await storedKeys(), before);
    });
  });

  describe('POST /gw/keys/policy/{keyID}', () => {
    it('applies policies to a key named by its hash: shown in GET and enforced through the proxy', async () => {
      const { key, hash: keyHash } = await newKey();
      const policy = await newPolicy({ quota_max: 1, quota_renewal_rate: 3600 });
      const res = await gw(`/keys/policy/${keyHash}`, { method: 'POST', body: { apply_policies: [policy] } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { key: keyHash, status: 'ok', action: 'updated' });
      const got = await gw(`/keys/${keyHash}?hashed=true`);
      assert.deepEqual(got.json.apply_policies, [policy]);
      assert.equal(got.json.quota_max, 1, 'GET shows the key as its policies make it');
      await eventually(async () => {
        const first = await through(key);
        assert.equal(first.status, 200);
        const second = await through(key);
        assert.equal(second.status, 403);
        assert.deepEqual(second.json, { error: 'Quota exceeded' });
      }, 5000);
      assert.equal((await gw(`/keys/${keyHash}?hashed=true`)).json.quota_remaining, 0, 'with the live quota');
    });

    it('takes `policy` as well as `apply_policies`, and an empty list removes them', async () => {
      const { key, hash: keyHash } = await newKey();
      const inactive = await newPolicy({ is_inactive: true });
      const res = await gw(`/keys/policy/${key}`, { method: 'POST', body: { policy: inactive } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual((await gw(`/keys/${keyHash}?hashed=true`)).json.apply_policies, [inactive]);
      await eventually(async () => assert.equal((await through(key)).status, 403), 5000);
      await gw(`/keys/policy/${keyHash}`, { method: 'POST', body: { apply_policies: null } });
      assert.deepEqual((await gw(`/keys/${keyHash}?hashed=true`)).json.apply_policies, []);
      await eventually(async () => assert.equal((await through(key)).status, 200), 5000);
    });

    it('answers 404 for an unknown key, 400 for a body it can not read or an unknown policy', async () => {
      const unknown = await gw(`/keys/policy/${'0'.repeat(64)}`, { method: 'POST', body: { apply_policies: [] } });
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.json, { status: 'error', message: 'Key not found' });
      const { hash: keyHash } = await newKey();
      for (const body of ['not json', { apply_policies: 'p' }, { policy: 5 }]) {
        const res = await gw(`/keys/policy/${keyHash}`, {
          method: 'POST',
          body,
          headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
        });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.status, 'error');
        assert.match(res.json.message, /^Couldn't decode instruction/);
      }
      const noPolicy = await gw(`/keys/policy/${keyHash}`, {
        method: 'POST',
        body: { apply_policies: ['no-such-policy'] },
      });
      assert.equal(noPolicy.status, 400);
      assert.deepEqual((await gw(`/keys/${keyHash}?hashed=true`)).json.apply_policies, [], 'nothing was stored');
    });
  });

  describe('?hashed=true', () => {
    it('reads, updates and deletes a key by its hash only', async () => {
      const { key, hash: keyHash } = await newKey();
      assert.equal((await gw(`/keys/${keyHash}?hashed=true`)).status, 200);
      const byKey = await gw(`/keys/${key}?hashed=true`);
      assert.equal(byKey.status, 404, 'with hashed=true the path is the hash');
      assert.deepEqual(byKey.json, { status: 'error', message: 'Key not found' });

      const updated = await gw(`/keys/${keyHash}?hashed=true`, { method: 'PUT', body: session({ rate: 5 }) });
      assert.equal(updated.status, 200, updated.text);
      assert.equal((await gw(`/keys/${keyHash}?hashed=true`)).json.rate, 5);

      assert.equal((await gw(`/keys/${key}?hashed=true`, { method: 'DELETE' })).status, 404);
      const deleted = await gw(`/keys/${keyHash}?hashed=true`, { method: 'DELETE' });
      assert.equal(deleted.status, 200, deleted.text);
      assert.deepEqual(deleted.json, { key: keyHash, status: 'ok', action: 'deleted' });
      await eventually(async () => assert.equal((await through(key)).status, 403), 5000);
      const again = await gw(`/keys/${keyHash}?hashed=true`, { method: 'DELETE' });
      assert.equal(again.status, 404);
      assert.deepEqual(again.json, { status: 'error', message: 'There is no such key found' });
    });

    it('imports a key by its hash on POST: the gateway never sees the key, which then works', async () => {
      const key = `${acme.orgId}imported-key-0001`;
      const keyHash = hash('sha256', key, 'hex');
      const res = await gw(`/keys/${keyHash}?hashed=true`, { method: 'POST', body: session() });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { key: keyHash, status: 'ok', action: 'added', key_hash: keyHash });
      await eventually(async () => assert.equal((await through(key)).status, 200), 5000);
      const notAHash = await gw('/keys/not-a-hash?hashed=true', { method: 'POST', body: session() });
      assert.equal(notAHash.status, 400);
    });
  });

  describe('?api_id= on a single key', () => {
    it("looks the key up in that API's organisation", async () => {
      const { key } = await newKey();
      assert.equal((await gw(`/keys/${key}?api_id=${acmeApi}`)).status, 200);
      assert.equal((await gw(`/keys/${key}?api_id=${globexApi}`)).status, 404);
      assert.equal((await gw(`/keys/${key}?api_id=${globexApi}`, { method: 'DELETE' })).status, 404);
      assert.equal((await through(key)).status, 200, 'a refused delete deletes nothing');
      assert.equal((await gw(`/keys/${key}?api_id=-1`, { method: 'DELETE' })).status, 200);
    });
  });

  describe('?suppress_reset=1 on PUT', () => {
    it('keeps the quota spent; an update without it starts the quota afresh', async () => {
      const body = session({ quota_max: 1, quota_renewal_rate: 3600 });
      const { key, hash: keyHash } = await newKey(body);
      await eventually(async () => assert.equal((await through(key)).status, 200), 5000);
      assert.equal((await through(key)).status, 403);
      assert.equal((await gw(`/keys/${keyHash}`)).json.quota_remaining, 0);

      const kept = await gw(`/keys/${keyHash}?suppress_reset=1`, { method: 'PUT', body });
      assert.equal(kept.status, 200, kept.text);
      assert.equal((await gw(`/keys/${keyHash}`)).json.quota_remaining, 0);
      assert.equal((await through(key)).status, 403);

      const reset = await gw(`/keys/${keyHash}`, { method: 'PUT', body });
      assert.equal(reset.status, 200, reset.text);
      await eventually(async () => assert.equal((await gw(`/keys/${keyHash}`)).json.quota_remaining, 1), 5000);
      assert.equal((await through(key)).status, 200);
    });
  });

  describe('GET /gw/keys with hashed keys', () => {
    it('answers 404 while hashed key listing is disabled', async () => {
      const res = await gw('/keys');
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, {
        status: 'error',
        message: 'Hashed key listing is disabled in config (enable_hashed_keys_listing)',
      });
    });
  });
});

for (const store of STORE_VARIANTS) {
  describe(`/gw key operations with keys stored in the clear (${store.name})`, function () {
    this.timeout(60_000);
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let upstream: Upstream;
    let tenants: Tenant[];
    let apis: string[];
    const gw = (path: string, options: HttpOptions = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const keyOf = async (tenant: number, apiIds: number[]) => {
      const res = await gw('/keys', {
        method: 'POST',
        body: {
          org_id: tenants[tenant].orgId,
          rate: 100,
          per: 1,
          access_rights: Object.fromEntries(apiIds.map((i) => [apis[i], { api_id: apis[i], versions: ['Default'] }])),
        },
      });
      assert.equal(res.status, 200, res.text);
      return res.json.key as string;
    };

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-keys-clear-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      node = await startTestNode({ dataDir, databaseUrl: database.url, hashKeys: false });
      ({ tenants, apis } = await setUp(node, upstream.url));
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it('refuses to read a key by hash when keys are not hashed', async () => {
      const key = await keyOf(0, [0]);
      const res = await gw(`/keys/${hash('sha256', key, 'hex')}?hashed=true`);
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { status: 'error', message: 'Key requested by hash but key hashing is not enabled' });
      assert.equal((await gw(`/keys/${key}`)).status, 200);
    });

    it('lists keys by prefix (`filter`) and by API (`api_id`)', async () => {
      const acmeKey = await keyOf(0, [0]);
      const globexKey = await keyOf(1, [1]);
      const all = (await gw('/keys')).json.keys as string[];
      assert.ok(all.includes(acmeKey) && all.includes(globexKey));

      const acmeOnly = await gw(`/keys?filter=${tenants[0].orgId}`);
      assert.equal(acmeOnly.status, 200);
      assert.ok(acmeOnly.json.keys.includes(acmeKey));
      assert.ok(acmeOnly.json.keys.every((key: string) => key.startsWith(tenants[0].orgId)));

      const byApi = (await gw(`/keys?api_id=${apis[1]}`)).json.keys as string[];
      assert.ok(byApi.includes(globexKey));
      assert.ok(!byApi.includes(acmeKey));
      assert.deepEqual((await gw('/keys?filter=%25')).json.keys, [], 'a filter is a prefix, not a pattern');
    });
  });
}
