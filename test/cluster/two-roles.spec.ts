import { strict as assert } from 'node:assert';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import { removeDir, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * The two roles as separate nodes over the real NATS server, the management node on MariaDB:
 * what is written on the management node is served by the gateway node within a second, and
 * the gateway node never opens the database. Runs when GW_TEST_NATS and GW_TEST_MYSQL are set
 * (.ci/run sets both).
 */
describe('cluster: a management node and a gateway node over NATS', function () {
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  let database: TestDatabase;
  let management: TestNode;
  let gateway: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  const cluster = clusterSettings(natsUrl);
  const startGateway = () => startGatewayNode(cluster);

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    // The gateway node starts first: it must pick the definitions up once the store appears.
    gateway = await startGateway();
    management = await startManagementNode(cluster, database);
    await gateway.broker.waitForServices(['apis'], 10_000);
    tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Cluster');
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl) return;
    await stopCluster({ nodes: [gateway, management], upstream, database });
  });

  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${management.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });

  it('runs the roles apart: the management node has no gateway port, the gateway node no dashboard', () => {
    assert.equal(management.gatewayUrl, '');
    assert.equal(gateway.dashboardUrl, '');
    assert.deepEqual(gateway.services, ['proxy', 'auth', 'limiter', 'graphql-engine', 'streams']);
  });

  it('serves an API created on the management node within a second, and stops serving it when deactivated', async () => {
    const created = await dashboard('/apis', { method: 'POST', body: keylessApi('Across', '/across', upstream.url) });
    assert.equal(created.status, 200, created.text);
    await eventually(async () => {
      const res = await http(`${gateway.gatewayUrl}/across/hello?q=1`);
      assert.equal(res.status, 200);
      assert.equal(res.json.url, '/hello?q=1');
    });
    const record = (await dashboard(`/apis/${created.json.Meta}`)).json;
    record.api_definition.active = false;
    await dashboard(`/apis/${created.json.Meta}`, { method: 'PUT', body: record });
    await eventually(async () => assert.equal((await http(`${gateway.gatewayUrl}/across/hello`)).status, 404));
  });

  it("stores APIs posted to the gateway node's /gw API in the shared store", async () => {
    const res = await http(`${gateway.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: gateway.gwHeaders,
      body: { ...keylessApi('Via gw', '/via-gw', upstream.url).api_definition, api_id: 'via-gw' },
    });
    assert.deepEqual(res.json, { key: 'via-gw', status: 'ok', action: 'added' });
    assert.equal((await http(`${gateway.gatewayUrl}/via-gw/x`)).json.url, '/x');
    const deleted = await dashboard('/apis/via-gw', { method: 'DELETE' });
    assert.equal(deleted.status, 404, 'an API without org_id belongs to no dashboard organisation');
  });

  it('loads what is already stored when a gateway node starts', async () => {
    await dashboard('/apis', { method: 'POST', body: keylessApi('Before', '/before-start', upstream.url) });
    const late = await startGateway();
    try {
      await eventually(
        async () => assert.equal((await http(`${late.gatewayUrl}/before-start/a`)).json.url, '/a'),
        5000,
      );
    } finally {
      await late.stop();
      removeDir(late.dataDir);
    }
  });

  it('authenticates on the gateway node with keys stored on the management node, and refuses a deleted key within a second', async () => {
    const created = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi('Protected', '/protected', upstream.url, { use_keyless: false }),
    });
    const apiId = created.json.ID;
    const key = await dashboard('/keys', { method: 'POST', body: { access_rights: { [apiId]: { api_id: apiId } } } });
    assert.equal(key.status, 200, key.text);
    await eventually(async () =>
      assert.equal(
        (await http(`${gateway.gatewayUrl}/protected/a`, { headers: { authorization: key.json.key_id } })).status,
        200,
      ),
    );
    assert.equal(
      (await http(`${gateway.gatewayUrl}/protected/a`, { headers: { authorization: 'unknown' } })).status,
      403,
    );
    await dashboard(`/apis/${apiId}/keys/${key.json.key_id}`, { method: 'DELETE' });
    await eventually(async () =>
      assert.equal(
        (await http(`${gateway.gatewayUrl}/protected/a`, { headers: { authorization: key.json.key_id } })).status,
        403,
      ),
    );
  });

  it('never opens the database on the gateway node', () => {
    assert.equal(gateway.runtime.hasOpenedDatabase(), false);
    assert.equal(management.runtime.hasOpenedDatabase(), true);
  });
});
