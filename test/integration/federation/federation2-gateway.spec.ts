import { strict as assert } from 'node:assert';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { SUBGRAPH_SDL, startSubgraph, type RunningSubgraph } from '../../support/federation-subgraphs';
import {
  FEDERATION2_NAMES,
  FEDERATION2_SDL,
  LOYALTY_SDL,
  startFederation2Subgraph,
  startFederation2Subgraphs,
  startLoyaltySubgraph,
  type Federation2Name,
} from '../../support/federation2-subgraphs';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';

const entityCalls = (subgraph: RunningSubgraph) => subgraph.received.filter((r) => r.query.includes('_entities'));

/**
 * A Federation 2 supergraph API served by a gateway node, registered through `/gw/apis` as a
 * user would: real @apollo/subgraph subgraphs (one of them a subgraph API reached as
 * gw://inventory), called over HTTP and graphql-ws, with what each subgraph received checked.
 */
describe('federation 2: a supergraph API through the gateway', function () {
  this.timeout(20_000);
  let node: TestNode;
  let subgraphs: Record<Federation2Name, RunningSubgraph>;
  const stopLater: RunningSubgraph[] = [];
  const clients: Client[] = [];
  const gw = (body: unknown) => http(`${node.gatewayUrl}/gw/apis`, { method: 'POST', headers: node.gwHeaders, body });
  const post = (path: string, query: string, headers: Record<string, string> = {}) =>
    http(`${node.gatewayUrl}${path}`, { method: 'POST', body: { query }, headers });
  const supergraphApi = (name: string, entries: unknown[], extra: Record<string, unknown> = {}) => ({
    api_id: name,
    name,
    use_keyless: true,
    // the gateway validation wants a target; a supergraph never calls it
    proxy: { listen_path: `/${name}`, target_url: 'http://127.0.0.1:9', strip_listen_path: true },
    graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs: entries, ...extra } },
  });
  const externalEntry = (name: string, subgraph: RunningSubgraph, sdl: string) => ({
    name,
    url: subgraph.url,
    sdl,
    headers: { 'x-only-for': name },
    subscription_type: 'graphql-transport-ws',
  });

  before(async () => {
    subgraphs = await startFederation2Subgraphs();
    node = await startTestNode();
    const inventory = await gw({
      api_id: 'inventory',
      name: 'inventory',
      use_keyless: true,
      proxy: { listen_path: '/inventory-subgraph', target_url: subgraphs.inventory.url, strip_listen_path: true },
      graphql: { enabled: true, execution_mode: 'subgraph', subgraph: { sdl: FEDERATION2_SDL.inventory } },
    });
    assert.equal(inventory.status, 200, inventory.text);
    const entries = FEDERATION2_NAMES.map((name) =>
      name === 'inventory'
        ? { name, url: 'gw://inventory', headers: { 'x-only-for': name } }
        : externalEntry(name, subgraphs[name], FEDERATION2_SDL[name]),
    );
    const shop = await gw({
      ...supergraphApi('shop', entries, {
        global_headers: { 'x-global': 'gw', 'x-client-id': '$gw_context.headers_X_Client_Id' },
      }),
      enable_context_vars: true,
    });
    assert.equal(shop.status, 200, shop.text);
    await http(`${node.gatewayUrl}/gw/reload`, { headers: node.gwHeaders });
  });
  beforeEach(() => Object.values(subgraphs).forEach((subgraph) => (subgraph.received.length = 0)));
  after(async () => {
    for (const client of clients) await client.dispose();
    await node?.stop();
    if (node) removeDir(node.dataDir);
    await Promise.all([...Object.values(subgraphs ?? {}), ...stopLater].map((subgraph) => subgraph.stop()));
  });

  it('joins entities across subgraphs, sending the @requires field with its argument to the requiring subgraph', async () => {
    const response = await post(
      '/shop',
      '{ topProducts(first: 2) { name price(currency: "EUR") shippingEstimate reviews { body } } }',
    );
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.json, {
      data: {
        topProducts: [
          { name: 'Table', price: 899, shippingEstimate: 50, reviews: [{ body: 'Love it!' }] },
          { name: 'Couch', price: 1299, shippingEstimate: 0, reviews: [{ body: 'Too expensive.' }] },
        ],
      },
    });
    const [inventoryCall] = entityCalls(subgraphs.inventory);
    assert.deepEqual(
      inventoryCall.variables.representations,
      [
        { __typename: 'Product', upc: '1', price: 989, weight: 100 },
        { __typename: 'Product', upc: '2', price: 1429, weight: 1000 },
      ],
      'inventory got the price in USD, as its @requires asks',
    );
  });

  it('resolves a @shareable field from whichever owner the selection reaches', async () => {
    const fromProducts = await post('/shop', '{ topProducts(first: 1) { name } }');
    assert.deepEqual(fromProducts.json, { data: { topProducts: [{ name: 'Table' }] } });
    assert.equal(subgraphs.reviews.received.length, 0, 'products answered the name itself');

    const fromReviews = await post('/shop', '{ latestReviews { product { name } } }');
    assert.deepEqual(fromReviews.json, {
      data: {
        latestReviews: [{ product: { name: 'Table' } }, { product: { name: 'Couch' } }, { product: { name: 'Chair' } }],
      },
    });
    assert.equal(subgraphs.products.received.length, 1, 'only the first query reached products');
    assert.equal(subgraphs.reviews.received.length, 1, 'reviews answered the name with the reviews');
  });

  it('takes a field moved with @override from the subgraph it moved to', async () => {
    const response = await post('/shop', '{ topProducts { upc inStock } }');
    assert.deepEqual(response.json, {
      data: {
        topProducts: [
          { upc: '1', inStock: true },
          { upc: '2', inStock: false },
          { upc: '3', inStock: true },
        ],
      },
    });
    assert.equal(subgraphs.products.received.length, 1);
    assert.doesNotMatch(subgraphs.products.received[0].query, /inStock/, 'products is no longer asked for it');
    assert.match(entityCalls(subgraphs.inventory)[0].query, /inStock/);
  });

  it('hides an @inaccessible field from introspection and refuses an operation selecting it, calling no subgraph', async () => {
    const introspection = await post('/shop', '{ __type(name: "User") { fields { name } } }');
    assert.equal(introspection.status, 200, introspection.text);
    const fields = introspection.json.data.__type.fields.map((field: { name: string }) => field.name);
    assert.deepEqual(fields.sort(), ['id', 'name']);

    const refused = await post('/shop', '{ me { name email } }');
    assert.equal(refused.status, 400);
    assert.equal(refused.json.errors[0].message, 'Cannot query field "email" on type "User".');
    assert.equal(refused.json.data, undefined);
    assert.deepEqual(
      Object.values(subgraphs).map((subgraph) => subgraph.received.length),
      FEDERATION2_NAMES.map(() => 0),
    );
  });

  it('completes the implementations of an interface with the fields an @interfaceObject adds', async () => {
    const response = await post(
      '/shop',
      '{ media { __typename title reviewCount ... on Book { author } ... on Movie { minutes } } }',
    );
    assert.deepEqual(response.json, {
      data: {
        media: [
          { __typename: 'Book', title: 'Sketch of the Analytical Engine', reviewCount: 3, author: 'Ada Lovelace' },
          { __typename: 'Movie', title: 'The Imitation Game', reviewCount: 1, minutes: 114 },
        ],
      },
    });
    assert.deepEqual(
      entityCalls(subgraphs.reviews)[0].variables.representations,
      [
        { __typename: 'Media', id: 'm1' },
        { __typename: 'Media', id: 'm2' },
      ],
      'reviews knows the interface, not its implementations',
    );
  });

  it('answers fields a subgraph @provides without calling their owner', async () => {
    const provided = await post('/shop', '{ latestReviews { author { name } } }');
    assert.deepEqual(
      provided.json.data.latestReviews.map((review: any) => review.author.name),
      ['Ada Lovelace', 'Ada Lovelace', 'Alan Turing'],
    );
    assert.equal(subgraphs.users.received.length, 0);

    const notProvided = await post('/shop', '{ latestReviews { product { upc } author { id name } } }');
    assert.equal(notProvided.json.errors, undefined, notProvided.text);
    assert.equal(subgraphs.users.received.length, 0, 'a key field and a provided one: still no users call');
  });

  it('sends the supergraph global headers and each entry its own headers to the subgraphs', async () => {
    const response = await post('/shop', '{ topProducts(first: 1) { name inStock } }', { 'x-client-id': 'c-42' });
    assert.equal(response.json.errors, undefined, response.text);
    const [toProducts] = subgraphs.products.received;
    const [toInventory] = subgraphs.inventory.received;
    assert.equal(toProducts.headers['x-global'], 'gw');
    assert.equal(toProducts.headers['x-client-id'], 'c-42', 'a client header global_headers forwards');
    assert.equal(toProducts.headers['x-only-for'], 'products');
    assert.equal(toInventory.headers['x-global'], 'gw');
    assert.equal(toInventory.headers['x-client-id'], 'c-42');
    assert.equal(toInventory.headers['x-only-for'], 'inventory', 'the gw:// entry has its headers too');
  });

  it('fails only the fields of a subgraph that is down, with SUBGRAPH_UNREACHABLE', async () => {
    // stopped by this test
    const inventory = await startFederation2Subgraph('inventory');
    const created = await gw(
      supergraphApi('shop-down', [
        externalEntry('products', subgraphs.products, FEDERATION2_SDL.products),
        externalEntry('inventory', inventory, FEDERATION2_SDL.inventory),
      ]),
    );
    assert.equal(created.status, 200, created.text);
    const query = '{ topProducts(first: 2) { name inStock } }';
    const up = await post('/shop-down', query);
    assert.deepEqual(up.json.data.topProducts, [
      { name: 'Table', inStock: true },
      { name: 'Couch', inStock: false },
    ]);

    await inventory.stop();
    const down = await post('/shop-down', query);
    assert.equal(down.status, 200);
    assert.deepEqual(down.json.data, {
      topProducts: [
        { name: 'Table', inStock: null },
        { name: 'Couch', inStock: null },
      ],
    });
    assert.ok(down.json.errors.length > 0, down.text);
    for (const error of down.json.errors) {
      assert.match(error.message, /^Subgraph "inventory" could not be reached: /);
      assert.equal(error.extensions.code, 'SUBGRAPH_UNREACHABLE');
      assert.deepEqual(error.path.slice(0, 1), ['topProducts']);
    }
  });

  it('answers a subscription sent over HTTP with an error, opening no subscription on the subgraph', async () => {
    const started = subgraphs.reviews.subscriptions.started;
    const response = await post('/shop', 'subscription { reviewAdded { body } }');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.json, {
      errors: [{ message: 'Subscriptions are served over WebSocket (graphql-transport-ws or graphql-ws).' }],
    });
    // a query to the same subgraph after it: a subscription opened by the first would have started by now
    assert.equal((await post('/shop', '{ topProducts(first: 1) { reviews { body } } }')).status, 200);
    assert.equal(subgraphs.reviews.subscriptions.started, started);
  });

  it('streams a subscription over graphql-ws, completing each event with entity fields of other subgraphs', async () => {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/shop`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    const events: unknown[] = [];
    const error = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { reviewAdded { body product { price(currency: "EUR") inStock } } }' },
        { next: (event) => events.push(event), error: resolve, complete: () => resolve(undefined) },
      );
    });
    assert.equal(error, undefined);
    assert.deepEqual(events, [
      { data: { reviewAdded: { body: 'Love it!', product: { price: 899, inStock: true } } } },
      { data: { reviewAdded: { body: 'Too expensive.', product: { price: 1299, inStock: false } } } },
    ]);
    assert.equal(entityCalls(subgraphs.products).length, 2, 'one products call per event');
    assert.equal(entityCalls(subgraphs.inventory).length, 2, 'one inventory call per event');
  });

  it('composes a Federation v1 subgraph with a Federation 2 one as Federation 2, and answers', async () => {
    const accounts = await startSubgraph('accounts');
    const loyalty = await startLoyaltySubgraph();
    stopLater.push(accounts, loyalty);
    const created = await gw(
      supergraphApi('mixed', [
        externalEntry('accounts', accounts, SUBGRAPH_SDL.accounts),
        externalEntry('loyalty', loyalty, LOYALTY_SDL),
      ]),
    );
    assert.equal(created.status, 200, created.text);
    const response = await post('/mixed', '{ users { name points } }');
    assert.deepEqual(response.json, {
      data: {
        users: [
          { name: 'Ada Lovelace', points: 120 },
          { name: 'Alan Turing', points: 30 },
        ],
      },
    });
    assert.deepEqual(entityCalls(loyalty)[0].variables.representations, [
      { __typename: 'User', id: '1' },
      { __typename: 'User', id: '2' },
    ]);
  });
});
