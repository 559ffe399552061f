import { strict as assert } from 'node:assert';
import type { GatewayEvent } from '../../contracts/events';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const INACTIVE = { error: 'this organisation access has been disabled, please contact your API administrator' };
const OVER_RATE = { error: 'This organisation rate limit has been exceeded, please contact your API administrator' };
const OVER_QUOTA = { error: 'This organisation quota has been exceeded, please contact your API administrator' };

/** One organisation with an API that wants keys, and two keys of it. */
interface OrgFixture {
  tenant: Tenant;
  path: string;
  apiId: string;
  keys: [string, string];
}

async function orgFixture(node: TestNode, upstream: Upstream, name: string): Promise<OrgFixture> {
  const tenant = await createTenant(node.dashboardUrl, node.adminHeaders, name);
  const dashboard = (path: string, body: unknown) =>
    http(`${node.dashboardUrl}/api${path}`, { method: 'POST', headers: tenant.headers, body });
  const path = `/${name.toLowerCase()}`;
  const api = await dashboard('/apis', keylessApi(name, path, upstream.url, { use_keyless: false }));
  assert.equal(api.status, 200, api.text);
  const key = async () => {
    const res = await dashboard('/keys', { access_rights: { [api.json.ID]: { api_id: api.json.ID } } });
    assert.equal(res.status, 200, res.text);
    return res.json.key_id as string;
  };
  return { tenant, path, apiId: api.json.ID as string, keys: [await key(), await key()] };
}

