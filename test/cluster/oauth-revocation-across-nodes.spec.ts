import { strict as assert } from 'node:assert';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, type HttpOptions } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import type { TestNode } from '../support/node';
import { createOAuthApi, dashboardOf, form, REDIRECT_URI } from '../support/oauth';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * A token revoked through one gateway node's /gw API stops working on the other gateway node,
 * which had it cached: the token's key is deleted and every node hears `keys.changed`. Runs when
 * GW_TEST_NATS and GW_TEST_MYSQL are set (.ci/run sets both).
 */
describe('cluster: OAuth revocation through /gw reaches every gateway node', function () {
  this.timeout(60_000);
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  let database: TestDatabase;
  let management: TestNode;
  let first: TestNode;
  let second: TestNode;
  let upstream: Upstream;
  let client: { client_id: string; secret: string };
  const cluster = clusterSettings(natsUrl);
  const gwOf =
    (node: TestNode) =>
    (path: string, options: HttpOptions = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: { ...node.gwHeaders, ...(options.headers ?? {}) } });
  const issue = async () => {
    const res = await http(
      `${first.gatewayUrl}/orders/oauth/token`,
      form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.secret }),
    );
    assert.equal(res.status, 200, res.text);
    return res.json.access_token as string;
  };
  const onSecond = (token: string) => http(`${second.gatewayUrl}/orders/x`, { headers: { authorization: token } });

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    management = await startManagementNode(cluster, database);
    first = await startGatewayNode(cluster);
    second = await startGatewayNode(cluster);
    await first.broker.waitForServices(['apis', 'oauth', 'keys'], 10_000);
    await second.broker.waitForServices(['apis', 'oauth', 'keys'], 10_000);
    const tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Revokers');
    const apiId = await createOAuthApi(dashboardOf(management.dashboardUrl, tenant), 'orders', '/orders', upstream.url);
    const created = await gwOf(first)('/oauth/clients/create', {
      method: 'POST',
      body: { api_id: apiId, redirect_uri: REDIRECT_URI },
    });
    assert.equal(created.status, 200, created.text);
    client = created.json;
    await eventually(async () => {
      assert.notEqual((await http(`${first.gatewayUrl}/orders/oauth/token`)).status, 404);
      assert.notEqual((await http(`${second.gatewayUrl}/orders/x`)).status, 404);
    }, 10_000);
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl) return;
    await stopCluster({ nodes: [second, first, management], upstream, database });
  });

  it('POST /gw/oauth/revoke on one node: the other refuses the token', async () => {
    const token = await issue();
    await eventually(async () => assert.equal((await onSecond(token)).status, 200), 10_000);
    const revoked = await gwOf(first)('/oauth/revoke', form({ token, client_id: client.client_id }));
    assert.equal(revoked.status, 200, revoked.text);
    await eventually(async () => assert.equal((await onSecond(token)).status, 403), 10_000);
  });

  it('POST /gw/oauth/revoke_all on one node: the other refuses every token of the client', async () => {
    const tokens = [await issue(), await issue()];
    for (const token of tokens) await eventually(async () => assert.equal((await onSecond(token)).status, 200));
    const revoked = await gwOf(first)(
      '/oauth/revoke_all',
      form({ client_id: client.client_id, client_secret: client.secret }),
    );
    assert.equal(revoked.status, 200, revoked.text);
    for (const token of tokens) await eventually(async () => assert.equal((await onSecond(token)).status, 403), 10_000);
  });
});
