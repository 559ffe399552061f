import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyticsRecord } from '../../contracts/analytics/actions';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { createOAuthApi, dashboardOf, form, REDIRECT_URI } from '../support/oauth';
import { STORE_VARIANTS } from '../support/stores';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { startUpstream, type Upstream } from '../support/upstream';

/** Today (UTC) as the day/month/year path parts of an activity period, twice. */
function today(): string {
  const now = new Date();
  const day = `${now.getUTCDate()}/${now.getUTCMonth() + 1}/${now.getUTCFullYear()}`;
  return `${day}/${day}`;
}

/** The fields of a record a test can know exactly (latencies vary). */
function counts(record: AnalyticsRecord) {
  return { id: record.id, hits: record.hits, success: record.success, error: record.error };
}

for (const store of STORE_VARIANTS) {
  describe(`analytics: records, aggregates and activity endpoints (${store.name})`, () => {
    let node: TestNode;
    let upstream: Upstream;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    let ordersId: string;
    let aliceHash: string;
    let aliceKey: string;
    let bobKey: string;
    let bobHash: string;
    const started = Date.now();
    const dashboard = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const gateway = (path: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
      http(`${node.gatewayUrl}${path}`, options);
    const createApi = async (tenant: Tenant, name: string, listenPath: string, extra: Record<string, unknown> = {}) => {
      const res = await dashboard(tenant, '/apis', {
        method: 'POST',
        body: keylessApi(name, listenPath, upstream.url, extra),
      });
      assert.equal(res.status, 200, res.text);
      // Probes answered 404 (not served yet) belong to no API and are not recorded; the last one is.
      await eventually(async () => assert.notEqual((await gateway(`${listenPath}/ready`)).status, 404), 5000);
      return res.json.ID as string;
    };
    const createKey = async (alias: string) => {
      const res = await dashboard(acme, '/keys', {
        method: 'POST',
        body: {
          alias,
          rate: 1000,
          per: 1,
          expires: 0,
          quota_max: -1,
          access_rights: { [ordersId]: { api_id: ordersId, versions: ['Default'] } },
        },
      });
      assert.equal(res.status, 200, res.text);
      return { key: res.json.key_id as string, hash: res.json.key_hash as string };
    };
    /** The raw records the analytics service stored (its own reader: they are stored packed). */
    const raw = (orgId: string, apiId: string) => new AnalyticsStore(node.runtime.database()).rawRecords(orgId, apiId);
    /** Waits until the organisation's activity shows `hits` requests on the API. */
    const waitForHits = (tenant: Tenant, apiId: string, hits: number) =>
      eventually(async () => {
        const res = await dashboard(tenant, `/activity/apis/${today()}?p=0`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.data.find((record: AnalyticsRecord) => record.id.api_id === apiId)?.hits, hits);
      }, 5000);

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-analytics-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      upstream.respondWith((req, res) => {
        const status = req.url.endsWith('/boom') ? 500 : req.url.endsWith('/missing') ? 404 : 200;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(String(status));
      });
      node = await startTestNode({
        dataDir,
        databaseUrl: database.url,
        analyticsFlushInterval: 0.05,
        analyticsSweepInterval: 0.1,
      });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
      ordersId = await createApi(acme, 'Orders', '/orders', { use_keyless: false });
      ({ key: aliceKey, hash: aliceHash } = await createKey('alice'));
      ({ key: bobKey, hash: bobHash } = await createKey('bob'));
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    describe('traffic through a keyed API', () => {
      before(async () => {
        const as = (key: string) => ({ headers: { authorization: key, 'user-agent': 'analytics-test' } });
        for (let i = 0; i < 3; i++) assert.equal((await gateway('/orders/items', as(aliceKey))).status, 200);
        assert.equal((await gateway('/orders/boom', as(aliceKey))).status, 500);
        for (let i = 0; i < 2; i++) assert.equal((await gateway('/orders/items', as(bobKey))).status, 200);
        assert.equal((await gateway('/orders/missing', { method: 'POST', ...as(bobKey) })).status, 404);
        assert.equal((await gateway('/orders/items')).status, 401);
        // createApi's readiness probe was refused (401) too.
        await waitForHits(acme, ordersId, 9);
      });

      it("groups a key's requests per endpoint on /api/activity/keys/endpoint", async () => {
        const res = await dashboard(acme, `/activity/keys/endpoint/${aliceHash}/${today()}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.json).sort(), ['data', 'pages']);
        assert.equal(res.json.pages, 1);
        const base = { api_id: ordersId, api_name: 'Orders', key: aliceHash, alias: 'alice' };
        assert.deepEqual(res.json.data.map(counts), [
          { id: { ...base, path: '/items', url: 'GET /items' }, hits: 3, success: 3, error: 0 },
          { id: { ...base, path: '/boom', url: 'GET /boom' }, hits: 1, success: 0, error: 1 },
        ]);
        const [items] = res.json.data as AnalyticsRecord[];
        assert.ok(
          items.min_latency > 0 && items.min_latency <= items.latency && items.latency <= items.max_latency,
          JSON.stringify(items),
        );
        assert.equal(items.request_time, items.latency);
        assert.ok(
          items.min_upstream_latency > 0 &&
            items.upstream_latency <= items.max_upstream_latency &&
            items.upstream_latency <= items.latency,
          JSON.stringify(items),
        );
        const lastHit = Date.parse(items.last_hit);
        assert.ok(lastHit >= started - 1000 && lastHit <= Date.now(), items.last_hit);
      });

      it("totals a key's requests per day, and a second key separately", async () => {
        const now = new Date();
        const day = { day: now.getUTCDate(), month: now.getUTCMonth() + 1, year: now.getUTCFullYear() };
        const alice = await dashboard(acme, `/activity/keys/${aliceHash}/${today()}`);
        assert.deepEqual(alice.json.data.map(counts), [
          { id: { ...day, key: aliceHash, alias: 'alice' }, hits: 4, success: 3, error: 1 },
        ]);
        const bob = await dashboard(acme, `/activity/keys/endpoint/${bobHash}/${today()}`);
        assert.deepEqual(
          bob.json.data.map(counts).map((r: { id: Record<string, unknown>; hits: number }) => [r.id.url, r.hits]),
          [
            ['GET /items', 2],
            ['POST /missing', 1],
          ],
        );
      });

      it('records the request details in the raw record (user agent, client IP, alias, codes)', async () => {
        const rows = (await raw(acme.orgId, ordersId)).filter((row) => row.key_hash === aliceHash);
        assert.deepEqual(
          rows.map((row) => [
            row.method,
            row.path,
            row.raw_path,
            row.response_code,
            row.alias,
            row.user_agent,
            row.ip_address,
            row.org_id,
          ]),
          [
            ...Array(3).fill([
              'GET',
              '/items',
              '/orders/items',
              200,
              'alice',
              'analytics-test',
              '127.0.0.1',
              acme.orgId,
            ]),
            ['GET', '/boom', '/orders/boom', 500, 'alice', 'analytics-test', '127.0.0.1', acme.orgId],
          ],
        );
      });

      it('breaks errors down per API and response code', async () => {
        const res = await dashboard(acme, `/activity/errors/${today()}?api_id=${ordersId}`);
        assert.equal(res.status, 200, res.text);
        const byCode = Object.fromEntries(
          res.json.data.map((r: AnalyticsRecord) => [r.id.code, [r.hits, r.success, r.error]]),
        );
        assert.deepEqual(byCode, { 500: [1, 0, 1], 404: [1, 0, 1], 401: [2, 0, 2] });
      });

      it('charts hits per hour and per day (usage), and pages per-API activity', async () => {
        const total = 9;
        const hourly = await dashboard(acme, `/usage/apis/${today()}?resolution=hour&api_id=${ordersId}`);
        assert.equal(hourly.status, 200, hourly.text);
        assert.equal(
          hourly.json.data.reduce((sum: number, r: AnalyticsRecord) => sum + r.hits, 0),
          total,
        );
        const hours = [new Date(started).getUTCHours(), new Date().getUTCHours()];
        for (const record of hourly.json.data as AnalyticsRecord[])
          assert.ok(hours.includes(record.id.hour!), JSON.stringify(record.id));
        const daily = await dashboard(acme, `/usage/apis/${today()}?api_id=${ordersId}`);
        assert.equal(daily.json.data.length, 1);
        assert.equal(daily.json.data[0].hits, total);
        assert.equal(daily.json.data[0].id.hour, undefined);
        const apis = await dashboard(acme, `/activity/apis/${today()}?p=1`);
        assert.deepEqual(apis.json.data.map(counts), [
          { id: { api_id: ordersId, api_name: 'Orders' }, hits: total, success: 5, error: total - 5 },
        ]);
        assert.equal(apis.json.pages, 1);
        assert.deepEqual((await dashboard(acme, `/activity/apis/${today()}?p=2`)).json.data, []);
      });

      it('shows another organisation none of it, even by key hash', async () => {
        assert.deepEqual((await dashboard(globex, `/activity/apis/${today()}`)).json, { data: [], pages: 0 });
        assert.deepEqual((await dashboard(globex, `/activity/keys/endpoint/${aliceHash}/${today()}`)).json, {
          data: [],
          pages: 0,
        });
        assert.deepEqual((await dashboard(globex, `/usage/apis/${today()}`)).json, { data: [], pages: 0 });
      });

      it('needs the analytics permission', async () => {
        const user = await dashboard(acme, '/users', {
          method: 'POST',
          body: {
            email_address: 'no-analytics@acme.test',
            first_name: 'N',
            last_name: 'A',
            user_permissions: { apis: 'read' },
          },
        });
        assert.equal(user.status, 200, user.text);
        const res = await http(`${node.dashboardUrl}/api/activity/apis/${today()}`, {
          headers: { authorization: user.json.Meta.access_key },
        });
        assert.equal(res.status, 403);
        assert.equal(res.json.Message, "Access denied: this needs the 'analytics' permission at level 'read'");
      });
    });

    describe('traffic with an OAuth access token', () => {
      it("groups an OAuth client's requests per endpoint and totals them per day", async () => {
        const apiId = await createOAuthApi(dashboardOf(node.dashboardUrl, acme), 'OAuthed', '/oauthed', upstream.url);
        const policy = await dashboard(acme, '/portal/policies', {
          method: 'POST',
          body: {
            name: 'apps',
            rate: 1000,
            per: 60,
            quota_max: -1,
            access_rights: { [apiId]: { api_id: apiId, versions: [] } },
          },
        });
        assert.equal(policy.status, 200, policy.text);
        const client = await dashboard(acme, `/apis/oauth/${apiId}`, {
          method: 'POST',
          body: { redirect_uri: REDIRECT_URI, policy_id: policy.json.Meta },
        });
        assert.equal(client.status, 200, client.text);
        const clientId = client.json.client_id as string;
        await eventually(async () => assert.equal((await gateway('/oauthed/ready')).status, 401), 5000);
        const token = await http(
          `${node.gatewayUrl}/oauthed/oauth/token`,
          form({ grant_type: 'client_credentials', client_id: clientId, client_secret: client.json.secret }),
        );
        assert.equal(token.status, 200, token.text);
        const bearer = { headers: { authorization: `Bearer ${token.json.access_token}` } };
        assert.equal((await gateway('/oauthed/things', bearer)).status, 200);
        assert.equal((await gateway('/oauthed/things', bearer)).status, 200);
        assert.equal((await gateway('/oauthed/boom', bearer)).status, 500);
        // /ready, /oauth/token and the three calls with the token
        await waitForHits(acme, apiId, 5);
        const endpoints = await dashboard(acme, `/activity/oauthid/endpoint/${clientId}/${today()}`);
        assert.equal(endpoints.status, 200, endpoints.text);
        const base = { api_id: apiId, api_name: 'OAuthed' };
        assert.deepEqual(endpoints.json.data.map(counts), [
          { id: { ...base, path: '/things', url: 'GET /things' }, hits: 2, success: 2, error: 0 },
          { id: { ...base, path: '/boom', url: 'GET /boom' }, hits: 1, success: 0, error: 1 },
        ]);
        const totals = await dashboard(acme, `/activity/oauthid/${clientId}/${today()}`);
        assert.deepEqual(
          totals.json.data.map((r: AnalyticsRecord) => [r.hits, r.success, r.error]),
          [[3, 2, 1]],
        );
        assert.deepEqual((await dashboard(globex, `/activity/oauthid/endpoint/${clientId}/${today()}`)).json, {
          data: [],
          pages: 0,
        });
      });
    });

    describe('bad input', () => {
      const cases: Array<[string, RegExp]> = [
        ['/activity/apis/31/2/2024/1/3/2024', /start date 31\/2\/2024 is not a valid date/],
        ['/activity/apis/1/13/2024/1/1/2025', /start date 1\/13\/2024/],
        ['/activity/apis/1/1/2024/x/1/2024', /end date x\/1\/2024/],
        ['/activity/keys/endpoint/abc/1/1/-5/1/1/2024', /start date 1\/1\/-5/],
        ['/activity/apis/2/1/2024/1/1/2024', /end date of the period is before its start date/],
        ['/usage/apis/1/1/2024/1/1/2024?resolution=week', /resolution must be 'hour' or 'day'/],
        ['/activity/apis/1/1/2024/1/1/2024?p=x', /Query parameter p must be an integer/],
      ];
      for (const [path, message] of cases) {
        it(`answers 400 with the envelope for ${path}`, async () => {
          const res = await dashboard(acme, path);
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.Status, 'Error');
          assert.equal(res.json.Meta, null);
          assert.match(res.json.Message, message);
        });
      }
    });

    describe('what is recorded', () => {
      it('records nothing for an API with do_not_track', async () => {
        const quiet = await createApi(acme, 'Quiet', '/quiet', { do_not_track: true });
        const loud = await createApi(acme, 'Loud', '/loud');
        assert.equal((await gateway('/quiet/a')).status, 200);
        assert.equal((await gateway('/loud/a')).status, 200);
        // Records leave in arrival order: once Loud's request (and its probe) show, Quiet's would have too.
        await waitForHits(acme, loud, 2);
        const res = await dashboard(acme, `/activity/apis/${today()}?p=0`);
        assert.equal(
          res.json.data.some((r: AnalyticsRecord) => r.id.api_id === quiet),
          false,
        );
        assert.deepEqual(await raw(acme.orgId, quiet), []);
      });

      it('tags a record with the value of each tag_headers header the request carries', async () => {
        const tagged = await createApi(acme, 'Tagged', '/tagged', { tag_headers: ['X-Team', 'X-Absent'] });
        assert.equal((await gateway('/tagged/a', { headers: { 'x-team': 'Payments' } })).status, 200);
        await eventually(async () => {
          const rows = (await raw(acme.orgId, tagged)).filter((row) => row.path === '/a');
          assert.deepEqual(
            rows.map((row) => row.tags),
            [['x-team-Payments']],
          );
        }, 5000);
      });

      it('skips do_not_track_endpoints and, with track_endpoints, counts only those per endpoint', async () => {
        const paths = await createApi(acme, 'Paths', '/paths', {
          version_data: {
            not_versioned: true,
            default_version: 'Default',
            versions: {
              Default: {
                name: 'Default',
                use_extended_paths: true,
                extended_paths: {
                  track_endpoints: [{ path: '/tracked', method: 'GET' }],
                  do_not_track_endpoints: [{ path: '/secret', method: 'GET' }],
                },
              },
            },
          },
        });
        for (const path of ['/tracked', '/tracked', '/other', '/secret'])
          assert.equal((await gateway(`/paths${path}`)).status, 200);
        // createApi's readiness probe (/ready) counts as an untracked request.
        await waitForHits(acme, paths, 4);
        const endpoints = await dashboard(acme, `/activity/endpoints/${today()}?api_id=${paths}`);
        assert.deepEqual(endpoints.json.data.map(counts), [
          {
            id: { api_id: paths, api_name: 'Paths', path: '/tracked', url: 'GET /tracked' },
            hits: 2,
            success: 2,
            error: 0,
          },
        ]);
        assert.deepEqual((await raw(acme.orgId, paths)).map((row) => [row.path, row.track_path]).sort(), [
          ['/other', false],
          ['/ready', false],
          ['/tracked', true],
          ['/tracked', true],
        ]);
      });

      it('removes raw records after expire_analytics_after and keeps the aggregates', async () => {
        const brief = await createApi(acme, 'Brief', '/brief', { expire_analytics_after: 1 });
        const kept = await createApi(acme, 'Kept', '/kept');
        assert.equal((await gateway('/brief/a')).status, 200);
        assert.equal((await gateway('/kept/a')).status, 200);
        const rowsOf = async (apiId: string) => (await raw(acme.orgId, apiId)).length;
        await eventually(async () => assert.equal(await rowsOf(brief), 2), 5000);
        await eventually(async () => assert.equal(await rowsOf(brief), 0), 5000);
        assert.equal(await rowsOf(kept), 2);
        await waitForHits(acme, brief, 2);
      });
    });
  });
}
