import { strict as assert } from 'node:assert';
import { composeSupergraph } from '../../../lib/graphql/federation/compose-supergraph';
import { readClientOperation } from '../../../services/graphql-engine/lib/federation/client-operation';
import { v1SupergraphOf } from '../../../services/graphql-engine/lib/federation/federation2/supergraph-from-join';
import { planOperation } from '../../../services/graphql-engine/lib/federation/plan-operation';
import {
  isFederation2,
  type Federation2Supergraph,
  type Supergraph,
} from '../../../services/graphql-engine/lib/federation/supergraph';
const { SDL_FEDERATION_2 } = require('../../../bench/graphql/federation/schema.js') as {
  SDL_FEDERATION_2: Record<string, string>;
};

const link = (imports: string[]) =>
  `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ${JSON.stringify(imports)})`;

function composed(subgraphs: Record<string, string>): Federation2Supergraph {
  const result = composeSupergraph(
    Object.entries(subgraphs).map(([name, sdl]) => ({ name, sdl, url: `http://${name}` })),
  );
  if (!result.ok) assert.fail(result.errors.map((e) => e.message).join('\n'));
  if (!isFederation2(result.supergraph)) assert.fail('expected a Federation 2 supergraph');
  return result.supergraph;
}

function derived(subgraphs: Record<string, string>): Supergraph {
  const derivation = v1SupergraphOf(composed(subgraphs));
  if (!('supergraph' in derivation)) assert.fail(derivation.obstacles.join('\n'));
  return derivation.supergraph;
}

function obstaclesOf(subgraphs: Record<string, string>): string[] {
  const derivation = v1SupergraphOf(composed(subgraphs));
  return 'obstacles' in derivation ? derivation.obstacles : [];
}

