import { strict as assert } from 'node:assert';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { composeSupergraph } from '../../../lib/graphql/federation/compose-supergraph';
import { FederatedGraph } from '../../../services/graphql-engine/lib/federation/federated-graph';
import { v1SupergraphOf } from '../../../services/graphql-engine/lib/federation/federation2/supergraph-from-join';
import { isFederation2, type ComposedSupergraph } from '../../../services/graphql-engine/lib/federation/supergraph';
import { startApolloGateway, type ApolloRequest } from '../../support/apollo-gateway';
import type { RunningApolloGateway } from '../../support/apollo-gateway';
import { serveSubgraph, type RunningSubgraph } from '../../support/federation-subgraphs';

/**
 * `@requires` shapes beyond one level of fields fetched from another subgraph. Federation v1:
 * pricing requires `price` and also returns products from its own root field (so it must not be
 * asked `isExpensive` without `price` there), and labels requires `maker { yearsActive }`, a
 * selection below a field of products that only makers resolves. Federation v1 has no
 * `@external` field another extension defines, so a required field that requires a field
 * itself (labels' `label` requiring pricing's `isExpensive`) is written for Federation 2, whose
 * supergraph then runs on gw's planner too.
 */
const V1_SDL = {
  products: `
    extend type Query { topProducts: [Product] }
    type Product @key(fields: "id") { id: ID! name: String price: Int maker: Maker }
    extend type Maker @key(fields: "id") { id: ID! @external }`,
  makers: `
    type Maker @key(fields: "id") { id: ID! yearsActive: Int }`,
  pricing: `
    extend type Query { deals: [Product] }
    extend type Product @key(fields: "id") {
      id: ID! @external
      price: Int @external
      isExpensive: Boolean @requires(fields: "price")
    }`,
  labels: `
    extend type Product @key(fields: "id") {
      id: ID! @external
      maker: Maker @external
      badge: String @requires(fields: "maker { yearsActive }")
    }
    extend type Maker @key(fields: "id") { id: ID! @external yearsActive: Int @external }`,
};

const LINK = (imports: string) =>
  `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: [${imports}])`;
const FEDERATION2_SDL = {
  products: `${LINK('"@key"')}
    type Query { topProducts: [Product] }
    type Product @key(fields: "id") { id: ID! name: String price: Int }`,
  pricing: `${LINK('"@key", "@external", "@requires"')}
    type Query { deals: [Product] }
    type Product @key(fields: "id") {
      id: ID!
      price: Int @external
      isExpensive: Boolean @requires(fields: "price")
    }`,
  labels: `${LINK('"@key", "@external", "@requires"')}
    type Product @key(fields: "id") {
      id: ID!
      isExpensive: Boolean @external
      label: String @requires(fields: "isExpensive")
    }`,
};

const products = [
  { id: '1', name: 'Table', price: 899, maker: { id: 'm1' } },
  { id: '2', name: 'Lamp', price: 30, maker: { id: 'm2' } },
];
const yearsActive: Record<string, number> = { m1: 40, m2: 2 };

type ProductRef = { id: string; price?: number; isExpensive?: boolean; maker?: { yearsActive?: number } };

/** A resolver that answers only with what it requires, so a subgraph asked without it fails visibly. */
function requiring<T>(what: string, present: (ref: ProductRef) => boolean, answer: (ref: ProductRef) => T) {
  return (ref: ProductRef) => {
    if (!present(ref)) throw new Error(`Product ${ref.id} came without ${what}`);
    return answer(ref);
  };
}

const resolvers = {
  products: {
    Query: { topProducts: () => products },
    Product: { __resolveReference: (ref: ProductRef) => products.find((p) => p.id === ref.id) },
  },
  makers: {
    Maker: {
      __resolveReference: (ref: { id: string }) =>
        ref.id in yearsActive ? { id: ref.id, yearsActive: yearsActive[ref.id] } : null,
    },
  },
  pricing: {
    Query: { deals: () => products.map(({ id }) => ({ id })) },
    Product: {
      __resolveReference: (ref: ProductRef) => ref,
      isExpensive: requiring(
        'price',
        (ref) => typeof ref.price === 'number',
        (ref) => ref.price! > 100,
      ),
    },
  },
  labels: {
    Product: {
      __resolveReference: (ref: ProductRef) => ref,
      label: requiring(
        'isExpensive',
        (ref) => typeof ref.isExpensive === 'boolean',
        (ref) => (ref.isExpensive ? 'premium' : 'budget'),
      ),
      badge: requiring(
        'maker { yearsActive }',
        (ref) => typeof ref.maker?.yearsActive === 'number',
        (ref) => (ref.maker!.yearsActive! >= 10 ? 'established' : 'newcomer'),
      ),
    },
  },
};

