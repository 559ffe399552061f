import { strict as assert } from 'node:assert';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import type { TestNode } from '../support/node';
import { STREAMS_TYPE, streamsDocument } from '../support/stream-apis';

/**
 * A streams API saved on the management node runs on each gateway node (NATS, MariaDB), and
 * its stats on the dashboard sum every gateway node's counters. Runs when GW_TEST_NATS and
 * GW_TEST_MYSQL are set.
 */
describe('cluster: streams on two gateway nodes', function () {
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  let database: TestDatabase;
  let management: TestNode;
  const gateways: TestNode[] = [];
  let tenant: Tenant;
  const cluster = clusterSettings(natsUrl, { streamsDrainTimeout: 1 });

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    database = await createTestDatabase(mysqlUrl);
    management = await startManagementNode(cluster, database);
    gateways.push(await startGatewayNode(cluster), await startGatewayNode(cluster));
    for (const gateway of gateways) await gateway.broker.waitForServices(['apis'], 10_000);
    await management.broker.waitForServices(['streams'], 10_000);
    tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Streams cluster');
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl) return;
    await stopCluster({ nodes: [...gateways, management], database });
  });

  it('serves the stream on each gateway node and sums their counters in /api/apis/streams/{id}/stats', async () => {
    const streams = { ticks: { input: { http_server: { path: '/in' } }, output: { http_server: { path: '/out' } } } };
    const created = await http(`${management.dashboardUrl}/api/apis/streams`, {
      method: 'POST',
      body: JSON.stringify(streamsDocument('Ticks', '/ticks/', streams)),
      headers: { ...tenant.headers, ...STREAMS_TYPE },
    });
    assert.equal(created.status, 200, created.text);
    const apiId = created.json.ID as string;
    for (const [i, gateway] of gateways.entries()) {
      const poll = eventually(async () => {
        const res = await http(`${gateway.gatewayUrl}/ticks/out`);
        assert.equal(res.status, 200, res.text);
        return res;
      }, 10_000);
      await eventually(
        async () =>
          assert.equal(
            (await http(`${gateway.gatewayUrl}/ticks/in`, { method: 'POST', body: `from ${i}` })).status,
            200,
          ),
        10_000,
      );
      assert.equal((await poll).text, `from ${i}`);
    }
    const stats = await http(`${management.dashboardUrl}/api/apis/streams/${apiId}/stats`, { headers: tenant.headers });
    assert.equal(stats.status, 200, stats.text);
    assert.equal(stats.json.streams.ticks.messages_out, 2);
    assert.deepEqual(
      stats.json.nodes.map((n: { node: string }) => n.node).sort(),
      gateways.map((g) => g.broker.nodeID).sort(),
    );
    for (const node of stats.json.nodes) assert.equal(node.streams.ticks.messages_out, 1);
  });
});
