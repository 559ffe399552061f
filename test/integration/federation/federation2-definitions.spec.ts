import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  lexicographicSortSchema,
  printSchema,
  type GraphQLSchema,
} from 'graphql';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import type { RunningSubgraph } from '../../support/federation-subgraphs';
import {
  FEDERATION2_NAMES,
  FEDERATION2_SDL,
  startFederation2Subgraphs,
  type Federation2Name,
} from '../../support/federation2-subgraphs';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STORE_VARIANTS } from '../../support/stores';

const FEDERATION_2_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])';

/**
 * Federation 2 subgraph and supergraph APIs saved through the dashboard API: composed on save
 * into the client schema, refused with the composition library's errors (nothing stored then),
 * and kept in step when a subgraph changes. The subgraph APIs' targets are real subgraphs.
 */
for (const store of STORE_VARIANTS)
  describe(`federation 2: subgraph and supergraph definitions on ${store.name}`, function () {
    this.timeout(20_000);
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let subgraphs: Record<Federation2Name, RunningSubgraph>;
    let acme: Tenant;
    const ids: Partial<Record<string, string>> = {};
    const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: acme.headers });
    const subgraphApi = (name: string, sdl: string, targetUrl: string, extra: Record<string, unknown> = {}) =>
      keylessApi(name, `/${name}/`, targetUrl, {
        graphql: { enabled: true, execution_mode: 'subgraph', subgraph: { sdl } },
        ...extra,
      });
    const supergraphApi = (name: string, entries: unknown[], extra: Record<string, unknown> = {}) =>
      keylessApi(name, `/${name}/`, '', {
        graphql: {
          enabled: true,
          execution_mode: 'supergraph',
          supergraph: { subgraphs: entries, global_headers: {} },
        },
        ...extra,
      });
    const shopEntries = () =>
      FEDERATION2_NAMES.map((name) => (name === 'media' ? { name, url: 'gw://media' } : { name, api_id: ids[name] }));
    const storedSupergraph = async (id: string) => (await api(`/apis/${id}`)).json.api_definition.graphql.supergraph;
    const gql = (path: string, query: string) => http(`${node.gatewayUrl}${path}`, { method: 'POST', body: { query } });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-fed2-'));
      database = await store.open(dataDir);
      subgraphs = await startFederation2Subgraphs();
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      for (const name of FEDERATION2_NAMES) {
        const saved = await api('/apis', {
          method: 'POST',
          body: subgraphApi(name, FEDERATION2_SDL[name], subgraphs[name].url),
        });
        assert.equal(saved.status, 200, saved.text);
        ids[name] = saved.json.ID;
      }
      const shop = await api('/apis', { method: 'POST', body: supergraphApi('shop', shopEntries()) });
      assert.equal(shop.status, 200, shop.text);
      ids.shop = shop.json.ID;
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await Promise.all(Object.values(subgraphs).map((subgraph) => subgraph.stop()));
      await database.cleanup();
      removeDir(node.dataDir);
    });

    it('stores as merged_sdl the client schema the gateway serves: no join__ or link__ parts, no @inaccessible field', async () => {
      const supergraph = await storedSupergraph(ids.shop!);
      const introspection = await eventually(async () => {
        const res = await gql('/shop/', getIntrospectionQuery());
        assert.equal(res.status, 200, res.text);
        return res.json;
      }, 5000);
      // the same types and fields; the planner's schema, which answers introspection, orders them its own way
      const sorted = (schema: GraphQLSchema) => printSchema(lexicographicSortSchema(schema));
      assert.equal(sorted(buildSchema(supergraph.merged_sdl)), sorted(buildClientSchema(introspection.data)));
      assert.doesNotMatch(supergraph.merged_sdl, /join__|link__|@link|@inaccessible|@shareable|@override/);
      assert.match(supergraph.merged_sdl, /type User {\n {2}name: String!\n {2}id: ID!\n}/, 'no email');
      assert.match(
        supergraph.merged_sdl,
        /interface Media {\n {2}id: ID!\n {2}title: String!\n {2}reviewCount: Int!\n}/,
      );
      assert.deepEqual(
        supergraph.subgraphs.map((entry: { name: string; sdl: string }) => [entry.name, entry.sdl]),
        FEDERATION2_NAMES.map((name) => [name, FEDERATION2_SDL[name]]),
        "each entry carries its subgraph API's SDL",
      );
      const answer = await gql('/shop/', '{ me { name } topProducts(first: 1) { name inStock } }');
      assert.deepEqual(answer.json, {
        data: { me: { name: 'Ada Lovelace' }, topProducts: [{ name: 'Table', inStock: true }] },
      });
    });

    it('refuses a supergraph whose subgraphs both resolve a non-@shareable field, naming the field and both subgraphs, and stores nothing', async () => {
      const catalog = await api('/apis', {
        method: 'POST',
        body: subgraphApi(
          'catalog',
          `${FEDERATION_2_LINK} type Product @key(fields: "upc") { upc: String! weight: Int! }`,
          subgraphs.products.url,
        ),
      });
      assert.equal(catalog.status, 200, catalog.text);
      const expected = {
        Status: 'Error',
        Meta: null,
        Errors: [
          'Non-shareable field "Product.weight" is resolved from multiple subgraphs: it is resolved from subgraphs "catalog" and "products" and defined as non-shareable in all of them',
        ],
      };

      const created = await api('/apis', {
        method: 'POST',
        body: supergraphApi('clash', [
          { name: 'products', api_id: ids.products },
          { name: 'catalog', url: 'gw://catalog' },
        ]),
      });
      assert.equal(created.status, 400);
      assert.deepEqual(created.json, {
        ...expected,
        Message: `Federation failed: the subgraphs of supergraph 'clash' do not compose (1 error)`,
      });
      assert.equal((await api('/apis?q=clash')).json.apis.length, 0);

      const before = await storedSupergraph(ids.shop!);
      const extended = await api(`/apis/${ids.shop}`, {
        method: 'PUT',
        body: supergraphApi('shop', [...shopEntries(), { name: 'catalog', url: 'gw://catalog' }]),
      });
      assert.equal(extended.status, 400);
      assert.deepEqual(extended.json, {
        ...expected,
        Message: `Federation failed: the subgraphs of supergraph 'shop' do not compose (1 error)`,
      });
      assert.deepEqual(await storedSupergraph(ids.shop!), before, 'the supergraph is unchanged');
    });

    it('refuses a subgraph API whose Federation 2 SDL breaks a subgraph rule, naming it', async () => {
      const broken = FEDERATION2_SDL.products.replace('@key(fields: "upc")', '@key(fields: "sku")');
      const res = await api('/apis', {
        method: 'POST',
        body: subgraphApi('broken-products', broken, subgraphs.products.url),
      });
      assert.equal(res.status, 400);
      assert.equal(res.json.Message, 'Invalid GraphQL schema');
      assert.deepEqual(res.json.Errors, [
        '[broken-products] On type "Product", for @key(fields: "sku"): Cannot query field "sku" on type "Product" (the field should either be added to this subgraph or, if it should not be resolved by this subgraph, you need to add it to this subgraph with @external).',
      ]);
      assert.equal((await api('/apis?q=broken-products')).json.apis.length, 0);
    });

    it('refuses a subgraph change that breaks the supergraph using it, which keeps its composition', async () => {
      const before = await storedSupergraph(ids.shop!);
      const res = await api(`/apis/${ids.users}`, {
        method: 'PUT',
        body: subgraphApi(
          'users',
          FEDERATION2_SDL.users.replace('name: String! @shareable', 'name: Int @shareable'),
          subgraphs.users.url,
        ),
      });
      assert.equal(res.status, 400);
      assert.equal(res.json.Message, `Federation failed: the subgraphs of supergraph 'shop' do not compose (2 errors)`);
      assert.deepEqual(res.json.Errors, [
        `Supergraph 'shop': Type of field "User.name" is incompatible across subgraphs: it has type "String!" in subgraph "reviews" but type "Int" in subgraph "users"`,
        `Supergraph 'shop': Type of field "User.name" is incompatible across subgraphs (where marked @external): it has type "Int" in subgraph "users" but type "String!" in subgraph "reviews"`,
      ]);
      assert.equal(
        (await api(`/apis/${ids.users}`)).json.api_definition.graphql.subgraph.sdl,
        FEDERATION2_SDL.users,
        'the subgraph API is unchanged',
      );
      assert.deepEqual(await storedSupergraph(ids.shop!), before, 'the supergraph is unchanged');
    });

    it('updates merged_sdl when a subgraph change keeps the supergraph composing, and the gateway serves it', async () => {
      const visibleEmail = FEDERATION2_SDL.users.replace('email: String! @inaccessible', 'email: String!');
      const res = await api(`/apis/${ids.users}`, {
        method: 'PUT',
        body: subgraphApi('users', visibleEmail, subgraphs.users.url),
      });
      assert.equal(res.status, 200, res.text);
      const supergraph = await storedSupergraph(ids.shop!);
      assert.match(supergraph.merged_sdl, /type User {\n {2}name: String!\n {2}id: ID!\n {2}email: String!\n}/);
      assert.equal(supergraph.subgraphs.find((entry: { name: string }) => entry.name === 'users').sdl, visibleEmail);
      const answer = await eventually(async () => {
        const res = await gql('/shop/', '{ me { email } }');
        assert.equal(res.status, 200, res.text);
        return res;
      }, 5000);
      assert.deepEqual(answer.json, { data: { me: { email: 'ada@example.com' } } });
    });
  });
