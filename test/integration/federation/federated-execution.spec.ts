import { strict as assert } from 'node:assert';
import { FederatedGraph } from '../../../services/graphql-engine/lib/federation/federated-graph';
import { fetchFromSubgraph } from '../../../services/graphql-engine/lib/federation/subgraph-client';
import { subscribeFederated } from '../../../services/graphql-engine/lib/federation/federated-subscription';
import { benchmarkSupergraph, startSubgraphs, type RunningSubgraph } from '../../support/federation-subgraphs';

type Subgraphs = Record<'accounts' | 'inventory' | 'products' | 'reviews', RunningSubgraph>;

const entityCalls = (subgraph: RunningSubgraph) =>
  subgraph.received.filter((r) => r.query.includes('_entities')).length;

describe('federation: planning and executing operations over real subgraphs', () => {
  let subgraphs: Subgraphs;
  let graph: FederatedGraph;

  before(async () => {
    subgraphs = await startSubgraphs();
    graph = new FederatedGraph(benchmarkSupergraph(urlsOf(subgraphs)));
  });
  after(async () => Promise.all(Object.values(subgraphs ?? {}).map((s) => s.stop())));
  beforeEach(() => Object.values(subgraphs).forEach((s) => (s.received.length = 0)));

  it('joins entities by @key across subgraphs', async () => {
    const response = await graph.execute(
      { query: '{ users { id name reviews { body product { name inStock } } } }' },
      {},
    );
    assert.deepEqual(response, {
      data: {
        users: [
          {
            id: '1',
            name: 'Ada Lovelace',
            reviews: [
              { body: 'Love it!', product: { name: 'Table', inStock: true } },
              { body: 'Too expensive.', product: { name: 'Couch', inStock: false } },
            ],
          },
          {
            id: '2',
            name: 'Alan Turing',
            reviews: [
              { body: 'Could be better.', product: { name: 'Chair', inStock: true } },
              { body: 'Prefer something else.', product: { name: 'Table', inStock: true } },
            ],
          },
        ],
      },
    });
  });

  it('fetches @requires fields first and sends them in the representation', async () => {
    const response = await graph.execute({ query: '{ topProducts { upc shippingEstimate } }' }, {});
    assert.deepEqual(response, {
      data: {
        topProducts: [
          { upc: '1', shippingEstimate: 50 },
          { upc: '2', shippingEstimate: 0 },
          { upc: '3', shippingEstimate: 25 },
        ],
      },
    });
    const sent = subgraphs.inventory.received[0].variables.representations as Array<Record<string, unknown>>;
    assert.deepEqual(sent[0], { __typename: 'Product', upc: '1', price: 899, weight: 100 });
  });

  it('fetches required fields from a third subgraph before the requiring one, in one batch each', async () => {
    const response = await graph.execute({ query: '{ users { reviews { product { name shippingEstimate } } } }' }, {});
    assert.deepEqual(response.data?.users, [
      {
        reviews: [
          { product: { name: 'Table', shippingEstimate: 50 } },
          { product: { name: 'Couch', shippingEstimate: 0 } },
        ],
      },
      {
        reviews: [
          { product: { name: 'Chair', shippingEstimate: 25 } },
          { product: { name: 'Table', shippingEstimate: 50 } },
        ],
      },
    ]);
    assert.equal(entityCalls(subgraphs.products), 1);
    assert.equal(entityCalls(subgraphs.inventory), 1);
  });

  it('answers @provides fields from the providing subgraph without calling the owner', async () => {
    const response = await graph.execute(
      { query: '{ topProducts(first: 1) { reviews { author { username } } } }' },
      {},
    );
    assert.deepEqual(response, {
      data: { topProducts: [{ reviews: [{ author: { username: '@ada' } }, { author: { username: '@complete' } }] }] },
    });
    assert.equal(subgraphs.accounts.received.length, 0);
  });

  it('calls the owner for fields of a provided entity that are not provided', async () => {
    const response = await graph.execute(
      { query: '{ topProducts(first: 1) { reviews { author { username name } } } }' },
      {},
    );
    assert.deepEqual(response.data, {
      topProducts: [
        {
          reviews: [
            { author: { username: '@ada', name: 'Ada Lovelace' } },
            { author: { username: '@complete', name: 'Alan Turing' } },
          ],
        },
      ],
    });
    assert.equal(entityCalls(subgraphs.accounts), 1);
  });

  it('batches every entity of one type and level into one _entities call, through nested hops', async () => {
    const query = `
      fragment P on Product { upc name price weight inStock shippingEstimate }
      query Deep { users { reviews { product { ...P reviews { author { name reviews { product { ...P } } } } } } } }`;
    const response = await graph.execute({ query, operationName: 'Deep' }, {});
    assert.equal(response.errors, undefined);
    const firstProduct = (response.data as any).users[0].reviews[0].product;
    assert.deepEqual(
      { ...firstProduct, reviews: undefined },
      { upc: '1', name: 'Table', price: 899, weight: 100, inStock: true, shippingEstimate: 50, reviews: undefined },
    );
    assert.deepEqual(firstProduct.reviews[1].author.reviews[0].product.name, 'Chair');
    assert.equal(subgraphs.accounts.received.length, 2, 'users, then one batch of authors');
    assert.equal(
      entityCalls(subgraphs.reviews),
      1,
      "users' reviews; the nested reviews come with the products and authors reviews returns",
    );
    assert.equal(entityCalls(subgraphs.products), 2, 'one batch per level');
    assert.equal(entityCalls(subgraphs.inventory), 2);
  });

  it('sends one _entities call per entity when batching is disabled (disable_query_batching)', async () => {
    const unbatched = new FederatedGraph(benchmarkSupergraph(urlsOf(subgraphs)), undefined, { batching: false });
    const response = await unbatched.execute({ query: '{ topProducts { upc inStock } }' }, {});
    assert.deepEqual(response.data, {
      topProducts: [
        { upc: '1', inStock: true },
        { upc: '2', inStock: false },
        { upc: '3', inStock: true },
      ],
    });
    assert.equal(entityCalls(subgraphs.inventory), 3);
  });

  it('refuses a subscription sent over HTTP', async () => {
    const response = await graph.execute({ query: 'subscription { reviewAdded { body } }' }, {});
    assert.match(response.errors![0].message, /Subscriptions are served over WebSocket/);
    assert.equal(subgraphs.reviews.received.length, 0);
  });

  it('keeps aliases, variables, __typename and inline fragments in the client shape', async () => {
    const query = `query Q($n: Int) { best: topProducts(first: $n) { __typename code: upc ... on Product { stock: inStock } } }`;
    const response = await graph.execute({ query, variables: { n: 2 } }, {});
    assert.deepEqual(response, {
      data: {
        best: [
          { __typename: 'Product', code: '1', stock: true },
          { __typename: 'Product', code: '2', stock: false },
        ],
      },
    });
  });

  it('gives an added key field its own key when the client uses the name as an alias', async () => {
    const response = await graph.execute({ query: '{ topProducts(first: 1) { upc: name inStock } }' }, {});
    assert.deepEqual(response, { data: { topProducts: [{ upc: 'Table', inStock: true }] } });
  });

  it('applies @skip and @include, on fields and on root fragments', async () => {
    const query =
      'query Q($withUsers: Boolean!) { ... @include(if: $withUsers) { users { id } } topProducts(first: 1) { upc inStock @skip(if: true) } }';
    assert.deepEqual(await graph.execute({ query, variables: { withUsers: false } }, {}), {
      data: { topProducts: [{ upc: '1' }] },
    });
    assert.equal(subgraphs.accounts.received.length, 0);
    const withUsers = await graph.execute({ query, variables: { withUsers: true } }, {});
    assert.deepEqual(withUsers.data, { users: [{ id: '1' }, { id: '2' }], topProducts: [{ upc: '1' }] });
  });

  it('reads the default of a variable the client leaves out in @skip and @include', async () => {
    const query =
      'query Q($hide: Boolean = true, $show: Boolean = true) { topProducts(first: 1) { upc inStock @skip(if: $hide) name @include(if: $show) } }';
    assert.deepEqual(await graph.execute({ query }, {}), { data: { topProducts: [{ upc: '1', name: 'Table' }] } });
  });

  it('runs independent fetches at the same time', async () => {
    let inFlight = 0;
    let most = 0;
    const counting = new FederatedGraph(benchmarkSupergraph(urlsOf(subgraphs)), async (url, headers, body) => {
      most = Math.max(most, ++inFlight);
      try {
        return await fetchFromSubgraph(url, headers, body);
      } finally {
        inFlight--;
      }
    });
    const response = await counting.execute({ query: '{ me { name } topProducts(first: 1) { name } }' }, {});
    assert.deepEqual(response.data, { me: { name: 'Ada Lovelace' }, topProducts: [{ name: 'Table' }] });
    assert.equal(most, 2);
  });

  it('plans an operation once and reuses the plan', () => {
    const query = '{ me { name } }';
    assert.equal(graph.planFor(query, undefined), graph.planFor(query, undefined));
  });

  it('returns subgraph errors with paths in the client operation', async () => {
    const response = await graph.execute({ query: '{ users { reviews { product { shippingEstimate } } } }' }, {});
    assert.equal(response.errors, undefined);
    const broken = new FederatedGraph(benchmarkSupergraph(urlsOf(subgraphs)), async (url, headers, body) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      // products fails the second entity of its batch
      if (body.query.includes('_entities') && url === subgraphs.products.url) {
        json.data._entities[1] = null;
        json.errors = [
          { message: 'Couch is gone', path: ['_entities', 1, 'name'], locations: [{ line: 1, column: 90 }] },
        ];
      }
      return json;
    });
    const result = await broken.execute({ query: '{ users { reviews { product { name } } } }' }, {});
    assert.deepEqual(result.errors, [
      { message: 'Couch is gone', path: ['users', 0, 'reviews', 1, 'product', 'name'] },
    ]);
    assert.deepEqual((result.data as any).users[0].reviews[1].product, { name: null });
    assert.deepEqual((result.data as any).users[0].reviews[0].product, { name: 'Table' });
  });

  it('fails only the fields a down subgraph owns', async () => {
    const down = new FederatedGraph(
      benchmarkSupergraph({ ...urlsOf(subgraphs), inventory: 'http://127.0.0.1:9/graphql' }),
    );
    const response = await down.execute({ query: '{ topProducts(first: 2) { name inStock } }' }, {});
    assert.deepEqual(response.data, {
      topProducts: [
        { name: 'Table', inStock: null },
        { name: 'Couch', inStock: null },
      ],
    });
    assert.equal(response.errors?.length, 1);
    assert.match(response.errors[0].message, /Subgraph "inventory" could not be reached/);
    assert.deepEqual(response.errors[0].path, ['topProducts', 0, 'inStock']);
  });

  it('sends global headers and each subgraph its own headers', async () => {
    const withHeaders = new FederatedGraph(
      benchmarkSupergraph(urlsOf(subgraphs), { accounts: { headers: { 'x-subgraph': 'accounts-only' } } }),
    );
    await withHeaders.execute(
      { query: '{ topProducts(first: 1) { reviews { author { name } } } }' },
      { 'x-global': 'everyone' },
    );
    for (const name of ['products', 'reviews', 'accounts'] as const)
      assert.equal(subgraphs[name].received[0].headers['x-global'], 'everyone', name);
    assert.equal(subgraphs.accounts.received[0].headers['x-subgraph'], 'accounts-only');
    assert.equal(subgraphs.products.received[0].headers['x-subgraph'], undefined);
    assert.equal(subgraphs.inventory.received.length, 0);
  });
});

