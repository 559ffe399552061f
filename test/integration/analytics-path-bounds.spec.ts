import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyticsRecord } from '../../contracts/analytics/actions';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

/** Today (UTC) as the day/month/year path parts of an activity period, twice. */
function today(): string {
  const now = new Date();
  const day = `${now.getUTCDate()}/${now.getUTCMonth() + 1}/${now.getUTCFullYear()}`;
  return `${day}/${day}`;
}

const PATHS_PER_API_HOUR = 5;

for (const store of STORE_VARIANTS) {
  describe(`analytics: aggregates bounded per API whatever paths clients ask for (${store.name})`, () => {
    let node: TestNode;
    let upstream: Upstream;
    let database: { url: string; cleanup(): Promise<void> };
    let tenant: Tenant;
    let apiId: string;
    let key: string;
    let keyHash: string;
    const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const gateway = (path: string, headers: Record<string, string> = {}) =>
      http(`${node.gatewayUrl}${path}`, { headers });
    /** The API's hits as the organisation's per-API activity shows them. */
    const hitsOf = async () => {
      const res = await dashboard(`/activity/apis/${today()}?p=0`);
      assert.equal(res.status, 200, res.text);
      return res.json.data.find((record: AnalyticsRecord) => record.id.api_id === apiId)?.hits ?? 0;
    };
    const endpoints = async (path: string) => {
      const res = await dashboard(path);
      assert.equal(res.status, 200, res.text);
      const records = res.json.data as AnalyticsRecord[];
      return records.map((r) => ({ path: r.id.path, url: r.id.url, hits: r.hits, error: r.error }));
    };

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-analytics-bounds-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      node = await startTestNode({
        dataDir,
        databaseUrl: database.url,
        analyticsFlushInterval: 0.05,
        analyticsPathsPerApiHour: PATHS_PER_API_HOUR,
      });
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Bounds');
      const definition = keylessApi('Guarded', '/guarded', upstream.url, { use_keyless: false });
      const api = await dashboard('/apis', { method: 'POST', body: definition });
      assert.equal(api.status, 200, api.text);
      apiId = api.json.ID;
      // Probes answered 404 (not served yet) belong to no API and are not recorded; the 401 is.
      await eventually(async () => assert.equal((await gateway('/guarded/ready')).status, 401), 5000);
      const access_rights = { [apiId]: { api_id: apiId, versions: ['Default'] } };
      const session = { alias: 'k', rate: 1000, per: 1, expires: 0, quota_max: -1, access_rights };
      const created = await dashboard('/keys', { method: 'POST', body: session });
      assert.equal(created.status, 200, created.text);
      ({ key_id: key, key_hash: keyHash } = created.json);
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it('counts requests refused before authentication, on any path, in one bucket per API', async () => {
      for (let i = 0; i < 200; i++) {
        const res = await gateway(`/guarded/${randomUUID()}/${i}`, { authorization: `bad-key-${i}` });
        assert.equal(res.status, 403, res.text);
      }
      await eventually(async () => assert.equal(await hitsOf(), 201), 10_000);

      assert.deepEqual(await endpoints(`/activity/endpoints/${today()}?api_id=${apiId}&p=0`), [
        { path: '(unauthenticated)', url: 'GET (unauthenticated)', hits: 201, error: 201 },
      ]);
      const errors = await dashboard(`/activity/errors/${today()}?api_id=${apiId}`);
      const byCode = Object.fromEntries(errors.json.data.map((r: AnalyticsRecord) => [r.id.code, r.hits]));
      assert.deepEqual(byCode, { 401: 1, 403: 200 });
      const rows = await node.runtime.database()('analytics_hourly').where('api_id', apiId).count({ n: '*' });
      assert.equal(Number(rows[0].n), 2, 'one row per response code, none per path');
    });

    it(`gives the first ${PATHS_PER_API_HOUR} paths of an hour rows, others count as (other)`, async () => {
      const before = await hitsOf();
      const authorised = { authorization: key };
      for (let i = 1; i <= 8; i++) assert.equal((await gateway(`/guarded/p${i}`, authorised)).status, 200);
      assert.equal((await gateway('/guarded/p1', authorised)).status, 200);
      await eventually(async () => assert.equal(await hitsOf(), before + 9), 10_000);

      const ok = { error: 0 };
      const expected = [
        { path: '(other)', url: 'GET (other)', hits: 3, ...ok },
        { path: '/p1', url: 'GET /p1', hits: 2, ...ok },
        ...[2, 3, 4, 5].map((i) => ({ path: `/p${i}`, url: `GET /p${i}`, hits: 1, ...ok })),
      ];
      const ofKey = await endpoints(`/activity/keys/endpoint/${keyHash}/${today()}?p=0`);
      assert.deepEqual(ofKey, expected);
      const all = await endpoints(`/activity/endpoints/${today()}?api_id=${apiId}&p=0`);
      const paths = all.map((r) => r.path).sort();
      assert.deepEqual(paths, ['(other)', '(unauthenticated)', '/p1', '/p2', '/p3', '/p4', '/p5']);
    });
  });
}
