import { strict as assert } from 'node:assert';
import type { AnalyticsRecord } from '../../contracts/analytics/actions';
import { COUNTERS, valueOf } from '../../lib/observability/counters';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import { removeDir, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * Analytics across the real NATS server: a gateway node (which never opens the database) sends
 * its records to the analytics service on the management node (MariaDB); when that node goes,
 * requests keep succeeding and the gateway counts what it drops. Runs when GW_TEST_NATS and
 * GW_TEST_MYSQL are set.
 */
describe('cluster: analytics records from a gateway node to the management node over NATS', function () {
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  let database: TestDatabase;
  let management: TestNode | undefined;
  let gateway: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  const cluster = clusterSettings(natsUrl, { analyticsFlushInterval: 0.05 });

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    gateway = await startGatewayNode(cluster);
    management = await startManagementNode(cluster, database);
    await gateway.broker.waitForServices(['apis', 'analytics'], 10_000);
    tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Cluster analytics');
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl) return;
    await stopCluster({ nodes: [gateway, management], upstream, database });
  });

  it('stores what the gateway node recorded, then keeps serving and counts drops once the management node is gone', async () => {
    const created = await http(`${management!.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: tenant.headers,
      body: keylessApi('Remote', '/remote', upstream.url),
    });
    assert.equal(created.status, 200, created.text);
    const apiId = created.json.ID as string;
    await eventually(async () => assert.equal((await http(`${gateway.gatewayUrl}/remote/ready`)).status, 200), 5000);
    for (let i = 0; i < 4; i++) assert.equal((await http(`${gateway.gatewayUrl}/remote/x`)).status, 200);
    const now = new Date();
    const day = `${now.getUTCDate()}/${now.getUTCMonth() + 1}/${now.getUTCFullYear()}`;
    await eventually(async () => {
      const res = await http(`${management!.dashboardUrl}/api/activity/apis/${day}/${day}`, {
        headers: tenant.headers,
      });
      assert.deepEqual(
        res.json.data.map((r: AnalyticsRecord) => [r.id.api_id, r.hits]),
        [[apiId, 5]],
      );
    }, 5000);
    assert.equal(gateway.runtime.hasOpenedDatabase(), false);
    // A batch from another node is validated before it is stored.
    await assert.rejects(
      gateway.broker.call('analytics.ingest', { records: [{ api_id: 7 }] }),
      (err: { type?: string; code?: number }) => {
        assert.equal(err.type, 'VALIDATION_ERROR');
        assert.equal(err.code, 422);
        return true;
      },
    );

    const droppedBefore = valueOf(COUNTERS.analyticsRecordsDropped);
    await management!.stop();
    removeDir(management!.dataDir);
    management = undefined;
    await eventually(
      () =>
        assert.equal(
          gateway.broker.registry
            .getServiceList({ onlyAvailable: true })
            .some((s: { name: string }) => s.name === 'analytics'),
          false,
        ),
      5000,
    );
    for (let i = 0; i < 6; i++) assert.equal((await http(`${gateway.gatewayUrl}/remote/y`)).status, 200);
    await eventually(() => assert.equal(valueOf(COUNTERS.analyticsRecordsDropped) - droppedBefore, 6), 5000);
  });
});
