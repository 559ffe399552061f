import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';
import { accounts, products, reviews } from '../unit/graphql/federation/benchmark-subgraphs';

/**
 * Federation definitions end to end (docs/federation.md): subgraph and supergraph APIs
 * saved through the dashboard API, composed on save, refused with every error, kept in step
 * when a subgraph changes, internal subgraphs, and organisations kept apart.
 */
for (const store of STORE_VARIANTS)
  describe(`federation: subgraph and supergraph definitions on ${store.name}`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let upstream: Upstream;
    let acme: Tenant;
    let globex: Tenant;
    const ids: Record<string, string> = {};
    const api = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const subgraphApi = (name: string, sdl: string, extra: Record<string, unknown> = {}) =>
      keylessApi(name, `/${name}/`, upstream.url, {
        graphql: { enabled: true, execution_mode: 'subgraph', schema: sdl, subgraph: { sdl } },
        ...extra,
      });
    // As the reference gateway stores a supergraph: no target of its own.
    const supergraphApi = (name: string, subgraphs: unknown[]) =>
      keylessApi(name, `/${name}/`, '', {
        graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs, global_headers: {} } },
      });
    const gql = (path: string, query: string) => http(`${node.gatewayUrl}${path}`, { method: 'POST', body: { query } });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-fed-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
      for (const [name, sdl] of [
        ['accounts', accounts],
        ['products', products],
        ['reviews', reviews],
      ]) {
        const res = await api(acme, '/apis', { method: 'POST', body: subgraphApi(name, sdl) });
        assert.equal(res.status, 200, res.text);
        ids[name] = res.json.ID;
      }
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await upstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it('stores subgraph APIs as internal and does not serve them on their listen path; internal: false serves one', async () => {
      const stored = await api(acme, `/apis/${ids.accounts}`);
      assert.equal(stored.json.api_definition.internal, true);
      const exposed = await api(acme, '/apis', {
        method: 'POST',
        body: subgraphApi('exposed', accounts, { internal: false }),
      });
      assert.equal(exposed.status, 200, exposed.text);
      const served = await eventually(async () => {
        const res = await gql('/exposed/', '{ _service { sdl } me { id } }');
        assert.equal(res.status, 200, res.text);
        return res;
      }, 5000);
      assert.deepEqual(
        JSON.parse(served.json.body),
        { query: '{ _service { sdl } me { id } }' },
        'the exposed subgraph is proxied, validated against the schema it serves',
      );
      const before = upstream.received.length;
      const internal = await gql('/accounts/', '{ me { id } }');
      assert.equal(internal.status, 404);
      assert.equal(upstream.received.length, before, 'nothing reached the upstream');
    });

    it('composes a supergraph on save: merged_sdl stored, the gateway validates operations against it and executes them', async () => {
      const res = await api(acme, '/apis', {
        method: 'POST',
        body: supergraphApi('shop', [
          { api_id: ids.accounts, name: 'accounts' },
          { url: `gw://products`, name: 'products' },
          { api_id: ids.reviews, name: 'reviews' },
        ]),
      });
      assert.equal(res.status, 200, res.text);
      ids.shop = res.json.ID;
      const stored = (await api(acme, `/apis/${ids.shop}`)).json.api_definition.graphql.supergraph;
      assert.match(
        stored.merged_sdl,
        /type Product {\n {2}upc: String!\n {2}name: String\n {2}price: Int\n {2}weight: Int\n {2}reviews: \[Review\]\n}/,
      );
      assert.deepEqual(
        stored.subgraphs.map((s: { name: string; sdl: string }) => [s.name, s.sdl]),
        [
          ['accounts', accounts],
          ['products', products],
          ['reviews', reviews],
        ],
      );

      const before = upstream.received.length;
      const valid = await eventually(async () => {
        const answer = await gql('/shop/', '{ topProducts { name reviews { body } } }');
        assert.equal(answer.status, 200, answer.text);
        return answer;
      }, 5000);
      // the subgraph APIs' target here is no GraphQL server: the products fetch fails, and only its field is null
      assert.deepEqual(valid.json.data, { topProducts: null });
      assert.ok(
        upstream.received.slice(before).some((r) => r.method === 'POST' && r.body.includes('topProducts')),
        'the products subgraph was queried',
      );
      const afterValid = upstream.received.length;
      const invalid = await gql('/shop/', '{ topProducts { _entities } }');
      assert.equal(invalid.status, 400);
      assert.match(invalid.json.errors[0].message, /Cannot query field "_entities" on type "Product"/);
      assert.equal(upstream.received.length, afterValid, 'an invalid operation reaches no subgraph');
    });

    it('accepts an empty target_url only on a supergraph', async () => {
      const res = await api(acme, '/apis', { method: 'POST', body: keylessApi('no-target', '/no-target/', '') });
      assert.equal(res.status, 400);
      assert.equal(res.json.Message, "proxy.target_url '' is not a valid URL");
    });

    it('refuses a supergraph that does not compose with a 400 envelope listing every error, storing nothing', async () => {
      const clash = await api(acme, '/apis', {
        method: 'POST',
        body: subgraphApi(
          'clash',
          'extend type Query { me: String } extend type Post @key(fields: "id") { id: ID! @external title: String }',
        ),
      });
      assert.equal(clash.status, 200, clash.text);
      const res = await api(acme, '/apis', {
        method: 'POST',
        body: supergraphApi('broken', [
          { api_id: ids.accounts, name: 'accounts' },
          { url: 'gw://clash', name: 'clash' },
        ]),
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, {
        Status: 'Error',
        Message: `Federation failed: the subgraphs of supergraph 'broken' do not compose (2 errors)`,
        Meta: null,
        Errors: [
          `Root field 'Query.me' is defined in subgraphs 'accounts' and 'clash'; in federation v1 each root field belongs to exactly one subgraph: rename or remove it in all but one`,
          `Type 'Post' is extended in subgraph 'clash' but defined in no subgraph (extension orphan); define 'Post' in exactly one subgraph`,
        ],
      });
      assert.equal((await api(acme, '/apis?q=broken')).json.apis.length, 0);
    });

    it('updates merged_sdl when a subgraph changes, and the gateway serves the new composition', async () => {
      const changed = accounts.replace('username: String', 'username: String\n  email: String');
      const res = await api(acme, `/apis/${ids.accounts}`, {
        method: 'PUT',
        body: subgraphApi('accounts', changed, { api_id: ids.accounts }),
      });
      assert.equal(res.status, 200, res.text);
      const stored = (await api(acme, `/apis/${ids.shop}`)).json.api_definition.graphql.supergraph;
      assert.match(stored.merged_sdl, /email: String/);
      await eventually(async () => assert.equal((await gql('/shop/', '{ me { email } }')).status, 200), 5000);
    });

    it('refuses a subgraph change that breaks a supergraph, which keeps its last good composition', async () => {
      const keyless = accounts.replace('type User @key(fields: "id")', 'type User');
      const res = await api(acme, `/apis/${ids.accounts}`, {
        method: 'PUT',
        body: subgraphApi('accounts', keyless, { api_id: ids.accounts }),
      });
      assert.equal(res.status, 400);
      assert.equal(res.json.Message, `Federation failed: the subgraphs of supergraph 'shop' do not compose (2 errors)`);
      assert.equal(
        res.json.Errors[0],
        `Supergraph 'shop': Subgraph 'reviews' extends type 'User' with @key, but 'User' is not an entity: its definition in subgraph 'accounts' has no @key`,
      );
      assert.match(
        (await api(acme, `/apis/${ids.shop}`)).json.api_definition.graphql.supergraph.merged_sdl,
        /email: String/,
      );
    });

    it('a supergraph can not name a subgraph API of another organisation', async () => {
      const res = await api(globex, '/apis', {
        method: 'POST',
        body: supergraphApi('stolen', [
          { api_id: ids.accounts, name: 'accounts' },
          { url: 'gw://products', name: 'products' },
        ]),
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json.Errors, [
        `Subgraph 'accounts': there is no API '${ids.accounts}' in your organisation`,
        `Subgraph 'products': there is no API 'products' in your organisation`,
      ]);
    });
  });
