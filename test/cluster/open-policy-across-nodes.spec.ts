import { strict as assert } from 'node:assert';
import { clusterSettings, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import type { TestNode } from '../support/node';

const NO_KEYLESS =
  'package dashboard_users\ndeny["You cannot create a keyless API."] { input.request.method == "POST"; input.request.body.api_definition.use_keyless == true }';

/**
 * Two management nodes on one MariaDB over NATS: rules changed through one node's dashboard
 * apply at once on the other, which caches compiled rules per organisation. The periodic store
 * check is set to an hour, so this proves the broadcast path. Runs when GW_TEST_NATS and
 * GW_TEST_MYSQL are set.
 */
describe('cluster: policy-engine rules changed on one management node, on another', function () {
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  const cluster = clusterSettings(natsUrl, { storeCheckInterval: 3600 });
  let database: TestDatabase;
  let first: TestNode;
  let second: TestNode;
  let tenant: Tenant;
  const on =
    (node: TestNode) =>
    (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  let attempt = 0;
  /** each attempt under its own name and listen path, so a retry never collides with an earlier success */
  const createKeyless = (node: TestNode, name: string) => {
    const unique = `${name}-${attempt++}`;
    return on(node)('/apis', { method: 'POST', body: keylessApi(unique, `/${unique}`, 'http://127.0.0.1:9') });
  };

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    database = await createTestDatabase(mysqlUrl);
    first = await startManagementNode(cluster, database);
    second = await startManagementNode(cluster, database);
    tenant = await createTenant(first.dashboardUrl, first.adminHeaders, 'Policy Cluster');
  });
  after(async () => {
    await stopCluster({ nodes: [second, first], database });
  });

  it('enforces, then stops enforcing, as soon as the other node saved the change', async () => {
    // The second node caches "no rules" for the organisation first.
    assert.equal((await createKeyless(second, 'before-rules')).status, 200);

    assert.equal(
      (await on(first)('/org/opa', { method: 'PUT', body: { open_policy: { enabled: true, rules: NO_KEYLESS } } }))
        .status,
      200,
    );
    // The broadcast crosses NATS while the PUT answers: a request racing it may still pass.
    await eventually(async () => {
      const refused = await createKeyless(second, 'with-rules');
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.json.Message, 'You cannot create a keyless API.');
    }, 3000);

    assert.equal(
      (await on(first)('/org/opa', { method: 'PUT', body: { open_policy: { enabled: false, rules: NO_KEYLESS } } }))
        .status,
      200,
    );
    await eventually(async () => assert.equal((await createKeyless(second, 'rules-off')).status, 200), 3000);
  });
});
