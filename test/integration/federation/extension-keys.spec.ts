import { strict as assert } from 'node:assert';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { composeSupergraph } from '../../../lib/graphql/federation/compose-supergraph';
import { FederatedGraph } from '../../../services/graphql-engine/lib/federation/federated-graph';
import { isFederation2 } from '../../../services/graphql-engine/lib/federation/supergraph';
import { startApolloGateway, type ApolloRequest } from '../../support/apollo-gateway';
import type { RunningApolloGateway } from '../../support/apollo-gateway';
import { serveSubgraph, type RunningSubgraph } from '../../support/federation-subgraphs';

/**
 * An extension keyed on a field the definition lacks: catalog extends Product with the
 * definition's key `id name` and with `upc`, which it marks @external though no definition has
 * it; inventory knows a product only by `upc`. Federation 1 ignores @external on an extension's
 * key fields, so catalog resolves `upc` and inventory is reached through it.
 */
const SDL = {
  products: `
    extend type Query { topProducts(first: Int = 5): [Product] }
    type Product @key(fields: "id name") { id: ID! name: String price: Int }`,
  catalog: `
    extend type Query { productByUpc(upc: String!): Product }
    extend type Product @key(fields: "id name") @key(fields: "upc") {
      id: ID! @external
      name: String @external
      upc: String! @external
      label: String
    }`,
  inventory: `
    extend type Product @key(fields: "upc") { upc: String! @external inStock: Boolean }`,
};

type Name = keyof typeof SDL;

// the lamp is in products only: catalog does not know it, so it has no upc
const products = [
  { id: '1', name: 'Table', price: 899 },
  { id: '2', name: 'Couch', price: 1299 },
  { id: '3', name: 'Lamp', price: 30 },
];
const catalogue = [
  { id: '1', name: 'Table', upc: 'u1' },
  { id: '2', name: 'Couch', upc: 'u2' },
];
const stock: Record<string, boolean> = { u1: true, u2: false };

type Ref = { id?: string; name?: string; upc?: string };
const resolvers = {
  products: {
    Query: { topProducts: (_: unknown, args: { first: number }) => products.slice(0, args.first) },
    Product: {
      __resolveReference: (ref: Ref) => products.find((p) => p.id === ref.id && p.name === ref.name),
    },
  },
  catalog: {
    Query: { productByUpc: (_: unknown, args: { upc: string }) => catalogue.find((c) => c.upc === args.upc) },
    Product: {
      __resolveReference: (ref: Ref) =>
        catalogue.find((c) => (ref.upc ? c.upc === ref.upc : c.id === ref.id && c.name === ref.name)),
      label: (product: Ref) => {
        if (product.id === '2') throw new Error(`no label for ${product.upc}`);
        return `${product.name} (${product.upc})`;
      },
    },
  },
  inventory: {
    Product: {
      __resolveReference: (ref: Ref) => {
        if (typeof ref.upc !== 'string') throw new Error('a Product representation without upc');
        return { upc: ref.upc, inStock: stock[ref.upc] };
      },
    },
  },
};

const QUERIES: Array<{ title: string } & ApolloRequest> = [
  { title: 'upc through the extension that adds it', query: '{ topProducts(first: 2) { id name upc price } }' },
  {
    title: 'inventory through the upc catalog resolves; the lamp, without upc, is not sent',
    query: '{ topProducts { name inStock } }',
  },
  {
    title: 'the added key field and a field keyed on it, either order',
    query: '{ topProducts(first: 2) { inStock upc } }',
  },
  {
    title: 'from the extension root to the definition (by id name) and to inventory (by upc)',
    query: 'query Product($upc: String!) { productByUpc(upc: $upc) { id name upc price inStock label } }',
    variables: { upc: 'u2' },
    operationName: 'Product',
  },
  { title: 'an entity the extension does not know', query: '{ productByUpc(upc: "nope") { price inStock } }' },
  { title: 'an error of the extension, at its path', query: '{ topProducts(first: 2) { price label } }' },
];

describe('federation: an extension keyed on a field only extensions resolve (as @apollo/gateway)', function () {
  this.timeout(20_000);
  let subgraphs: RunningSubgraph[];
  let apollo: RunningApolloGateway;
  let graph: FederatedGraph;

  before(async () => {
    const names = Object.keys(SDL) as Name[];
    const schemaOf = (name: Name) =>
      buildSubgraphSchema([{ typeDefs: parse(SDL[name]), resolvers: resolvers[name] as never }]);
    subgraphs = await Promise.all(names.map((name) => serveSubgraph(name, schemaOf(name))));
    apollo = await startApolloGateway(subgraphs.map(({ name, url }) => ({ name, url })));
    const composed = composeSupergraph(subgraphs.map(({ name, url }) => ({ name, url, sdl: SDL[name as Name] })));
    if (!composed.ok)
      assert.fail(`gw does not compose these subgraphs: ${composed.errors.map((e) => e.message).join(',')}`);
    if (isFederation2(composed.supergraph)) assert.fail('these are Federation v1 subgraphs');
    graph = new FederatedGraph(composed.supergraph);
  });
  beforeEach(() => {
    for (const subgraph of subgraphs) subgraph.received.length = 0;
  });
  after(async () => {
    await apollo?.stop();
    await Promise.all((subgraphs ?? []).map((s) => s.stop()));
  });

  for (const { title, ...request } of QUERIES) {
    it(`${title}: ${request.query}`, async () => {
      const expected = await apollo.execute(request);
      const apolloSent = representationsSent(subgraphs);
      const response = await graph.execute(request, {});
      assert.equal(JSON.stringify(response.data), JSON.stringify(expected.data));
      // @apollo/gateway adds extensions (serviceName, code) to a subgraph's errors; gw passes them on as sent
      assert.deepEqual(response.errors?.map(messageAndPath), expected.errors?.map(messageAndPath));
      assert.deepEqual(representationsSent(subgraphs), apolloSent, 'each subgraph gets the entities Apollo sends');
    });
  }

  it('exposes the added key field in the client schema', async () => {
    const query = '{ __type(name: "Product") { fields { name type { kind ofType { name } } } } }';
    const response = await graph.execute({ query }, {});
    const { fields } = (response.data as { __type: { fields: Array<{ name: string }> } }).__type;
    const upc = fields.find((f) => f.name === 'upc');
    assert.deepEqual(upc, { name: 'upc', type: { kind: 'NON_NULL', ofType: { name: 'String' } } });
  });
});

function messageAndPath(error: unknown): { message: string; path: unknown } {
  const { message, path } = error as { message: string; path?: unknown };
  return { message, path };
}

/** The `_entities` representations each subgraph received since the last call, sorted; the record is cleared. */
function representationsSent(subgraphs: RunningSubgraph[]): Record<string, string[]> {
  const sent: Record<string, string[]> = {};
  for (const subgraph of subgraphs) {
    const entities = subgraph.received.filter((r) => r.query.includes('_entities'));
    const representations = entities.flatMap((r) => r.variables.representations as unknown[]);
    sent[subgraph.name] = representations.map((representation) => JSON.stringify(representation)).sort();
    subgraph.received.length = 0;
  }
  return sent;
}