const V1_QUERIES: Array<{ title: string } & ApolloRequest> = [
  { title: 'a field the requiring subgraph returns the entity for itself', query: '{ deals { id isExpensive } }' },
  { title: 'the same field below a root field of another subgraph', query: '{ topProducts { name isExpensive } }' },
  { title: 'a required selection below a field of the current subgraph', query: '{ topProducts { name badge } }' },
  {
    title: 'the required selection next to the client selecting the same field',
    query: '{ topProducts { maker { id } badge } }',
  },
  {
    title: 'a nested requirement reached from the requiring subgraph returning the entity',
    query: '{ deals { badge isExpensive price } }',
  },
];

const FEDERATION2_QUERIES: Array<{ title: string } & ApolloRequest> = [
  { title: 'a required field that requires a field itself', query: '{ topProducts { name label } }' },
  { title: 'the chain and the field it starts from', query: '{ topProducts { label isExpensive price } }' },
];

describe('federation: @requires of a subgraph returning the entity itself, of a nested selection (v1, as @apollo/gateway)', function () {
  this.timeout(20_000);
  answersAsApollo(V1_SDL, V1_QUERIES, (composed) => {
    if (isFederation2(composed)) assert.fail('these are Federation v1 subgraphs');
    return new FederatedGraph(composed);
  });
});

describe('federation: @requires of a field that requires a field itself (on gw planner, as @apollo/gateway)', function () {
  this.timeout(20_000);
  const gw = answersAsApollo(FEDERATION2_SDL, FEDERATION2_QUERIES, (composed) => {
    if (!isFederation2(composed)) assert.fail('these are Federation 2 subgraphs');
    const derived = v1SupergraphOf(composed);
    if (!('supergraph' in derived)) assert.fail(`not planned by gw's planner: ${derived.obstacles.join('; ')}`);
    return new FederatedGraph(derived.supergraph);
  });

  // @apollo/gateway asks pricing for `isExpensive` without `price` here and answers with its error
  it('fetches the chain from the subgraph that requires first: { deals { label isExpensive } }', async () => {
    const response = await gw().execute({ query: '{ deals { label isExpensive } }' }, {});
    assert.equal(response.errors, undefined);
    const expected = products.map((p) => ({ label: p.price > 100 ? 'premium' : 'budget', isExpensive: p.price > 100 }));
    assert.deepEqual(response.data, { deals: expected });
  });
});

/** Serves the subgraphs, then asks gw (the graph `graphOf` builds) and @apollo/gateway each query. */
function answersAsApollo<Name extends keyof typeof resolvers>(
  sdl: Record<Name, string>,
  queries: Array<{ title: string } & ApolloRequest>,
  graphOf: (composed: ComposedSupergraph) => FederatedGraph,
): () => FederatedGraph {
  let subgraphs: RunningSubgraph[];
  let apollo: RunningApolloGateway;
  let graph: FederatedGraph;

  before(async () => {
    const names = Object.keys(sdl) as Name[];
    const schemaOf = (name: Name) =>
      buildSubgraphSchema([{ typeDefs: parse(sdl[name]), resolvers: resolvers[name] as never }]);
    subgraphs = await Promise.all(names.map((name) => serveSubgraph(name, schemaOf(name))));
    apollo = await startApolloGateway(subgraphs.map(({ name, url }) => ({ name, url })));
    const composed = composeSupergraph(subgraphs.map(({ name, url }) => ({ name, url, sdl: sdl[name as Name] })));
    if (!composed.ok)
      assert.fail(`gw does not compose these subgraphs: ${composed.errors.map((e) => e.message).join(',')}`);
    graph = graphOf(composed.supergraph);
  });
  beforeEach(() => {
    for (const subgraph of subgraphs) subgraph.received.length = 0;
  });
  after(async () => {
    await apollo?.stop();
    await Promise.all((subgraphs ?? []).map((s) => s.stop()));
  });

  for (const { title, ...request } of queries) {
    it(`${title}: ${request.query}`, async () => {
      const expected = await apollo.execute(request);
      assert.equal(expected.errors, undefined, 'the oracle answers without errors');
      const apolloSent = representationsSent(subgraphs);
      const response = await graph.execute(request, {});
      assert.equal(response.errors, undefined);
      assert.equal(JSON.stringify(response.data), JSON.stringify(expected.data));
      assert.deepEqual(representationsSent(subgraphs), apolloSent, 'each subgraph gets the entities Apollo sends');
    });
  }
  return () => graph;
}

/**
 * The `_entities` representations each subgraph received since the last call, sorted; the record
 * is cleared. Field order is no part of a representation, nor is the `__typename` of a nested
 * object (gw sends it, @apollo/gateway does not; a subgraph reads neither).
 */
function representationsSent(subgraphs: RunningSubgraph[]): Record<string, string[]> {
  const sent: Record<string, string[]> = {};
  for (const subgraph of subgraphs) {
    const entities = subgraph.received.filter((r) => r.query.includes('_entities'));
    const representations = entities.flatMap((r) => r.variables.representations as unknown[]);
    sent[subgraph.name] = representations.map((r) => JSON.stringify(comparable(r, true))).sort();
    subgraph.received.length = 0;
  }
  return sent;
}

function comparable(value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => comparable(item, false));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([name]) => top || name !== '__typename');
  entries.sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries.map(([name, field]) => [name, comparable(field, false)]));
}
