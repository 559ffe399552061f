import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { createTenant, keylessApi } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http, readText } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const INACTIVE = 'this organisation access has been disabled, please contact your API administrator';

/** One request on a connection of its own, so that the kernel picks a worker for it (reusePort). */
function callOnNewConnection(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      readText(res).then((body) => resolve({ status: res.statusCode!, body }), reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function hammer(url: string, total: number, concurrency: number, headers: Record<string, string>) {
  const seen: Array<{ status: number; body: string }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        seen.push(await callOnNewConnection(url, headers));
      }
    }),
  );
  return seen;
}

/**
 * An organisation session on a node with four gateway workers: every worker enforces it, and its
 * quota is spent exactly once across them (the limiter's counters in the node's shared memory).
 */
describe('organisation sessions on four gateway workers', function () {
  this.timeout(90_000);
  let node: TestNode;
  let upstream: Upstream;
  let orgId: string;
  let url: string;
  const keys: string[] = [];
  const save = async (session: Record<string, unknown>) => {
    const res = await http(`${node.gatewayUrl}/gw/org/keys/${orgId}`, {
      method: 'PUT',
      headers: node.gwHeaders,
      body: session,
    });
    assert.equal(res.status, 200, res.text);
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({ workers: '4', enforceOrgQuotas: true });
    const tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
    orgId = tenant.orgId;
    const dashboard = (path: string, body: unknown) =>
      http(`${node.dashboardUrl}/api${path}`, { method: 'POST', headers: tenant.headers, body });
    const api = await dashboard('/apis', keylessApi('Org', '/org', upstream.url, { use_keyless: false }));
    assert.equal(api.status, 200, api.text);
    for (let i = 0; i < 2; i++) {
      const key = await dashboard('/keys', { access_rights: { [api.json.ID]: { api_id: api.json.ID } } });
      assert.equal(key.status, 200, key.text);
      keys.push(key.json.key_id);
    }
    url = `${node.gatewayUrl}/org/a`;
    await eventually(async () => {
      const seen = await hammer(url, 40, 20, { authorization: keys[0] });
      assert.deepEqual(
        seen.map((r) => r.status),
        seen.map(() => 200),
      );
    }, 10_000);
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('refuses an inactive organisation on every worker, then spends its quota exactly once across them', async () => {
    await save({ is_inactive: true, quota_max: 400, quota_renewal_rate: 3600 });
    await eventually(async () => {
      const seen = await hammer(url, 40, 20, { authorization: 'not-a-key' });
      assert.deepEqual(
        seen.map((r) => JSON.parse(r.body).error),
        seen.map(() => INACTIVE),
      );
    }, 10_000);

    await save({ quota_max: 400, quota_renewal_rate: 3600 });
    // every worker enforces the active session: each of these requests spends quota, so the probe
    // is small, and a probe repeated while a busy machine's workers catch up leaves quota to count
    await eventually(async () => {
      const seen = await hammer(url, 12, 6, { authorization: keys[1] });
      assert.deepEqual(
        seen.map((r) => r.status),
        seen.map(() => 200),
        [...new Set(seen.map((r) => r.body))].join(' | '),
      );
    }, 10_000);
    const remaining = (await http(`${node.gatewayUrl}/gw/org/keys/${orgId}`, { headers: node.gwHeaders })).json
      .quota_remaining as number;
    assert.ok(remaining > 0 && remaining <= 388, `${remaining} left`);

    const seen = (await Promise.all(keys.map((key) => hammer(url, 250, 25, { authorization: key })))).flat();
    assert.equal(seen.filter((r) => r.status === 200).length, remaining);
    assert.equal(seen.filter((r) => r.status === 403).length, 500 - remaining);
  });
});
