import { strict as assert } from 'node:assert';
import { buildSchema } from 'graphql';
import { readClientOperation } from '../../../services/graphql-engine/lib/federation/client-operation';
import { planOperation } from '../../../services/graphql-engine/lib/federation/plan-operation';
import type { QueryPlan } from '../../../services/graphql-engine/lib/federation/query-plan';
import { benchmarkSupergraph } from '../../support/federation-subgraphs';

const supergraph = benchmarkSupergraph({
  accounts: 'http://a',
  inventory: 'http://i',
  products: 'http://p',
  reviews: 'http://r',
});
const plan = (query: string, operationName?: string): QueryPlan =>
  planOperation(supergraph, readClientOperation(supergraph.schema, query, operationName));
const compact = (query: string) => query.replace(/\s+/g, ' ');

describe('federation query planner', () => {
  it('adds the key the target subgraph declares to the parent fetch and asks _entities for the rest', () => {
    const { fetches } = plan('{ topProducts { name inStock } }');
    assert.equal(fetches.length, 2);
    assert.equal(fetches[0].subgraph, 'products');
    assert.equal(compact(fetches[0].query), 'query { topProducts { __typename name upc } }');
    assert.equal(fetches[1].subgraph, 'inventory');
    assert.equal(
      compact(fetches[1].query),
      'query($representations: [_Any!]!) { _entities(representations: $representations) { ... on Product { inStock } } }',
    );
    assert.deepEqual(fetches[1].dependsOn, [0]);
    assert.deepEqual(fetches[1].entity?.path, ['topProducts']);
  });

  it('selects @requires fields the parent can answer and sends them in the representation', () => {
    const { fetches } = plan('{ topProducts { shippingEstimate } }');
    assert.equal(compact(fetches[0].query), 'query { topProducts { __typename upc price weight } }');
    assert.deepEqual(
      fetches[1].entity?.representation.map((n) => n.name),
      ['upc', 'price', 'weight'],
    );
  });

  it('waits for a sibling fetch that brings the required fields when the parent can not', () => {
    const { fetches } = plan('{ users { reviews { product { name shippingEstimate } } } }');
    const products = fetches.find((f) => f.subgraph === 'products')!;
    const inventory = fetches.find((f) => f.subgraph === 'inventory')!;
    assert.ok(inventory.dependsOn.includes(products.id), 'inventory waits for price and weight');
    assert.match(compact(products.query), /\.\.\. on Product \{ name price weight \}/);
    assert.equal(fetches.filter((f) => f.subgraph === 'products').length, 1);
  });

  it('keeps @provides fields with the providing subgraph', () => {
    const { fetches } = plan('{ topProducts { reviews { author { username } } } }');
    assert.deepEqual(
      fetches.map((f) => f.subgraph),
      ['products', 'reviews'],
    );
  });

  it('passes only the variables a subgraph query uses, with their definitions', () => {
    const { fetches } = plan('query Q($n: Int = 2, $unused: String) { topProducts(first: $n) { inStock } }');
    assert.equal(compact(fetches[0].query), 'query($n: Int = 2) { topProducts(first: $n) { __typename upc } }');
    assert.deepEqual(fetches[0].variables, ['n']);
    assert.deepEqual(fetches[1].variables, []);
  });

  it("runs independent root fields in parallel and a mutation's root fields in order", () => {
    const { fetches } = plan('{ me { id } topProducts { upc } }');
    assert.deepEqual(
      fetches.map((f) => [f.subgraph, f.dependsOn]),
      [
        ['accounts', []],
        ['products', []],
      ],
    );
    const sdl = 'type Query { x: Int } type Mutation { a: Int b: Int c: Int }';
    const at = (s: string) => ({ resolvedBy: [s], requires: {}, provides: {} });
    const withMutations = {
      ...supergraph,
      schema: buildSchema(sdl),
      sdl,
      fields: { Query: { x: at('accounts') }, Mutation: { a: at('accounts'), b: at('products'), c: at('accounts') } },
    };
    const mutation = planOperation(
      withMutations,
      readClientOperation(withMutations.schema, 'mutation { a b c }', undefined),
    );
    assert.deepEqual(
      mutation.fetches.map((f) => [f.subgraph, f.dependsOn, compact(f.query)]),
      [
        ['accounts', [], 'mutation { a }'],
        ['products', [0], 'mutation { b }'],
        ['accounts', [1], 'mutation { c }'],
      ],
    );
  });

  it('refuses a field no subgraph resolves with a planning error', () => {
    const broken = {
      ...supergraph,
      fields: {
        ...supergraph.fields,
        Product: { ...supergraph.fields.Product, inStock: { resolvedBy: [], requires: {}, provides: {} } },
      },
    };
    assert.throws(
      () => planOperation(broken, readClientOperation(broken.schema, '{ topProducts { inStock } }', undefined)),
      /No subgraph resolves Product.inStock/,
    );
  });
});
