import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../../support/bootstrap';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';

const LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@override"])';
const PRODUCTS = `${LINK}
  type Query { product(id: ID!): Product }
  type Product @key(fields: "id") { id: ID! name: String! @shareable price(currency: String = "EUR"): Int @shareable }
  enum Colour { RED GREEN }`;
const INVENTORY = `${LINK}
  type Product @key(fields: "id") { id: ID! name: String @shareable price(currency: String): Int @shareable
    stock: Int @override(from: "warehouse") }`;

/**
 * Composition hints on save: a Federation 2 supergraph saved through the dashboard API (and the
 * gateway API) answers with its hints and keeps them beside merged_sdl; a set that does not
 * compose is refused with one error per problem, each naming subgraph, type and field.
 */
describe('federation: composition hints and errors on save', function () {
  this.timeout(30_000);
  let node: TestNode;
  let acme: Tenant;
  const ids: Record<string, string> = {};
  const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: acme.headers });
  const subgraphApi = (name: string, sdl: string) =>
    keylessApi(name, `/${name}/`, `http://127.0.0.1:9/${name}`, {
      graphql: { enabled: true, execution_mode: 'subgraph', subgraph: { sdl } },
    });
  const supergraphApi = (name: string, entries: unknown[]) =>
    keylessApi(name, `/${name}/`, '', {
      graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs: entries } },
    });

  before(async () => {
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    for (const [name, sdl] of [
      ['products', PRODUCTS],
      ['inventory', INVENTORY],
    ] as const) {
      const saved = await api('/apis', { method: 'POST', body: subgraphApi(name, sdl) });
      assert.equal(saved.status, 200, saved.text);
      ids[name] = saved.json.ID;
    }
  });

  after(async () => {
    if (node) {
      await node.stop();
      removeDir(node.dataDir);
    }
  });

  it('answers the save with the hints, keeps them on the supergraph, and answers an update with the new ones', async () => {
    const created = await api('/apis', {
      method: 'POST',
      body: supergraphApi('shop', [
        { name: 'products', api_id: ids.products },
        { name: 'inventory', url: 'gw://inventory' },
      ]),
    });
    assert.equal(created.status, 200, created.text);
    const codes = (hints: Array<{ code: string }>) => hints.map((hint) => hint.code).sort();
    assert.deepEqual(codes(created.json.Hints), [
      'FROM_SUBGRAPH_DOES_NOT_EXIST',
      'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE',
      'INCONSISTENT_DEFAULT_VALUE_PRESENCE',
      'UNUSED_ENUM_TYPE',
    ]);
    const fieldType = created.json.Hints.find(
      (hint: { code: string }) => hint.code === 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE',
    );
    assert.deepEqual(fieldType, {
      code: 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE',
      message:
        'Type of field "Product.name" is inconsistent but compatible across subgraphs: the supergraph uses type "String" (as in subgraph "inventory"), but subgraph "products" declares "String!"',
      subgraphs: ['products', 'inventory'],
      type: 'Product',
      field: 'name',
    });

    const stored = await api(`/apis/${created.json.Meta}`);
    assert.equal(stored.status, 200, stored.text);
    const supergraph = stored.json.api_definition.graphql.supergraph;
    assert.deepEqual(supergraph.composition_hints, created.json.Hints);
    assert.match(supergraph.merged_sdl, /name: String\n/);

    // The enum used now: one hint fewer, in the update's answer and in the stored definition.
    const definition = stored.json.api_definition;
    const products = await api(`/apis/${ids.products}`);
    const usesColour = PRODUCTS.replace('name: String! @shareable', 'name: String! @shareable colour: Colour');
    products.json.api_definition.graphql.subgraph.sdl = usesColour;
    products.json.api_definition.graphql.schema = usesColour;
    const subgraphSaved = await api(`/apis/${ids.products}`, { method: 'PUT', body: products.json });
    assert.equal(subgraphSaved.status, 200, subgraphSaved.text);
    assert.equal(subgraphSaved.json.Hints, undefined, 'a subgraph save carries no hints');
    const updated = await api(`/apis/${created.json.Meta}`, { method: 'PUT', body: { api_definition: definition } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(codes(updated.json.Hints), [
      'FROM_SUBGRAPH_DOES_NOT_EXIST',
      'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE',
      'INCONSISTENT_DEFAULT_VALUE_PRESENCE',
    ]);
    const again = await api(`/apis/${created.json.Meta}`);
    assert.deepEqual(again.json.api_definition.graphql.supergraph.composition_hints, updated.json.Hints);
  });

  it('answers a save through the gateway API with its hints', async () => {
    const gw = (path: string, body: unknown) =>
      http(`${node.gatewayUrl}/gw${path}`, { method: 'POST', body, headers: node.gwHeaders });
    const products = await gw('/apis', {
      ...subgraphApi('gw-products', PRODUCTS).api_definition,
      api_id: 'gw-products',
    });
    assert.equal(products.status, 200, products.text);
    const shop = await gw('/apis', {
      ...supergraphApi('gw-shop', [{ name: 'products', url: 'gw://gw-products' }]).api_definition,
      api_id: 'gw-shop',
    });
    assert.equal(shop.status, 200, shop.text);
    assert.deepEqual(shop.json, {
      key: 'gw-shop',
      status: 'ok',
      action: 'added',
      hints: [
        {
          code: 'UNUSED_ENUM_TYPE',
          message:
            'Enum type "Colour" is defined in subgraph "products" but no field, argument or input field of any subgraph uses it',
          subgraphs: ['products'],
          type: 'Colour',
        },
      ],
    });
  });

  it('refuses a set that does not compose with one error per problem, each naming subgraph, type and field; nothing is stored', async () => {
    const broken = `${LINK} type Product @key(fields: "id") { id: ID! name: Int @shareable }
      interface Colour { id: ID! }`;
    const other = await api('/apis', { method: 'POST', body: subgraphApi('broken', broken) });
    assert.equal(other.status, 200, other.text);
    const before = await api('/apis');
    const refused = await api('/apis', {
      method: 'POST',
      body: supergraphApi('broken-shop', [
        { name: 'products', api_id: ids.products },
        { name: 'broken', url: 'gw://broken' },
      ]),
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(
      refused.json.Message,
      /^Federation failed: the subgraphs of supergraph 'broken-shop' do not compose \(2 errors\)$/,
    );
    assert.deepEqual(refused.json.Errors, [
      'Type "Colour" has mismatched kind: it is defined as Interface Type in subgraph "broken" but Enum Type in subgraph "products"',
      'Type of field "Product.name" is incompatible across subgraphs: it has type "Int" in subgraph "broken" but type "String!" in subgraph "products"',
    ]);
    assert.equal((await api('/apis')).json.apis.length, before.json.apis.length, 'no API was stored');
  });
});
