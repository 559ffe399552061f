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
import { startUpstream, type Upstream } from '../support/upstream';

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
  describe(`analytics: top keys and top OAuth clients of a period (${store.name})`, () => {
    let node: TestNode;
    let upstream: Upstream;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    const keys: Record<string, { key: string; hash: string }> = {};
    const clients: Record<string, string> = {};
    let ordersId: string;
    const dashboard = (tenant: Tenant, path: string) =>
      http(`${node.dashboardUrl}/api${path}`, { headers: tenant.headers });
    const gateway = (path: string, headers: Record<string, string> = {}) =>
      http(`${node.gatewayUrl}${path}`, { headers });
    const waitForHits = (apiId: string, hits: number) =>
      eventually(async () => {
        const res = await dashboard(acme, `/activity/apis/${today()}?p=0`);
        assert.equal(res.json.data.find((record: AnalyticsRecord) => record.id.api_id === apiId)?.hits, hits, res.text);
      }, 5000);

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-analytics-top-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      upstream.respondWith((req, res) => {
        res.writeHead(req.url.endsWith('/boom') ? 500 : 200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
      // Two to a page, so three keys fill two pages.
      node = await startTestNode({ dataDir, databaseUrl: database.url, analyticsFlushInterval: 0.05, pageSize: 2 });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
      const acmeCall = dashboardOf(node.dashboardUrl, acme);

      const api = await acmeCall('/apis', {
        method: 'POST',
        body: keylessApi('Orders', '/orders', upstream.url, { use_keyless: false }),
      });
      assert.equal(api.status, 200, api.text);
      ordersId = api.json.ID as string;
      await eventually(async () => assert.equal((await gateway('/orders/ready')).status, 401), 5000);
      for (const alias of ['alice', 'bob', 'carol']) {
        const res = await acmeCall('/keys', {
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
        keys[alias] = { key: res.json.key_id, hash: res.json.key_hash };
      }
      const send = async (alias: string, path: string, times: number, status: number) => {
        for (let i = 0; i < times; i++)
          assert.equal((await gateway(`/orders${path}`, { authorization: keys[alias].key })).status, status);
      };
      await send('alice', '/items', 3, 200);
      await send('alice', '/boom', 1, 500);
      await send('bob', '/items', 2, 200);
      await send('carol', '/items', 1, 200);
      await send('carol', '/boom', 1, 500);
      // 1 probe without a key, 4 + 2 + 2 with one
      await waitForHits(ordersId, 9);

      const oauthId = await createOAuthApi(acmeCall, 'Apps', '/apps', upstream.url);
      const policy = await acmeCall('/portal/policies', {
        method: 'POST',
        body: {
          name: 'apps',
          rate: 1000,
          per: 60,
          quota_max: -1,
          access_rights: { [oauthId]: { api_id: oauthId, versions: [] } },
        },
      });
      assert.equal(policy.status, 200, policy.text);
      await eventually(async () => assert.equal((await gateway('/apps/ready')).status, 401), 5000);
      let requests = 1;
      for (const [name, calls] of [
        ['first', 1],
        ['second', 2],
      ] as const) {
        const client = await acmeCall(`/apis/oauth/${oauthId}`, {
          method: 'POST',
          body: { redirect_uri: REDIRECT_URI, policy_id: policy.json.Meta },
        });
        assert.equal(client.status, 200, client.text);
        clients[name] = client.json.client_id;
        const token = await http(
          `${node.gatewayUrl}/apps/oauth/token`,
          form({
            grant_type: 'client_credentials',
            client_id: client.json.client_id,
            client_secret: client.json.secret,
          }),
        );
        assert.equal(token.status, 200, token.text);
        for (let i = 0; i < calls; i++)
          assert.equal(
            (await gateway('/apps/things', { authorization: `Bearer ${token.json.access_token}` })).status,
            200,
          );
        requests += 1 + calls;
      }
      await waitForHits(oauthId, requests);
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it('lists every key of an API in the period busiest first (ties by hash), two to a page, without keyless requests', async () => {
      const [second, third] = [keys.bob.hash, keys.carol.hash].sort();
      const alias = (hash: string) => (hash === keys.bob.hash ? 'bob' : 'carol');
      const expected = [
        { id: { key: keys.alice.hash, alias: 'alice' }, hits: 4, success: 3, error: 1 },
        {
          id: { key: second, alias: alias(second) },
          hits: 2,
          success: second === keys.bob.hash ? 2 : 1,
          error: second === keys.bob.hash ? 0 : 1,
        },
        {
          id: { key: third, alias: alias(third) },
          hits: 2,
          success: third === keys.bob.hash ? 2 : 1,
          error: third === keys.bob.hash ? 0 : 1,
        },
      ];
      const first = await dashboard(acme, `/activity/keys/${today()}?api_id=${ordersId}`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(
        { data: first.json.data.map(counts), pages: first.json.pages },
        { data: expected.slice(0, 2), pages: 2 },
      );
      const [alice] = first.json.data as AnalyticsRecord[];
      assert.ok(
        alice.min_latency > 0 && alice.min_latency <= alice.latency && alice.latency <= alice.max_latency,
        JSON.stringify(alice),
      );
      const page2 = await dashboard(acme, `/activity/keys/${today()}?api_id=${ordersId}&p=2`);
      assert.deepEqual(
        { data: page2.json.data.map(counts), pages: page2.json.pages },
        { data: expected.slice(2), pages: 2 },
      );
      assert.deepEqual((await dashboard(acme, `/activity/keys/${today()}?api_id=${ordersId}&p=3`)).json, {
        data: [],
        pages: 2,
      });
      const all = await dashboard(acme, `/activity/keys/${today()}?api_id=${ordersId}&p=0`);
      assert.deepEqual(all.json.data.map(counts), expected);
    });

    it('counts OAuth access tokens as keys too (the reference dashboard lists every token it saw)', async () => {
      const res = await dashboard(acme, `/activity/keys/${today()}?p=0`);
      assert.equal(res.status, 200, res.text);
      // alice 4, the second client's token 2, bob 2, carol 2, the first client's token 1
      assert.deepEqual(
        res.json.data.map((record: AnalyticsRecord) => record.hits),
        [4, 2, 2, 2, 1],
      );
      assert.equal(res.json.pages, 3);
      const aliases = res.json.data.map((record: AnalyticsRecord) => record.id.alias);
      assert.deepEqual(aliases.filter((alias: string) => alias !== '').sort(), ['alice', 'bob', 'carol']);
    });

    it('lists every OAuth client of the period busiest first', async () => {
      const res = await dashboard(acme, `/activity/oauthid/${today()}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.data.map(counts), [
        { id: { oauth_client_id: clients.second }, hits: 2, success: 2, error: 0 },
        { id: { oauth_client_id: clients.first }, hits: 1, success: 1, error: 0 },
      ]);
      assert.equal(res.json.pages, 1);
    });

    it('answers the same through the dashboard GraphQL API (activityByKey, activityByOAuthClient)', async () => {
      const date = new Date().toISOString().slice(0, 10);
      const res = await http(`${node.dashboardUrl}/graphql`, {
        method: 'POST',
        headers: acme.headers,
        body: {
          query: `{
            keys: activityByKey(from: "${date}", to: "${date}", apiId: "${ordersId}") { items { id { key alias } hits error } pages }
            clients: activityByOAuthClient(from: "${date}", to: "${date}") { items { id { oauthClientId } hits } pages }
            tooLong: activityByKey(from: "2024-01-01", to: "2025-01-01") { pages }
          }`,
        },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.data.keys.items[0], {
        id: { key: keys.alice.hash, alias: 'alice' },
        hits: 4,
        error: 1,
      });
      assert.equal(res.json.data.keys.pages, 2);
      assert.deepEqual(res.json.data.clients, {
        items: [
          { id: { oauthClientId: clients.second }, hits: 2 },
          { id: { oauthClientId: clients.first }, hits: 1 },
        ],
        pages: 1,
      });
      assert.equal(res.json.data.tooLong, null);
      assert.match(res.json.errors[0].message, /period is longer than 366 days/);
    });

    it('counts nothing before the period', async () => {
      const before = '1/1/2024/31/12/2024';
      assert.deepEqual((await dashboard(acme, `/activity/keys/${before}`)).json, { data: [], pages: 0 });
      assert.deepEqual((await dashboard(acme, `/activity/oauthid/${before}`)).json, { data: [], pages: 0 });
    });

    it('shows another organisation none of them', async () => {
      assert.deepEqual((await dashboard(globex, `/activity/keys/${today()}`)).json, { data: [], pages: 0 });
      assert.deepEqual((await dashboard(globex, `/activity/oauthid/${today()}`)).json, { data: [], pages: 0 });
    });

    it('needs the analytics permission', async () => {
      const user = await http(`${node.dashboardUrl}/api/users`, {
        method: 'POST',
        headers: acme.headers,
        body: {
          email_address: 'apis-only@acme.test',
          first_name: 'A',
          last_name: 'O',
          user_permissions: { apis: 'read' },
        },
      });
      assert.equal(user.status, 200, user.text);
      for (const view of ['keys', 'oauthid']) {
        const res = await http(`${node.dashboardUrl}/api/activity/${view}/${today()}`, {
          headers: { authorization: user.json.Meta.access_key },
        });
        assert.equal(res.status, 403, res.text);
        assert.equal(res.json.Message, "Access denied: this needs the 'analytics' permission at level 'read'");
      }
    });

    describe('bad input', () => {
      const cases: Array<[string, RegExp]> = [
        ['/activity/keys/31/2/2024/1/3/2024', /start date 31\/2\/2024 is not a valid date/],
        ['/activity/oauthid/1/1/2024/x/1/2024', /end date x\/1\/2024/],
        ['/activity/keys/2/1/2024/1/1/2024', /end date of the period is before its start date/],
        ['/activity/keys/1/1/2024/1/1/2025', /period is longer than 366 days/],
        ['/activity/oauthid/1/1/2020/1/1/2026', /period is longer than 366 days/],
        ['/activity/apis/1/1/2023/2/1/2024', /period is longer than 366 days/],
        ['/activity/keys/1/1/2024/1/1/2024?p=x', /Query parameter p must be an integer/],
      ];
      for (const [path, message] of cases) {
        it(`answers 400 with the envelope for ${path}`, async () => {
          const res = await dashboard(acme, path);
          assert.equal(res.status, 400, res.text);
          assert.deepEqual([res.json.Status, res.json.Meta], ['Error', null]);
          assert.match(res.json.Message, message);
        });
      }

      it('accepts a whole leap year (366 days)', async () => {
        const res = await dashboard(acme, '/activity/keys/1/1/2024/31/12/2024');
        assert.equal(res.status, 200, res.text);
      });
    });
  });
}
