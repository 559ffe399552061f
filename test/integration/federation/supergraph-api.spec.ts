import { strict as assert } from 'node:assert';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { http } from '../../support/http';
import { SUBGRAPH_SDL, startSubgraphs, type RunningSubgraph } from '../../support/federation-subgraphs';
import { removeDir, startTestNode, type TestNode } from '../../support/node';

type Name = keyof typeof SUBGRAPH_SDL;

/** A supergraph API served by a gateway node: HTTP queries and a graphql-ws subscription. */
describe('federation: a supergraph API through the gateway', function () {
  this.timeout(20_000);
  let node: TestNode;
  let subgraphs: Record<Name, RunningSubgraph>;
  const clients: Client[] = [];

  before(async () => {
    subgraphs = await startSubgraphs();
    node = await startTestNode();
    const gw = (body: unknown) => http(`${node.gatewayUrl}/gw/apis`, { method: 'POST', headers: node.gwHeaders, body });
    // inventory is a subgraph API of this node, referenced as gw://inventory
    const inventory = await gw({
      api_id: 'inventory',
      name: 'inventory',
      use_keyless: true,
      proxy: { listen_path: '/inventory-subgraph', target_url: subgraphs.inventory.url, strip_listen_path: true },
      graphql: {
        enabled: true,
        execution_mode: 'subgraph',
        schema: SUBGRAPH_SDL.inventory,
        subgraph: { sdl: SUBGRAPH_SDL.inventory },
      },
    });
    assert.equal(inventory.status, 200, inventory.text);
    const entry = (name: Name) => ({
      name,
      url: name === 'inventory' ? 'gw://inventory' : subgraphs[name].url,
      sdl: SUBGRAPH_SDL[name],
      headers: { 'x-only-for': name },
      subscription_type: 'graphql-transport-ws',
    });
    const created = await gw({
      api_id: 'shop',
      name: 'shop',
      use_keyless: true,
      enable_context_vars: true,
      // the gateway validation wants a target; a supergraph never calls it
      proxy: { listen_path: '/shop', target_url: 'http://127.0.0.1:9', strip_listen_path: true },
      graphql: {
        enabled: true,
        execution_mode: 'supergraph',
        supergraph: {
          subgraphs: (['accounts', 'inventory', 'products', 'reviews'] as Name[]).map(entry),
          global_headers: { 'x-global': 'gw', 'x-client-id': '$gw_context.headers_X_Client_Id' },
        },
      },
    });
    assert.equal(created.status, 200, created.text);
    await http(`${node.gatewayUrl}/gw/reload`, { headers: node.gwHeaders });
  });
  after(async () => {
    for (const c of clients) await c.dispose();
    await node?.stop();
    if (node) removeDir(node.dataDir);
    await Promise.all(Object.values(subgraphs ?? {}).map((s) => s.stop()));
  });

  it('answers a query joining four subgraphs, with @requires and @provides', async () => {
    const query = '{ topProducts(first: 2) { name inStock shippingEstimate reviews { body author { username } } } }';
    const response = await http(`${node.gatewayUrl}/shop`, {
      method: 'POST',
      body: { query },
      headers: { 'x-client-id': 'c-42' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, {
      data: {
        topProducts: [
          {
            name: 'Table',
            inStock: true,
            shippingEstimate: 50,
            reviews: [
              { body: 'Love it!', author: { username: '@ada' } },
              { body: 'Prefer something else.', author: { username: '@complete' } },
            ],
          },
          {
            name: 'Couch',
            inStock: false,
            shippingEstimate: 0,
            reviews: [{ body: 'Too expensive.', author: { username: '@ada' } }],
          },
        ],
      },
    });
    assert.equal(subgraphs.accounts.received.length, 0, '@provides: accounts is not called');
    const inventoryRequest = subgraphs.inventory.received.at(-1)!;
    assert.equal(inventoryRequest.headers['x-global'], 'gw');
    assert.equal(
      inventoryRequest.headers['x-client-id'],
      'c-42',
      'a client header forwarded because global_headers says so',
    );
    assert.equal(inventoryRequest.headers['x-only-for'], 'inventory');
  });

  it('refuses an operation invalid against the composed schema, without calling a subgraph', async () => {
    const before = subgraphs.products.received.length;
    const response = await http(`${node.gatewayUrl}/shop`, {
      method: 'POST',
      body: { query: '{ topProducts { colour } }' },
    });
    assert.equal(response.status, 400);
    assert.match(response.text, /Cannot query field \\"colour\\" on type \\"Product\\"/);
    assert.equal(subgraphs.products.received.length, before);
  });

  it('streams a subscription through the supergraph to a graphql-ws client', async () => {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/shop`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    const values: unknown[] = [];
    const error = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { reviewAdded { body product { name inStock } author { name } } }' },
        { next: (v) => values.push(v), error: resolve, complete: () => resolve(undefined) },
      );
    });
    assert.equal(error, undefined);
    assert.deepEqual(values, [
      {
        data: {
          reviewAdded: {
            body: 'Love it!',
            product: { name: 'Table', inStock: true },
            author: { name: 'Ada Lovelace' },
          },
        },
      },
      {
        data: {
          reviewAdded: {
            body: 'Too expensive.',
            product: { name: 'Couch', inStock: false },
            author: { name: 'Ada Lovelace' },
          },
        },
      },
    ]);
  });
});
