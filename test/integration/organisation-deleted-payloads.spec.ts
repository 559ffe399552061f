import assert from 'node:assert/strict';
import { ORGS_DELETED } from '../../contracts/orgs/events';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

/**
 * `orgs.deleted` makes every store service remove an organisation's records. A payload without a
 * usable organisation id (a bug elsewhere, or a foreign node on the bus) must remove nothing:
 * an unscoped removal would wipe every organisation.
 */
describe('organisation deleted: payloads without an organisation id remove nothing', () => {
  let node: TestNode;
  let keep: Tenant;
  let doomed: Tenant;
  let doomedApiId: string;

  before(async () => {
    node = await startTestNode();
    keep = await createTenant(node.dashboardUrl, node.adminHeaders, 'Keep');
    doomed = await createTenant(node.dashboardUrl, node.adminHeaders, 'Doomed');
    for (const [tenant, path] of [
      [keep, '/keep'],
      [doomed, '/doomed'],
    ] as const) {
      const created = await http(`${node.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi(path, path, 'http://127.0.0.1:9'),
      });
      assert.equal(created.status, 200, created.text);
      if (tenant === doomed) doomedApiId = created.json.ID;
    }
    const unowned = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: {
        name: 'unowned',
        api_id: 'unowned',
        use_keyless: true,
        proxy: { listen_path: '/unowned', target_url: 'http://127.0.0.1:9' },
      },
    });
    assert.equal(unowned.status, 200, unowned.text);
  });

  after(async () => {
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('keeps the users and APIs of other organisations, and unowned APIs, when org_id is missing, empty or not a string', async () => {
    for (const payload of [{}, { org_id: '' }, { org_id: 42 }, null])
      await node.broker.broadcast(ORGS_DELETED, payload as never);
    // A valid deletion afterwards: once it has taken effect, the bad ones above have been handled.
    await node.broker.broadcast(ORGS_DELETED, { org_id: doomed.orgId });
    await eventually(async () => {
      assert.equal((await http(`${node.dashboardUrl}/api/apis`, { headers: doomed.headers })).status, 403);
      assert.equal((await http(`${node.gatewayUrl}/gw/apis/${doomedApiId}`, { headers: node.gwHeaders })).status, 404);
    }, 3000);

    const kept = await http(`${node.dashboardUrl}/api/apis`, { headers: keep.headers });
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(
      kept.json.apis.map((api: { api_definition: { name: string } }) => api.api_definition.name),
      ['/keep'],
    );
    const unowned = await http(`${node.gatewayUrl}/gw/apis/unowned`, { headers: node.gwHeaders });
    assert.equal(unowned.status, 200, unowned.text);
  });
});
