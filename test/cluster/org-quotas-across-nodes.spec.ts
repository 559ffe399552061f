import { strict as assert } from 'node:assert';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import type { TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const INACTIVE = 'this organisation access has been disabled, please contact your API administrator';
const OVER_RATE = 'This organisation rate limit has been exceeded, please contact your API administrator';
const OVER_QUOTA = 'This organisation quota has been exceeded, please contact your API administrator';

/**
 * An organisation session is one allowance however many gateway nodes serve the organisation:
 * two gateway nodes over the real NATS server, counting in Redis, the sessions stored by a
 * management node on MariaDB. A session written through one node's /gw is enforced by both.
 * Runs when GW_TEST_NATS, GW_TEST_MYSQL and GW_TEST_REDIS are set.
 */
describe('cluster: organisation rate limit and quota across two gateway nodes', function () {
  this.timeout(90_000);
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  const redisUrl = process.env.GW_TEST_REDIS;
  const cluster = clusterSettings(natsUrl);
  let database: TestDatabase;
  let management: TestNode;
  let gateways: TestNode[] = [];
  let upstream: Upstream;
  let tenant: Tenant;
  let keys: string[] = [];

  /** one request per (node, key) pair in turn: node a key 0, node b key 1, node a key 0… */
  const alternate = async (count: number) => {
    const seen: Array<{ status: number; error?: string }> = [];
    for (let i = 0; i < count; i++) {
      const res = await http(`${gateways[i % 2].gatewayUrl}/org-limited/x`, {
        headers: { authorization: keys[i % 2] },
      });
      seen.push({ status: res.status, error: res.json?.error });
    }
    return seen;
  };
  const save = async (node: TestNode, session: Record<string, unknown>, query = '') => {
    const res = await http(`${node.gatewayUrl}/gw/org/keys/${tenant.orgId}${query}`, {
      method: 'PUT',
      headers: node.gwHeaders,
      body: session,
    });
    assert.equal(res.status, 200, res.text);
  };
  /** Stores the session through node `via` and waits until both nodes enforce it; spends one request per node. */
  const enforceEverywhere = async (via: TestNode, session: Record<string, unknown>, query = '') => {
    await save(via, { ...session, is_inactive: true });
    for (const node of gateways)
      await eventually(
        async () =>
          assert.equal(
            (await http(`${node.gatewayUrl}/org-limited/x`, { headers: { authorization: keys[0] } })).json?.error,
            INACTIVE,
          ),
        10_000,
        50,
      );
    await save(via, session, query);
    for (const node of gateways)
      await eventually(
        async () =>
          assert.equal(
            (await http(`${node.gatewayUrl}/org-limited/x`, { headers: { authorization: keys[0] } })).status,
            200,
          ),
        10_000,
        50,
      );
  };

  before(async function () {
    if (!natsUrl || !mysqlUrl || !redisUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    management = await startManagementNode(cluster, database);
    gateways = [
      await startGatewayNode(cluster, { redisUrl, enforceOrgQuotas: true }),
      await startGatewayNode(cluster, { redisUrl, enforceOrgQuotas: true }),
    ];
    // a new organisation per run: its counters in Redis are its own
    tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Org Cluster');
    const dashboard = (path: string, body: unknown) =>
      http(`${management.dashboardUrl}/api${path}`, { method: 'POST', headers: tenant.headers, body });
    const api = await dashboard(
      '/apis',
      keylessApi('OrgLimited', '/org-limited', upstream.url, { use_keyless: false }),
    );
    assert.equal(api.status, 200, api.text);
    for (let i = 0; i < 2; i++) {
      const key = await dashboard('/keys', { access_rights: { [api.json.ID]: { api_id: api.json.ID } } });
      assert.equal(key.status, 200, key.text);
      keys.push(key.json.key_id);
    }
    for (const node of gateways)
      for (const key of keys)
        await eventually(
          async () =>
            assert.equal(
              (await http(`${node.gatewayUrl}/org-limited/ready`, { headers: { authorization: key } })).status,
              200,
            ),
          10_000,
          50,
        );
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl || !redisUrl) return;
    await stopCluster({ nodes: [...gateways, management], upstream, database });
    keys = [];
  });

  it('holds the organisation quota exactly across both nodes and both keys; reset_quota on one node frees both', async () => {
    await enforceEverywhere(gateways[0], { quota_max: 5, quota_renewal_rate: 3600 });
    // two spent above, three more whichever node and key, then every node refuses
    assert.deepEqual(
      (await alternate(5)).map((r) => r.status),
      [200, 200, 200, 403, 403],
    );
    assert.deepEqual(
      (await alternate(2)).map((r) => r.error),
      [OVER_QUOTA, OVER_QUOTA],
    );
    const shown = await http(`${gateways[1].gatewayUrl}/gw/org/keys/${tenant.orgId}`, {
      headers: gateways[1].gwHeaders,
    });
    assert.equal(shown.json.quota_remaining, 0);

    await save(gateways[1], { quota_max: 5, quota_renewal_rate: 3600 }, '?reset_quota=1');
    for (const node of gateways)
      await eventually(
        async () =>
          assert.equal(
            (await http(`${node.gatewayUrl}/org-limited/x`, { headers: { authorization: keys[1] } })).status,
            200,
          ),
        10_000,
        50,
      );
  });

  it('holds the organisation rate limit exactly across both nodes and both keys', async () => {
    await enforceEverywhere(gateways[1], { rate: 4, per: 60 }, '?reset_quota=1');
    assert.deepEqual(
      (await alternate(4)).map((r) => r.status),
      [200, 200, 403, 403],
    );
    assert.deepEqual(
      (await alternate(2)).map((r) => r.error),
      [OVER_RATE, OVER_RATE],
    );
  });
});
