import { strict as assert } from 'node:assert';
import { graphql } from 'graphql';
import { composeSupergraph, type CompositionResult } from '../../../../lib/graphql/federation/compose-supergraph';
import { isFederation2, type Supergraph } from '../../../../lib/graphql/federation/supergraph';
import { benchmarkSubgraphs } from './benchmark-subgraphs';

function compose(...subgraphs: Array<[name: string, sdl: string]>): CompositionResult {
  return composeSupergraph(subgraphs.map(([name, sdl]) => ({ name, sdl, url: `http://${name}.test/graphql` })));
}

function composed(...subgraphs: Array<[name: string, sdl: string]>): Supergraph {
  const result = compose(...subgraphs);
  if (!result.ok)
    assert.fail(`expected the subgraphs to compose, got:\n${result.errors.map((e) => e.message).join('\n')}`);
  if (isFederation2(result.supergraph)) assert.fail('expected a Federation v1 composition');
  return result.supergraph;
}

/** The one error of a failed composition: its rule and message. */
function failure(...subgraphs: Array<[name: string, sdl: string]>): { rule: string; message: string } {
  const result = compose(...subgraphs);
  assert.equal(result.ok, false, 'expected composition to fail');
  const { errors } = result as { errors: Array<{ rule: string; message: string }> };
  assert.equal(errors.length, 1, `expected one error, got:\n${errors.map((e) => e.message).join('\n')}`);
  return { rule: errors[0].rule, message: errors[0].message };
}

const users = `type Query { me: User } type User @key(fields: "id") { id: ID! name: String }`;