describe('Federation 2 supergraphs planned by gw’s own planner (supergraph-from-join)', () => {
  it('reads owners, @requires, @provides and keys of the benchmark subgraphs from the join__ directives', () => {
    const supergraph = derived(SDL_FEDERATION_2);
    assert.deepEqual(
      supergraph.fields.User.username.resolvedBy,
      ['accounts'],
      'an @external declaration resolves nothing',
    );
    assert.deepEqual(supergraph.fields.Review.author.provides, { reviews: 'username' });
    assert.deepEqual(supergraph.fields.Product.shippingEstimate, {
      resolvedBy: ['inventory'],
      requires: { inventory: 'price weight' },
      provides: {},
    });
    assert.deepEqual(supergraph.fields.Product.upc.resolvedBy, ['inventory', 'products', 'reviews']);
    assert.deepEqual(supergraph.fields.Query.topProducts.resolvedBy, ['products']);
    assert.deepEqual(supergraph.entities.Product.keys, { inventory: ['upc'], products: ['upc'], reviews: ['upc'] });
    assert.deepEqual(
      supergraph.subgraphs.map((s) => s.name),
      ['accounts', 'inventory', 'products', 'reviews'],
    );
  });

  it('plans a @provides’d shareable field from the providing subgraph and the rest from its owner', () => {
    const supergraph = derived(SDL_FEDERATION_2);
    const plan = planOperation(
      supergraph,
      readClientOperation(supergraph.schema, '{ topProducts { reviews { author { username name } } } }', undefined),
    );
    assert.deepEqual(
      plan.fetches.map((f) => f.subgraph),
      ['products', 'reviews', 'accounts'],
    );
    assert.match(plan.fetches[1].query, /author \{ __typename username id \}/);
    assert.match(plan.fetches[2].query, /\.\.\. on User \{ name \}/);
  });

  it('never sends an _entities fetch to a key declared resolvable: false', () => {
    const supergraph = derived({
      a: `${link(['@key'])} type A @key(fields: "id") @key(fields: "pId", resolvable: false) { id: ID! pId: ID! name: String }`,
      b: `${link(['@key'])} type Query { b: B } type B { a: A } type A @key(fields: "id", resolvable: false) { id: ID! other: String }`,
    });
    assert.deepEqual(supergraph.entities.A.keys, { a: ['id'] });
    const plan = planOperation(
      supergraph,
      readClientOperation(supergraph.schema, '{ b { a { other name } } }', undefined),
    );
    assert.deepEqual(
      plan.fetches.map((f) => [f.subgraph, f.entity?.typeName]),
      [
        ['b', undefined],
        ['a', 'A'],
      ],
    );
  });

  it('leaves @override, @interfaceObject and @inaccessible to the Federation 2 planner', () => {
    const override = obstaclesOf({
      a: `${link(['@key'])} type Query { p: P } type P @key(fields: "id") { id: ID! }`,
      b: `${link(['@key', '@override'])} type P @key(fields: "id") { id: ID! price: Int @override(from: "a") }`,
    });
    assert.ok(override.includes('P.price is overridden'), override.join('\n'));
    const interfaceObject = obstaclesOf({
      a: `${link(['@key'])} type Query { n: N } interface N @key(fields: "id") { id: ID! } type M implements N @key(fields: "id") { id: ID! }`,
      b: `${link(['@key', '@interfaceObject'])} type N @key(fields: "id") @interfaceObject { id: ID! extra: Int }`,
    });
    assert.ok(interfaceObject.includes('N is an @interfaceObject'), interfaceObject.join('\n'));
    const inaccessible = obstaclesOf({
      a: `${link(['@key', '@inaccessible'])} type Query { p: P } type P @key(fields: "id") { id: ID! secret: Int @inaccessible }`,
    });
    assert.ok(inaccessible.includes('it has @inaccessible parts'), inaccessible.join('\n'));
  });

  it('leaves a shareable field to the Federation 2 planner when one owner can not complete the value it returns', () => {
    const obstacles = obstaclesOf({
      name: `${link(['@shareable'])} type Query { product: Product @shareable } type Product @shareable { id: ID! name: String }`,
      price: `${link(['@shareable'])} type Query { product: Product @shareable } type Product @shareable { id: ID! price: Int }`,
    });
    assert.ok(
      obstacles.includes('Query.product is resolved by several subgraphs and NAME can not complete its Product'),
      obstacles.join('\n'),
    );
  });

  it('keeps a shareable field whose owners each answer all of the value it returns', () => {
    const money = 'type Money @shareable { amount: Int currency: String }';
    const supergraph = derived({
      a: `${link(['@key', '@shareable'])} type Query { p: P } type P @key(fields: "id") { id: ID! cost: Money @shareable } ${money}`,
      b: `${link(['@key', '@shareable'])} type P @key(fields: "id") { id: ID! cost: Money @shareable } ${money}`,
    });
    assert.deepEqual(supergraph.fields.P.cost.resolvedBy, ['a', 'b']);
  });

  it('plans @requires of a nested selection, of a field that requires itself, on a type its subgraph returns itself', () => {
    const nested = derived({
      a: `${link(['@key'])} type Query { p: P } type P @key(fields: "id") { id: ID! dims: Dims } type Dims { w: Int }`,
      b: `${link(['@key', '@external', '@requires'])} type P @key(fields: "id") { id: ID! dims: Dims @external area: Int @requires(fields: "dims { w }") } type Dims { w: Int @external }`,
    });
    assert.deepEqual(nested.fields.P.area, { resolvedBy: ['b'], requires: { b: 'dims{w}' }, provides: {} });
    const chainedAndReturnedItself = derived({
      a: `${link(['@key'])} type A @key(fields: "id") { id: ID! name: String }`,
      b: `${link(['@key', '@external', '@requires'])} type Query { as: [A] } type A @key(fields: "id") { id: ID! name: String @external greeting: String @requires(fields: "name") }`,
      c: `${link(['@key', '@external', '@requires'])} type A @key(fields: "id") { id: ID! greeting: String @external echo: String @requires(fields: "greeting") }`,
    });
    assert.deepEqual(chainedAndReturnedItself.fields.A.greeting.requires, { b: 'name' });
    assert.deepEqual(chainedAndReturnedItself.fields.A.echo.requires, { c: 'greeting' });
  });
});