describe('organisation sessions (GW_ENFORCE_ORG_QUOTAS)', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  let acme: OrgFixture;
  let other: OrgFixture;
  const events: GatewayEvent[] = [];
  const gw = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: options.headers ?? node.gwHeaders });
  const call = (org: OrgFixture, key: string) =>
    http(`${node.gatewayUrl}${org.path}/a`, { headers: { authorization: key } });
  const statuses = async (org: OrgFixture, ...keys: string[]) => {
    const out: number[] = [];
    for (const key of keys) out.push((await call(org, key)).status);
    return out;
  };
  /**
   * Stores an organisation session and waits until the gateway enforces it: first inactive (a
   * refusal spends no counter), then as given; the request that sees it counts once.
   */
  const enforce = async (org: OrgFixture, session: Record<string, unknown>, query = '') => {
    const orgId = org.tenant.orgId;
    assert.equal(
      (await gw(`/org/keys/${orgId}`, { method: 'PUT', body: { ...session, is_inactive: true } })).status,
      200,
    );
    await eventually(async () => assert.deepEqual((await call(org, org.keys[0])).json, INACTIVE), 5000);
    const saved = await gw(`/org/keys/${orgId}${query}`, { method: 'PUT', body: session });
    assert.equal(saved.status, 200, saved.text);
    await eventually(async () => assert.equal((await call(org, org.keys[0])).status, 200), 5000);
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({ enforceOrgQuotas: true });
    node.broker.createService({
      name: 'event-recorder',
      events: {
        'gw.event.*'(ctx: { params: GatewayEvent }) {
          events.push(ctx.params);
        },
      },
    });
    await node.broker.waitForServices('event-recorder', 5000);
    acme = await orgFixture(node, upstream, 'Acme');
    other = await orgFixture(node, upstream, 'Other');
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  describe('the /gw/org/keys API', () => {
    it('answers 404 Org not found for an organisation without a session', async () => {
      const res = await gw(`/org/keys/${acme.tenant.orgId}`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, { status: 'error', message: 'Org not found' });
    });

    it('adds, shows, lists, modifies and deletes an organisation session', async () => {
      const orgId = acme.tenant.orgId;
      const added = await gw(`/org/keys/${orgId}`, {
        method: 'POST',
        body: { org_id: orgId, rate: 100, per: 60, quota_max: 1000, quota_renewal_rate: 3600 },
      });
      assert.equal(added.status, 200);
      assert.deepEqual(added.json, { key: orgId, status: 'ok', action: 'added' });

      const shown = await gw(`/org/keys/${orgId}`);
      assert.equal(shown.status, 200);
      assert.equal(shown.json.rate, 100);
      assert.equal(shown.json.per, 60);
      assert.equal(shown.json.quota_max, 1000);
      assert.equal(shown.json.quota_remaining, 1000);
      assert.match(shown.json.last_updated, /^\d+$/);

      const listed = await gw('/org/keys');
      assert.deepEqual(listed.json, { keys: [orgId] });
      assert.deepEqual((await gw(`/org/keys?filter=${orgId.slice(0, 4)}*`)).json, { keys: [orgId] });
      assert.deepEqual((await gw('/org/keys?filter=zzz')).json, { keys: [] });

      const modified = await gw(`/org/keys/${orgId}`, { method: 'PUT', body: { rate: 5, per: 1 } });
      assert.deepEqual(modified.json, { key: orgId, status: 'ok', action: 'modified' });
      assert.equal((await gw(`/org/keys/${orgId}`)).json.quota_max, undefined, 'PUT replaces the session');

      const deleted = await gw(`/org/keys/${orgId}`, { method: 'DELETE' });
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.json, { key: orgId, status: 'ok', action: 'deleted' });
      assert.equal((await gw(`/org/keys/${orgId}`)).status, 404);
    });

    it('answers 400 Failed to remove the key when there is no session to delete', async () => {
      const res = await gw('/org/keys/no-such-org', { method: 'DELETE' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { status: 'error', message: 'Failed to remove the key' });
    });

    it('answers 400 Request malformed for a body that is not a JSON object, storing nothing', async () => {
      const res = await gw('/org/keys/broken-org', { method: 'POST', body: '{"rate": ' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { status: 'error', message: 'Request malformed' });
      assert.equal((await gw('/org/keys/broken-org')).status, 404);
    });

    it('refuses limits that are not numbers, storing nothing', async () => {
      const res = await gw('/org/keys/typed-org', { method: 'POST', body: { rate: 'lots', per: 60 } });
      assert.equal(res.status, 400);
      assert.equal(res.json.status, 'error');
      assert.equal((await gw('/org/keys/typed-org')).status, 404);
    });

    it('answers 403 without the gateway secret', async () => {
      const res = await gw('/org/keys', { headers: {} });
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, {
        status: 'error',
        message: 'Attempted administrative access with invalid or missing key!',
      });
    });
  });

  describe('the dashboard', () => {
    const admin = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      http(`${node.dashboardUrl}/admin/organisations${path}`, {
        ...options,
        headers: options.headers ?? node.adminHeaders,
      });
    afterEach(async () => {
      await gw(`/org/keys/${other.tenant.orgId}`, { method: 'DELETE' });
    });

    it("lets only the node's administrator set an organisation's limits, and its administrators read them", async () => {
      const orgId = other.tenant.orgId;
      const mine = () => http(`${node.dashboardUrl}/api/org/session`, { headers: other.tenant.headers });
      assert.equal((await mine()).status, 404);
      // a user of the organisation has no route to change its own limits
      const own = await http(`${node.dashboardUrl}/api/org/session`, {
        method: 'PUT',
        headers: other.tenant.headers,
        body: { is_inactive: false },
      });
      assert.equal(own.status, 404);
      const refused = await admin(`/${orgId}/session`, {
        method: 'PUT',
        body: { is_inactive: true },
        headers: { 'admin-auth': 'wrong' },
      });
      assert.equal(refused.status, 403);
      assert.equal((await mine()).status, 404, 'nothing stored');

      const saved = await admin(`/${orgId}/session`, {
        method: 'PUT',
        body: { rate: 50, per: 60, quota_max: 500, quota_renewal_rate: 3600, is_inactive: true },
      });
      assert.equal(saved.status, 200, saved.text);
      assert.deepEqual(saved.json, { Status: 'OK', Message: 'Organisation session created', Meta: null });
      const shown = await mine();
      assert.equal(shown.status, 200);
      assert.equal(shown.json.quota_max, 500);
      assert.equal(shown.json.is_inactive, true);
      await eventually(async () => assert.deepEqual((await call(other, other.keys[0])).json, INACTIVE), 5000);
      assert.equal((await call(acme, acme.keys[0])).status, 200, 'another organisation is served');
    });

    it('deletes the session with its organisation', async () => {
      const gone = await createTenant(node.dashboardUrl, node.adminHeaders, 'Gone');
      const saved = await admin(`/${gone.orgId}/session`, { method: 'PUT', body: { is_inactive: true } });
      assert.equal(saved.status, 200, saved.text);
      assert.equal((await gw(`/org/keys/${gone.orgId}`)).status, 200);
      assert.equal((await admin(`/${gone.orgId}`, { method: 'DELETE' })).status, 200);
      await eventually(async () => assert.equal((await gw(`/org/keys/${gone.orgId}`)).status, 404), 5000);
    });

    it('answers 404 for an organisation that does not exist, storing nothing', async () => {
      const res = await admin('/no-such-org/session', { method: 'PUT', body: { is_inactive: true } });
      assert.equal(res.status, 404);
      assert.equal((await gw('/org/keys/no-such-org')).status, 404);
    });
  });

  describe('enforcement', () => {
    afterEach(async () => {
      for (const org of [acme, other]) await gw(`/org/keys/${org.tenant.orgId}`, { method: 'DELETE' });
      // both organisations serve their keys again
      await eventually(async () => assert.equal((await call(acme, acme.keys[1])).status, 200), 5000);
    });

    it('refuses every request of an inactive organisation before authentication, even with a bad key', async () => {
      const orgId = acme.tenant.orgId;
      await gw(`/org/keys/${orgId}`, { method: 'POST', body: { is_inactive: true } });
      await eventually(async () => {
        const res = await call(acme, 'not-a-key');
        assert.equal(res.status, 403);
        assert.deepEqual(res.json, INACTIVE);
      }, 5000);
      assert.deepEqual((await call(acme, acme.keys[1])).json, INACTIVE);
      // another organisation is untouched: its bad key fails authentication, its good key passes
      const bad = await call(other, 'not-a-key');
      assert.equal(bad.status, 403);
      assert.notDeepEqual(bad.json, INACTIVE);
      assert.equal((await call(other, other.keys[0])).status, 200);
    });

    it('shares the organisation rate limit between its keys, and fires OrgRateLimitExceeded', async () => {
      await enforce(acme, { rate: 4, per: 60 });
      // one request spent by enforce(); three more across both keys, then both are refused
      assert.deepEqual(await statuses(acme, acme.keys[0], acme.keys[1], acme.keys[1]), [200, 200, 200]);
      const refused = await call(acme, acme.keys[0]);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.json, OVER_RATE);
      assert.deepEqual((await call(acme, acme.keys[1])).json, OVER_RATE);
      assert.deepEqual(await statuses(other, other.keys[0], other.keys[1]), [200, 200], 'another organisation');
      const event = await eventually(() => {
        const found = events.find((e) => e.event === 'OrgRateLimitExceeded');
        assert.ok(found, 'OrgRateLimitExceeded was published');
        return found;
      });
      assert.equal(event.org_id, acme.tenant.orgId);
      assert.equal(event.key, acme.tenant.orgId);
      assert.equal(event.message, 'Organisation rate limit has been exceeded');
      assert.match(String(event.meta?.path), /^\/\S+/);
      assert.equal(event.meta?.client_ip, '127.0.0.1');
    });

    it('shares the organisation quota between its keys, fires OrgQuotaExceeded, and reset_quota starts it afresh', async () => {
      const session = { quota_max: 3, quota_renewal_rate: 3600 };
      await enforce(acme, session);
      assert.deepEqual(await statuses(acme, acme.keys[1], acme.keys[0]), [200, 200]);
      const refused = await call(acme, acme.keys[1]);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.json, OVER_QUOTA);
      assert.equal((await gw(`/org/keys/${acme.tenant.orgId}`)).json.quota_remaining, 0);
      const event = await eventually(() => {
        const found = events.find((e) => e.event === 'OrgQuotaExceeded');
        assert.ok(found, 'OrgQuotaExceeded was published');
        return found;
      });
      assert.equal(event.key, acme.tenant.orgId);
      assert.equal(event.message, 'Organisation quota has been exceeded');

      // a plain update keeps the spent quota
      await gw(`/org/keys/${acme.tenant.orgId}`, { method: 'PUT', body: { ...session, rate: 0 } });
      assert.deepEqual((await call(acme, acme.keys[0])).json, OVER_QUOTA);
      // reset_quota=1 starts new counters
      const reset = await gw(`/org/keys/${acme.tenant.orgId}?reset_quota=1`, { method: 'PUT', body: session });
      assert.equal(reset.status, 200);
      await eventually(async () => assert.equal((await call(acme, acme.keys[0])).status, 200), 5000);
      assert.equal((await gw(`/org/keys/${acme.tenant.orgId}`)).json.quota_remaining, 2);
    });

    it("keeps a key's own quota apart from the organisation's", async () => {
      const apiId = other.apiId;
      const limited = await http(`${node.dashboardUrl}/api/keys`, {
        method: 'POST',
        headers: other.tenant.headers,
        body: { access_rights: { [apiId]: { api_id: apiId } }, quota_max: 2, quota_renewal_rate: 3600 },
      });
      assert.equal(limited.status, 200, limited.text);
      await enforce(other, { quota_max: 100, quota_renewal_rate: 3600 });
      const key = limited.json.key_id as string;
      assert.deepEqual(await statuses(other, key, key, key), [200, 200, 403]);
      assert.deepEqual((await call(other, key)).json, { error: 'Quota exceeded' }, "the key's own refusal");
      assert.equal((await call(other, other.keys[1])).status, 200, 'the organisation still has quota');
      // the organisation counts every request it let through, those its key then refused too
      assert.equal((await gw(`/org/keys/${other.tenant.orgId}`)).json.quota_remaining, 100 - 6);
    });
  });
});

describe('organisation sessions with GW_ENFORCE_ORG_QUOTAS off', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('stores sessions but refuses nothing', async () => {
    const org = await orgFixture(node, upstream, 'Free');
    const orgId = org.tenant.orgId;
    const saved = await http(`${node.gatewayUrl}/gw/org/keys/${orgId}`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: { is_inactive: true, quota_max: 1, quota_renewal_rate: 3600 },
    });
    assert.equal(saved.status, 200);
    for (let i = 0; i < 3; i++) {
      const res = await http(`${node.gatewayUrl}${org.path}/a`, { headers: { authorization: org.keys[i % 2] } });
      assert.equal(res.status, 200);
    }
  });
});