function urlsOf(subgraphs: Subgraphs): Record<keyof Subgraphs, string> {
  return {
    accounts: subgraphs.accounts.url,
    inventory: subgraphs.inventory.url,
    products: subgraphs.products.url,
    reviews: subgraphs.reviews.url,
  };
}

describe('federation: subscriptions through the supergraph', () => {
  let subgraphs: Subgraphs;
  after(async () => Promise.all(Object.values(subgraphs ?? {}).map((s) => s.stop())));

  it('streams from the subscription root subgraph and resolves entity fields per event', async () => {
    subgraphs = await startSubgraphs();
    const graph = new FederatedGraph(benchmarkSupergraph(urlsOf(subgraphs)));
    const events: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      subscribeFederated(
        graph,
        { query: 'subscription { reviewAdded { body author { name } product { name shippingEstimate } } }' },
        { 'x-global': 'sub' },
        {
          next: (event) => events.push(event),
          error: (errors) => reject(new Error(JSON.stringify(errors))),
          complete: resolve,
        },
      );
    });
    assert.deepEqual(events, [
      {
        data: {
          reviewAdded: {
            body: 'Love it!',
            author: { name: 'Ada Lovelace' },
            product: { name: 'Table', shippingEstimate: 50 },
          },
        },
      },
      {
        data: {
          reviewAdded: {
            body: 'Too expensive.',
            author: { name: 'Ada Lovelace' },
            product: { name: 'Couch', shippingEstimate: 0 },
          },
        },
      },
    ]);
    assert.equal(entityCalls(subgraphs.accounts), 2, 'one per event');
    assert.equal(subgraphs.accounts.received[0].headers['x-global'], 'sub');
  });
});
