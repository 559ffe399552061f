import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyticsRecord } from '../../contracts/analytics/actions';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { countryMmdb } from '../support/mmdb';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

const GB = '81.2.69.160';
const FR = '2.125.160.216';

/** Today (UTC) as the day/month/year path parts of an activity period, twice. */
function today(): string {
  const now = new Date();
  const day = `${now.getUTCDate()}/${now.getUTCMonth() + 1}/${now.getUTCFullYear()}`;
  return `${day}/${day}`;
}

/** The fields of a record a test can know exactly (latencies vary). */
const counts = (record: AnalyticsRecord) => ({
  id: record.id,
  hits: record.hits,
  success: record.success,
  error: record.error,
});

for (const store of STORE_VARIANTS) {
  describe(`analytics: requests per country, /api/activity/geo (${store.name})`, () => {
    let node: TestNode;
    let upstream: Upstream;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    let shopId: string;
    let mapsId: string;
    let otherId: string;
    const dashboard = (tenant: Tenant, path: string) =>
      http(`${node.dashboardUrl}/api${path}`, { headers: tenant.headers });
    const from = (ip: string | undefined, path: string) =>
      http(`${node.gatewayUrl}${path}`, { headers: ip ? { 'x-real-ip': ip } : {} });
    const createApi = async (tenant: Tenant, name: string, listenPath: string) => {
      const res = await http(`${node.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi(name, listenPath, upstream.url),
      });
      assert.equal(res.status, 200, res.text);
      // The probes come from 127.0.0.1, a country the database does not know: never counted per country.
      await eventually(async () => assert.equal((await from(undefined, `${listenPath}/ready`)).status, 200), 5000);
      return res.json.ID as string;
    };
    const hitsPerApi = async (tenant: Tenant) =>
      Object.fromEntries(
        (await dashboard(tenant, `/activity/apis/${today()}?p=0`)).json.data.map((r: AnalyticsRecord) => [
          r.id.api_id,
          r.hits,
        ]),
      );

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-analytics-geo-'));
      database = await store.open(dataDir);
      const geoipDb = join(dataDir, 'countries.mmdb');
      writeFileSync(geoipDb, countryMmdb({ '81.2.69.0/24': 'GB', '2.125.160.0/20': 'FR' }));
      upstream = await startUpstream();
      upstream.respondWith((req, res) => {
        res.writeHead(req.url?.endsWith('/boom') ? 500 : 200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
      node = await startTestNode({ dataDir, databaseUrl: database.url, geoipDb, analyticsFlushInterval: 0.05 });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
      shopId = await createApi(acme, 'Shop', '/shop');
      mapsId = await createApi(acme, 'Maps', '/maps');
      otherId = await createApi(globex, 'Other', '/other');
      const sent = [
        ...[GB, GB, FR, FR, undefined].map((ip) => from(ip, '/shop/items')),
        from(GB, '/shop/boom'),
        from(GB, '/maps/tiles'),
        ...[FR, FR, FR, FR].map((ip) => from(ip, '/other/x')),
      ];
      await Promise.all(sent);
      // Every request (and each API's last readiness probe) has reached the aggregates.
      await eventually(async () => {
        assert.deepEqual(await hitsPerApi(acme), { [shopId]: 7, [mapsId]: 2 });
        assert.deepEqual(await hitsPerApi(globex), { [otherId]: 5 });
      }, 5000);
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it("counts an organisation's requests per country, busiest first, without those of unknown country", async () => {
      const res = await dashboard(acme, `/activity/geo/${today()}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.data.map(counts), [
        { id: { iso_country: 'GB' }, hits: 4, success: 3, error: 1 },
        { id: { iso_country: 'FR' }, hits: 2, success: 2, error: 0 },
      ]);
      assert.equal(res.json.pages, 1);
      assert.equal(typeof res.json.data[0].latency, 'number');
      assert.match(res.json.data[0].last_hit, /^\d{4}-\d{2}-\d{2}T/);
    });

    it('counts one API per country with ?api_id, and pages with ?p', async () => {
      const shop = await dashboard(acme, `/activity/geo/${today()}?api_id=${shopId}`);
      assert.deepEqual(shop.json.data.map(counts), [
        { id: { iso_country: 'GB' }, hits: 3, success: 2, error: 1 },
        { id: { iso_country: 'FR' }, hits: 2, success: 2, error: 0 },
      ]);
      const maps = await dashboard(acme, `/activity/geo/${today()}?api_id=${mapsId}`);
      assert.deepEqual(maps.json.data.map(counts), [{ id: { iso_country: 'GB' }, hits: 1, success: 1, error: 0 }]);
      assert.deepEqual((await dashboard(acme, `/activity/geo/${today()}?p=2`)).json.data, []);
    });

    it("shows one country's requests over time (per day, or per hour with ?resolution=hour)", async () => {
      const now = new Date();
      const day = { day: now.getUTCDate(), month: now.getUTCMonth() + 1, year: now.getUTCFullYear() };
      const daily = await dashboard(acme, `/activity/geo/gb/${today()}`);
      assert.equal(daily.status, 200, daily.text);
      assert.deepEqual(daily.json.data.map(counts), [
        { id: { ...day, iso_country: 'GB' }, hits: 4, success: 3, error: 1 },
      ]);
      const hourly = await dashboard(acme, `/activity/geo/FR/${today()}?resolution=hour`);
      assert.equal(
        hourly.json.data.reduce((sum: number, r: AnalyticsRecord) => sum + r.hits, 0),
        2,
      );
      for (const record of hourly.json.data as AnalyticsRecord[]) assert.equal(typeof record.id.hour, 'number');
      assert.deepEqual((await dashboard(acme, `/activity/geo/DE/${today()}`)).json, { data: [], pages: 0 });
    });

    it('shows another organisation only its own countries', async () => {
      const res = await dashboard(globex, `/activity/geo/${today()}`);
      assert.deepEqual(res.json.data.map(counts), [{ id: { iso_country: 'FR' }, hits: 4, success: 4, error: 0 }]);
      assert.deepEqual((await dashboard(globex, `/activity/geo/GB/${today()}`)).json, { data: [], pages: 0 });
    });

    it('answers the same through the dashboard GraphQL API (activityByCountry)', async () => {
      const date = new Date().toISOString().slice(0, 10);
      const res = await http(`${node.dashboardUrl}/graphql`, {
        method: 'POST',
        headers: acme.headers,
        body: {
          query: `{ activityByCountry(from: "${date}", to: "${date}", apiId: "${shopId}") { items { id { isoCountry apiId } hits error } pages } }`,
        },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, {
        data: {
          activityByCountry: {
            items: [
              { id: { isoCountry: 'GB', apiId: null }, hits: 3, error: 1 },
              { id: { isoCountry: 'FR', apiId: null }, hits: 2, error: 0 },
            ],
            pages: 1,
          },
        },
      });
    });

    it('answers 400 with the envelope for a country that is not an ISO code', async () => {
      for (const path of [`/activity/geo/GBR/${today()}`, `/activity/geo/1/1/1/2024/1/1/2024`]) {
        const res = await dashboard(acme, path);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json, { Status: 'Error', Message: res.json.Message, Meta: null });
        assert.match(res.json.Message, /The country must be an ISO 3166-1 alpha-2 code/);
      }
    });
  });
}