describe('federation v1 composition', () => {
  describe('valid subgraph sets', () => {
    it('composes the benchmark subgraphs into one client schema without federation types', () => {
      const result = composeSupergraph(benchmarkSubgraphs());
      assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
      const { sdl, schema, subgraphs } = result.supergraph;
      for (const federationOnly of [
        '_service',
        '_entities',
        '_Any',
        '_Entity',
        '_Service',
        '_FieldSet',
        '@key',
        '@external',
        '@requires',
        '@provides',
        '@extends',
      ]) {
        assert.ok(!sdl.includes(federationOnly), `${federationOnly} must not be in the client schema`);
      }
      assert.deepEqual(Object.keys(schema.getQueryType()!.getFields()), ['me', 'user', 'users', 'topProducts']);
      const productFields = Object.keys((schema.getType('Product') as unknown as { getFields(): object }).getFields());
      assert.deepEqual(productFields, ['upc', 'name', 'price', 'weight', 'inStock', 'shippingEstimate', 'reviews']);
      assert.deepEqual(
        subgraphs.map((s) => [s.name, s.url, s.subscriptionType]),
        [
          ['accounts', 'http://accounts.test/graphql', 'graphql-ws'],
          ['inventory', 'http://inventory.test/graphql', 'graphql-ws'],
          ['products', 'http://products.test/graphql', 'graphql-ws'],
          ['reviews', 'http://reviews.test/graphql', 'graphql-ws'],
        ],
      );
    });

    it('places each field with the subgraphs that resolve it, @external declarations not counted', () => {
      const { fields, entities } = (composeSupergraph(benchmarkSubgraphs()) as { supergraph: Supergraph }).supergraph;
      assert.deepEqual(fields.Product.price.resolvedBy, ['products']);
      assert.deepEqual(fields.Product.inStock.resolvedBy, ['inventory']);
      assert.deepEqual(fields.User.username.resolvedBy, ['accounts']);
      assert.deepEqual(fields.User.reviews.resolvedBy, ['reviews']);
      assert.deepEqual(fields.Query.topProducts.resolvedBy, ['products']);
      assert.deepEqual(entities.Product.keys, { inventory: ['upc'], products: ['upc'], reviews: ['upc'] });
      assert.deepEqual(entities.User.keys, { accounts: ['id'], reviews: ['id'] });
    });

    it('records @requires and @provides in the placement, in one spelling', () => {
      const { fields } = (composeSupergraph(benchmarkSubgraphs()) as { supergraph: Supergraph }).supergraph;
      assert.deepEqual(fields.Product.shippingEstimate, {
        resolvedBy: ['inventory'],
        requires: { inventory: 'price weight' },
        provides: {},
      });
      assert.deepEqual(fields.Review.author, {
        resolvedBy: ['reviews'],
        requires: {},
        provides: { reviews: 'username' },
      });
    });

    it('accepts several keys, composite keys and nested keys, each extension using one of them', () => {
      const supergraph = composed(
        [
          'catalog',
          `type Query { items: [Item] } type Org { id: ID! } type Item @key(fields: "id") @key(fields: "sku   region") @key(fields: "id org { id }") { id: ID! sku: String! region: String! org: Org! }`,
        ],
        [
          'stock',
          `extend type Item @key(fields: "sku region") { sku: String! @external region: String! @external stock: Int }`,
        ],
        [
          'prices',
          `extend type Item @key(fields: "id org { id }") { id: ID! @external org: Org! @external price: Int } type Org { id: ID! }`,
        ],
      );
      assert.deepEqual(supergraph.entities.Item.keys, {
        catalog: ['id', 'sku region', 'id org { id }'],
        stock: ['sku region'],
        prices: ['id org { id }'],
      });
      assert.deepEqual(supergraph.fields.Item.stock.resolvedBy, ['stock']);
      assert.deepEqual(
        supergraph.fields.Org.id.resolvedBy,
        ['catalog', 'prices'],
        'a shared type is resolved by every subgraph that defines it',
      );
    });

    it('accepts `type T @extends` as an extension and an entity stub that repeats one key', () => {
      const supergraph = composed(
        ['users', users],
        [
          'posts',
          `type Query { posts: [Post] } type Post { id: ID! author: User } type User @extends @key(fields: "id") { id: ID! @external }`,
        ],
      );
      assert.deepEqual(Object.keys(supergraph.fields.User), ['id', 'name']);
      assert.deepEqual(supergraph.fields.User.id.resolvedBy, ['users']);
    });

    it('makes a key field an extension marks @external and the definition lacks its own (as Apollo)', () => {
      const supergraph = composed(
        [
          'products',
          'type Query { top: [Product] } type Product @key(fields: "id name") { id: ID! name: String price: Int }',
        ],
        [
          'catalog',
          `extend type Product @key(fields: "id name") @key(fields: "upc") {
            id: ID! @external name: String @external upc: String! @external
          }`,
        ],
        ['inventory', 'extend type Product @key(fields: "upc") { upc: String @external inStock: Boolean }'],
      );
      const { fields, entities } = supergraph;
      assert.deepEqual(Object.keys(fields.Product), ['id', 'name', 'price', 'upc', 'inStock']);
      assert.deepEqual(fields.Product.upc.resolvedBy, ['catalog', 'inventory']);
      assert.deepEqual(fields.Product.id.resolvedBy, ['products'], 'a key field the definition has stays its own');
      const keys = { products: ['id name'], catalog: ['id name', 'upc'], inventory: ['upc'] };
      assert.deepEqual(entities.Product.keys, keys);
      assert.match(supergraph.sdl, /\n {2}upc: String\n/, 'extensions differing in non-null give the general type');
    });

    it("accepts an extension's @external key field that differs from the definition only in non-null (as Apollo)", () => {
      const supergraph = composed(
        ['a', 'type Query { productInA: Product } type Product @key(fields: "id") { id: ID! name: String }'],
        [
          'b',
          'type Query { productInB: Product } extend type Product @key(fields: "id") { id: ID @external price: Float! }',
        ],
        ['c', 'type Query { x: Int } type Widget @key(fields: "sku") { sku: String }'],
        ['d', 'type Query { y: Int } extend type Widget @key(fields: "sku") { sku: String! @external size: Int }'],
      );
      assert.match(supergraph.sdl, /type Product {\n {2}id: ID!\n/, "the supergraph keeps the definition's type");
      assert.match(supergraph.sdl, /type Widget {\n {2}sku: String\n/, "the supergraph keeps the definition's type");
      assert.deepEqual(supergraph.fields.Product.id.resolvedBy, ['a']);
    });

    it('accepts a shared type extended identically in every subgraph that defines it', () => {
      const trait = 'enum Trait { ONE } extend enum Trait { TWO }';
      const supergraph = composed(['a', `type Query { a: Trait } ${trait}`], ['b', `type Query { b: Trait } ${trait}`]);
      assert.match(supergraph.sdl, /enum Trait {\s+ONE\s+TWO\s+}/);
    });

    it('keeps @deprecated, descriptions and arguments in the client schema, and strips SDL the subgraph prints for the gateway', async () => {
      const printed = `
        directive @key(fields: _FieldSet!) repeatable on OBJECT | INTERFACE
        directive @external on FIELD_DEFINITION
        scalar _Any
        scalar _FieldSet
        type _Service { sdl: String }
        union _Entity = User
        """A person"""
        type User @key(fields: "id") { id: ID! old: String @deprecated(reason: "use name") name(upper: Boolean = false): String }
        type Query { _service: _Service! _entities(representations: [_Any!]!): [_Entity]! me: User }`;
      const { schema, sdl } = composed(['users', printed]);
      assert.ok(sdl.includes('"""A person"""'));
      assert.ok(sdl.includes('old: String @deprecated(reason: "use name")'));
      assert.ok(sdl.includes('name(upper: Boolean = false): String'));
      const result = await graphql({ schema, source: '{ __type(name: "Query") { fields { name } } }' });
      assert.deepEqual(JSON.parse(JSON.stringify(result.data)), { __type: { fields: [{ name: 'me' }] } });
    });
  });

  describe('rules (one error each, in words naming subgraph, type, field and rule)', () => {
    it('a subgraph SDL that is not valid on its own', () => {
      const { rule, message } = failure(['users', 'type Query { me: Usr }']);
      assert.equal(rule, 'INVALID_SUBGRAPH_SDL');
      assert.equal(message, `Subgraph 'users': Unknown type "Usr".`);
    });

    it('federation v2 directives are refused with a hint', () => {
      const { message } = failure(['users', 'type Query { me: String @shareable }']);
      assert.equal(
        message,
        `Subgraph 'users': Unknown directive "@shareable". @shareable belongs to Federation 2: link it with extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@shareable"]).`,
      );
    });

    it('a subgraph with @link to something other than Federation 2 is refused', () => {
      const { rule, message } = failure([
        'users',
        'extend schema @link(url: "https://specs.apollo.dev/link/v1.0") type Query { me: String }',
      ]);
      assert.equal(rule, 'INVALID_SUBGRAPH_SDL');
      assert.equal(
        message,
        `Subgraph 'users': it uses @link but links no Federation 2 specification (https://specs.apollo.dev/federation/v2.x); a Federation v1 subgraph has no @link`,
      );
    });

    it('an extension of an entity without @key', () => {
      const { rule, message } = failure(
        ['users', users],
        ['posts', 'type Query { x: Int } extend type User { posts: Int }'],
      );
      assert.equal(rule, 'INVALID_EXTENSION');
      assert.equal(
        message,
        `Subgraph 'posts' extends entity 'User' without @key; an extension of an entity must carry @key(fields: ...) with a key of the entity ("id") and mark the key fields @external`,
      );
    });

    it('an extension with @key of a type that is not an entity', () => {
      const { rule, message } = failure(
        ['a', 'type Query { t: T } type T { id: ID! }'],
        ['b', 'type Query { x: Int } extend type T @key(fields: "id") { id: ID! @external more: Int }'],
      );
      assert.equal(rule, 'INVALID_EXTENSION');
      assert.equal(
        message,
        `Subgraph 'b' extends type 'T' with @key, but 'T' is not an entity: its definition in subgraph 'a' has no @key`,
      );
    });

    it('an extension without @key of a type that is not an entity', () => {
      const { message } = failure(
        ['a', 'type Query { t: T } type T { id: ID! }'],
        ['b', 'type Query { x: Int } extend type T { more: Int }'],
      );
      assert.equal(
        message,
        `Subgraph 'b' extends type 'T', which is not an entity (its definition in subgraph 'a' has no @key); only entities can be extended in another subgraph`,
      );
    });

    it('an extension of an enum another subgraph defines', () => {
      const { message } = failure(
        ['a', 'type Query { c: Color } enum Color { RED }'],
        ['b', 'type Query { x: Int } extend enum Color { BLUE }'],
      );
      assert.equal(
        message,
        `Subgraph 'b' extends an enum 'Color', which subgraph 'a' defines; only entities (object types with @key) can be extended in another subgraph`,
      );
    });

    it('a key field of an extension not marked @external', () => {
      const { rule, message } = failure(
        ['users', users],
        ['posts', 'type Query { x: Int } extend type User @key(fields: "id") { id: ID! posts: Int }'],
      );
      assert.equal(rule, 'KEY_FIELD_NOT_EXTERNAL');
      assert.equal(
        message,
        `Subgraph 'posts': key field 'User.id' of the extension must be marked @external (subgraph 'users' resolves it)`,
      );
    });

    it('a key field the extension does not declare', () => {
      const { message } = failure(
        ['users', users],
        ['posts', 'type Query { x: Int } extend type User @key(fields: "id") { posts: Int }'],
      );
      assert.equal(
        message,
        `Subgraph 'posts' extends entity 'User' with @key(fields: "id") but does not declare the key field 'id'; declare it and mark it @external`,
      );
    });

    it('a key selecting a field the type does not have', () => {
      const { rule, message } = failure([
        'users',
        'type Query { me: User } type User @key(fields: "id email") { id: ID! }',
      ]);
      assert.equal(rule, 'KEY_FIELDS_INVALID');
      assert.equal(
        message,
        `Subgraph 'users': @key(fields: "id email") on type 'User' is invalid: type 'User' has no field 'email'`,
      );
    });

    it('a nested key without a sub-selection', () => {
      const { message } = failure(['a', 'type Query { t: T } type O { id: ID! } type T @key(fields: "o") { o: O! }']);
      assert.equal(
        message,
        `Subgraph 'a': @key(fields: "o") on type 'T' is invalid: field 'T.o' returns an object type and needs a sub-selection`,
      );
    });

    it('an entity stub with more than one key', () => {
      const { rule, message } = failure(
        [
          'users',
          'type Query { me: User } type User @key(fields: "id") @key(fields: "email") { id: ID! email: String! }',
        ],
        [
          'posts',
          'type Query { p: User } extend type User @key(fields: "id") @key(fields: "email") { id: ID! @external email: String! @external }',
        ],
      );
      assert.equal(rule, 'INVALID_ENTITY_STUB');
      assert.equal(
        message,
        `Subgraph 'posts' declares an entity stub of 'User' with 2 keys; a stub repeats exactly one key of the base entity (one of "id", "email")`,
      );
    });

    it('an entity stub whose key is not a key of the entity', () => {
      const { message } = failure(
        ['users', 'type Query { me: User } type User @key(fields: "id") { id: ID! email: String! }'],
        ['posts', 'type Query { p: User } extend type User @key(fields: "email") { email: String! @external }'],
      );
      assert.equal(
        message,
        `Subgraph 'posts' declares an entity stub of 'User' with @key(fields: "email"), which is not a key of the entity in subgraph 'users' (its keys: "id")`,
      );
    });

    it('extensions adding one key field with incompatible types', () => {
      const { rule, message } = failure(
        ['products', 'type Query { top: [Product] } type Product @key(fields: "id") { id: ID! }'],
        [
          'catalog',
          'extend type Product @key(fields: "id") @key(fields: "upc") { id: ID! @external upc: String! @external }',
        ],
        ['inventory', 'extend type Product @key(fields: "upc") { upc: Int @external inStock: Boolean }'],
      );
      assert.equal(rule, 'EXTERNAL_FIELD_MISMATCH');
      assert.equal(
        message,
        `Key field 'Product.upc', which the definition of 'Product' does not have, is 'String!' in subgraph ` +
          `'catalog' and 'Int' in subgraph 'inventory'; the extensions that add it must give it the same type ` +
          '(non-null or not)',
      );
    });

    it('an extension keyed only on a field no other subgraph resolves', () => {
      const { rule, message } = failure(
        ['products', 'type Query { top: [Product] } type Product @key(fields: "id") { id: ID! }'],
        ['inventory', 'extend type Product @key(fields: "upc") { upc: String! @external inStock: Boolean }'],
      );
      assert.equal(rule, 'UNREACHABLE_EXTENSION');
      assert.equal(
        message,
        `Subgraph 'inventory' extends entity 'Product' with @key(fields: "upc"), but no other subgraph resolves ` +
          `those key fields, so its fields of 'Product' can never be fetched; give the extension a key of the ` +
          `definition in subgraph 'products' ("id")`,
      );
    });

    it('an entity defined in two subgraphs', () => {
      const { rule, message } = failure(
        ['users', users],
        ['people', 'type Query { x: Int } type User @key(fields: "id") { id: ID! name: String }'],
      );
      assert.equal(rule, 'ENTITY_DEFINED_TWICE');
      assert.equal(
        message,
        `Entity 'User' is defined in subgraphs 'users' and 'people'; an entity can not be a shared type: define it in one subgraph and reference it from the others with an extension or entity stub (extend type User @key(fields: ...))`,
      );
    });

    it('a shared type that is not identical', () => {
      const { rule, message } = failure(
        ['a', 'type Query { a: Money } type Money { amount: Int currency: String }'],
        ['b', 'type Query { b: Money } type Money { amount: Float }'],
      );
      assert.equal(rule, 'SHARED_TYPE_MISMATCH');
      assert.equal(
        message,
        `Shared type 'Money' is not identical in subgraphs 'a' and 'b': field 'currency' is in subgraph 'a' only; field 'amount' is 'Int' in 'a' and 'Float' in 'b'`,
      );
    });

    it('a shared type extended in one subgraph only does not normalise identically', () => {
      const { rule, message } = failure(
        ['a', 'type Query { a: Trait } enum Trait { ONE } extend enum Trait { TWO }'],
        ['b', 'type Query { b: Trait } enum Trait { ONE }'],
      );
      assert.equal(rule, 'SHARED_TYPE_MISMATCH');
      assert.equal(
        message,
        `Shared type 'Trait' is not identical in subgraphs 'a' and 'b': enum value 'TWO' is in subgraph 'a' only; compared after applying the extensions of 'Trait' in subgraph 'a': a shared type may only be extended when every subgraph that defines it ends up with the same type`,
      );
    });

    it('an extension orphan: the base type is defined in no subgraph', () => {
      const { rule, message } = failure(
        ['users', users],
        ['posts', 'type Query { x: Int } extend type Post @key(fields: "id") { id: ID! @external title: String }'],
      );
      assert.equal(rule, 'EXTENSION_ORPHAN');
      assert.equal(
        message,
        `Type 'Post' is extended in subgraph 'posts' but defined in no subgraph (extension orphan); define 'Post' in exactly one subgraph`,
      );
    });

    it('an extension orphan: the base type is defined in more than one subgraph', () => {
      const { rule, message } = failure(
        ['a', 'type Query { a: Money } type Money { amount: Int }'],
        ['b', 'type Query { b: Money } type Money { amount: Int }'],
        ['c', 'type Query { c: Int } extend type Money { currency: String }'],
      );
      assert.equal(rule, 'EXTENSION_ORPHAN');
      assert.equal(
        message,
        `Subgraph 'c' extends type 'Money', which is defined in more than one subgraph ('a' and 'b') (extension orphan); an extension needs exactly one base definition`,
      );
    });

    it('an @external field the entity does not have, or has with another type', () => {
      const missing = failure(
        ['users', users],
        [
          'posts',
          'type Query { x: Int } extend type User @key(fields: "id") { id: ID! @external age: Int @external posts: Int }',
        ],
      );
      assert.equal(missing.rule, 'EXTERNAL_FIELD_MISMATCH');
      assert.equal(
        missing.message,
        `Subgraph 'posts' marks 'User.age' @external, but the definition of 'User' in subgraph 'users' has no field 'age'`,
      );
      const retyped = failure(
        ['users', users],
        [
          'posts',
          'type Query { x: Int } extend type User @key(fields: "id") { id: ID! @external name: Int @external posts: Int }',
        ],
      );
      assert.equal(
        retyped.message,
        `Field 'User.name' is 'Int' in subgraph 'posts' (@external) but 'String' in subgraph 'users', which defines it; the types must be the same`,
      );
      const nonNull = failure(
        ['users', users],
        [
          'posts',
          'type Query { x: Int } extend type User @key(fields: "id") { id: ID! @external name: String! @external posts: Int @requires(fields: "name") }',
        ],
      );
      assert.equal(
        nonNull.message,
        `Field 'User.name' is 'String!' in subgraph 'posts' (@external) but 'String' in subgraph 'users', which defines it; the types must be the same`,
        'only a key field may differ in non-null',
      );
      const key = failure(
        ['users', users],
        ['posts', 'type Query { x: Int } extend type User @key(fields: "id") { id: String @external posts: Int }'],
      );
      assert.equal(
        key.message,
        `Field 'User.id' is 'String' in subgraph 'posts' (@external) but 'ID!' in subgraph 'users', which defines it; the types must be the same, up to non-null`,
      );
    });

    it('@external on a type the subgraph defines', () => {
      const { rule, message } = failure([
        'users',
        'type Query { me: User } type User @key(fields: "id") { id: ID! name: String @external }',
      ]);
      assert.equal(rule, 'EXTERNAL_ON_BASE');
      assert.equal(
        message,
        `Subgraph 'users' marks 'User.name' @external, but it defines 'User' itself; @external is for fields of an extension (extend type User) that another subgraph resolves`,
      );
    });

    it('a field of an entity resolved by two subgraphs', () => {
      const { rule, message } = failure(
        ['users', users],
        ['posts', 'type Query { x: Int } extend type User @key(fields: "id") { id: ID! @external name: String }'],
      );
      assert.equal(rule, 'FIELD_DEFINED_TWICE');
      assert.equal(
        message,
        `Field 'User.name' is resolved by subgraphs 'users' and 'posts'; in federation v1 a field of an entity has one owner: mark it @external in subgraph 'posts' or remove it there`,
      );
    });

    it('a root field defined in two subgraphs (federation v1: root fields are never shared)', () => {
      const { rule, message } = failure(['users', users], ['people', 'extend type Query { me: String }']);
      assert.equal(rule, 'ROOT_FIELD_DEFINED_TWICE');
      assert.equal(
        message,
        `Root field 'Query.me' is defined in subgraphs 'users' and 'people'; in federation v1 each root field belongs to exactly one subgraph: rename or remove it in all but one`,
      );
    });

    it('@requires naming a field the extension does not mark @external', () => {
      const { rule, message } = failure(
        [
          'products',
          'type Query { p: Product } type Product @key(fields: "upc") { upc: String! price: Int weight: Int }',
        ],
        [
          'inventory',
          'extend type Product @key(fields: "upc") { upc: String! @external price: Int @external estimate: Int @requires(fields: "price weight") }',
        ],
      );
      assert.equal(rule, 'INVALID_REQUIRES');
      assert.equal(
        message,
        `Subgraph 'inventory': @requires(fields: "price weight") on 'Product.estimate' names 'weight', which the extension of 'Product' must declare and mark @external`,
      );
    });

    it('@provides on a field that does not return an entity, or naming a field not marked @external', () => {
      const notEntity = failure(['a', 'type Query { a: Box @provides(fields: "size") } type Box { size: Int }']);
      assert.equal(notEntity.rule, 'INVALID_PROVIDES');
      assert.equal(
        notEntity.message,
        `Subgraph 'a': @provides(fields: "size") on 'Query.a' is on a field returning 'Box', which is not an entity; @provides names fields of a returned entity`,
      );
      const notExternal = failure(
        ['users', users],
        [
          'posts',
          'type Query { p: Post } type Post { author: User @provides(fields: "name") } extend type User @key(fields: "id") { id: ID! @external }',
        ],
      );
      assert.equal(
        notExternal.message,
        `Subgraph 'posts': @provides(fields: "name") on 'Post.author' names 'name', which subgraph 'posts' must declare on 'User' and mark @external`,
      );
    });

    it('a type that is an object in one subgraph and an enum in another', () => {
      const { rule, message } = failure(
        ['a', 'type Query { a: Kind } type Kind { id: ID }'],
        ['b', 'type Query { b: Kind } enum Kind { X }'],
      );
      assert.equal(rule, 'TYPE_KIND_MISMATCH');
      assert.equal(
        message,
        `Type 'Kind' is not the same kind of type in every subgraph: an object type in subgraph 'a', an enum in subgraph 'b'`,
      );
    });

    it('lists every error of a subgraph set at once', () => {
      const result = compose(
        ['users', users],
        ['people', 'extend type Query { me: String } extend type Post { x: Int }'],
      );
      assert.equal(result.ok, false);
      assert.deepEqual((result as { errors: Array<{ rule: string }> }).errors.map((e) => e.rule).sort(), [
        'EXTENSION_ORPHAN',
        'ROOT_FIELD_DEFINED_TWICE',
      ]);
    });
  });
});
