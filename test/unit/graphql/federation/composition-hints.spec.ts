import { strict as assert } from 'node:assert';
import { composeSupergraph, type SubgraphSource } from '../../../../lib/graphql/federation/compose-supergraph';
import { MAX_HINTS, type CompositionHint } from '../../../../lib/graphql/federation/composition-hints';

const LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@override", "@external", "@inaccessible"])';

function compose(subgraphs: Record<string, string>, link = LINK): CompositionHint[] {
  const sources: SubgraphSource[] = Object.entries(subgraphs).map(([name, sdl]) => ({
    name,
    sdl: link ? `${link}\n${sdl}` : sdl,
    url: `http://${name}.test/graphql`,
  }));
  const result = composeSupergraph(sources, { hints: true });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  return result.hints;
}

function withCode(hints: CompositionHint[], code: string): CompositionHint[] {
  return hints.filter((hint) => hint.code === code);
}

const PRODUCT = 'type Query { product: Product }';

describe('composition hints', () => {
  describe('INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE', () => {
    it('names the field, the type the supergraph uses and the subgraph that differs', () => {
      const hints = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! name: String! @shareable }`,
        inventory: 'type Product @key(fields: "id") { id: ID! name: String @shareable }',
      });
      const [hint, ...more] = withCode(hints, 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE');
      assert.equal(more.length, 0, JSON.stringify(hints));
      assert.deepEqual(
        { ...hint, message: undefined },
        {
          code: 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE',
          message: undefined,
          subgraphs: ['products', 'inventory'],
          type: 'Product',
          field: 'name',
        },
      );
      assert.equal(
        hint.message,
        'Type of field "Product.name" is inconsistent but compatible across subgraphs: the supergraph uses type "String" (as in subgraph "inventory"), but subgraph "products" declares "String!"',
      );
    });

    it('gives none when the shared field has one type, or when only an @external declaration differs', () => {
      const shared = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! name: String @shareable }`,
        inventory: 'type Product @key(fields: "id") { id: ID! name: String @shareable }',
      });
      assert.deepEqual(withCode(shared, 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE'), []);
      // Federation v1 lets an extension's key field differ in nullability; it resolves nothing
      const external = compose(
        {
          accounts: 'extend type Query { me: User } type User @key(fields: "id") { id: ID! name: String }',
          reviews: 'extend type User @key(fields: "id") { id: ID @external rating: Int }',
        },
        '',
      );
      assert.deepEqual(withCode(external, 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE'), []);
    });
  });

  describe('INCONSISTENT_BUT_COMPATIBLE_ARGUMENT_TYPE and INCONSISTENT_DEFAULT_VALUE_PRESENCE', () => {
    it('names the argument, the non-null type the supergraph uses, and the subgraph without the default', () => {
      const hints = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! price(currency: String! = "EUR"): Int @shareable }`,
        inventory: 'type Product @key(fields: "id") { id: ID! price(currency: String): Int @shareable }',
      });
      const [type] = withCode(hints, 'INCONSISTENT_BUT_COMPATIBLE_ARGUMENT_TYPE');
      assert.equal(
        type?.message,
        'Type of argument "Product.price(currency:)" is inconsistent but compatible across subgraphs: the supergraph uses type "String!" (as in subgraph "products"), but subgraph "inventory" declares "String"',
      );
      assert.deepEqual([type.type, type.field, type.subgraphs], ['Product', 'price', ['products', 'inventory']]);
      const [presence] = withCode(hints, 'INCONSISTENT_DEFAULT_VALUE_PRESENCE');
      assert.match(
        presence?.message ?? '',
        /^Argument "Product\.price\(currency:\)" has a default value in only some subgraphs: subgraph "products" gives "EUR", but subgraph "inventory" gives none; the supergraph /,
      );
    });

    it('gives none when the arguments agree, and names an input field whose default is missing in one subgraph', () => {
      const agreeing = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! price(currency: String = "EUR"): Int @shareable }`,
        inventory: 'type Product @key(fields: "id") { id: ID! price(currency: String = "EUR"): Int @shareable }',
      });
      assert.deepEqual(withCode(agreeing, 'INCONSISTENT_BUT_COMPATIBLE_ARGUMENT_TYPE'), []);
      assert.deepEqual(withCode(agreeing, 'INCONSISTENT_DEFAULT_VALUE_PRESENCE'), []);
      const input = compose({
        products: 'type Query { search(filter: Filter): Int } input Filter { limit: Int = 10 }',
        inventory: 'type Query { stock(filter: Filter): Int } input Filter { limit: Int }',
      });
      const [hint] = withCode(input, 'INCONSISTENT_DEFAULT_VALUE_PRESENCE');
      assert.match(hint?.message ?? '', /^Input field "Filter\.limit" has a default value in only some subgraphs/);
      assert.deepEqual([hint.type, hint.field], ['Filter', 'limit']);
    });
  });

  describe('INCONSISTENT_ENTITY', () => {
    it('names the subgraph declaring the type without a @key', () => {
      const hints = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! @shareable name: String @shareable }`,
        inventory: 'type Query { featured: Product } type Product { id: ID! @shareable name: String @shareable }',
      });
      const [hint] = withCode(hints, 'INCONSISTENT_ENTITY');
      assert.equal(
        hint?.message,
        'Type "Product" is declared as an entity (has a @key applied) in some but not all defining subgraphs: it has no @key in subgraph "inventory" but has one in subgraph "products"',
      );
      assert.equal(hint.type, 'Product');
    });

    it('gives none when every declaring subgraph keys the type', () => {
      const hints = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! name: String }`,
        inventory: 'type Product @key(fields: "id") { id: ID! stock: Int }',
      });
      assert.deepEqual(withCode(hints, 'INCONSISTENT_ENTITY'), []);
    });
  });

  describe('OVERRIDE_DIRECTIVE_CAN_BE_REMOVED and FROM_SUBGRAPH_DOES_NOT_EXIST', () => {
    it('names the field whose from subgraph no longer declares it, and an override from a missing subgraph', () => {
      const hints = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! name: String @override(from: "inventory")
          price: Int @override(from: "legacy") }`,
        inventory: 'type Product @key(fields: "id") { id: ID! stock: Int }',
      });
      const [removable] = withCode(hints, 'OVERRIDE_DIRECTIVE_CAN_BE_REMOVED');
      assert.equal(
        removable?.message,
        'Field "Product.name" on subgraph "products" no longer exists in the from subgraph "inventory": the @override directive can be removed',
      );
      assert.deepEqual(
        [removable.subgraphs, removable.type, removable.field],
        [['products', 'inventory'], 'Product', 'name'],
      );
      const [missing] = withCode(hints, 'FROM_SUBGRAPH_DOES_NOT_EXIST');
      assert.match(
        missing?.message ?? '',
        /^Source subgraph "legacy" for field "Product\.price" on subgraph "products" does not exist/,
      );
    });

    it('gives none while the from subgraph still declares the field (under a renamed import too)', () => {
      const hints = compose(
        {
          products: `${PRODUCT} type Product @key(fields: "id") { id: ID! name: String @takeOver(from: "inventory") }`,
          inventory: 'type Product @key(fields: "id") { id: ID! name: String }',
        },
        'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", {name: "@override", as: "@takeOver"}])',
      );
      assert.deepEqual(withCode(hints, 'OVERRIDE_DIRECTIVE_CAN_BE_REMOVED'), []);
      assert.deepEqual(withCode(hints, 'FROM_SUBGRAPH_DOES_NOT_EXIST'), []);
    });
  });

  describe('INCONSISTENT_DESCRIPTION', () => {
    it('names the type and field described differently, and the description the supergraph uses', () => {
      const hints = compose({
        products: `${PRODUCT} """A thing for sale""" type Product @key(fields: "id") { id: ID! """Its name""" name: String @shareable }`,
        inventory:
          '"""A thing in stock""" type Product @key(fields: "id") { id: ID! "Its name" name: String @shareable }',
      });
      const found = withCode(hints, 'INCONSISTENT_DESCRIPTION');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.match(
        found[0].message,
        /^Type "Product" has inconsistent descriptions across subgraphs: the supergraph uses "A thing (for sale|in stock)" \(from subgraph "(products|inventory)"\); subgraph "(inventory|products)" describes it as "A thing (in stock|for sale)"$/,
      );
    });

    it('gives none when only one subgraph describes an element', () => {
      const hints = compose({
        products: `${PRODUCT} """A thing for sale""" type Product @key(fields: "id") { id: ID! }`,
        inventory: 'type Product @key(fields: "id") { id: ID! stock: Int }',
      });
      assert.deepEqual(withCode(hints, 'INCONSISTENT_DESCRIPTION'), []);
    });
  });

  describe('UNUSED_ENUM_TYPE', () => {
    it('names an enum nothing uses, in a Federation v1 supergraph too', () => {
      const hints = compose(
        {
          accounts: 'extend type Query { me: User } type User @key(fields: "id") { id: ID! } enum Colour { RED }',
          reviews: 'extend type User @key(fields: "id") { id: ID! @external rating: Stars } enum Stars { ONE TWO }',
        },
        '',
      );
      assert.deepEqual(withCode(hints, 'UNUSED_ENUM_TYPE'), [
        {
          code: 'UNUSED_ENUM_TYPE',
          message:
            'Enum type "Colour" is defined in subgraph "accounts" but no field, argument or input field of any subgraph uses it',
          subgraphs: ['accounts'],
          type: 'Colour',
        },
      ]);
    });

    it('gives none for an enum only an argument uses, nor for the federation spec enums', () => {
      const hints = compose({
        products: `${PRODUCT} type Product @key(fields: "id") { id: ID! price(currency: Currency): Int }
          enum Currency { EUR USD } enum link__Purpose { SECURITY EXECUTION }`,
      });
      assert.deepEqual(withCode(hints, 'UNUSED_ENUM_TYPE'), []);
    });
  });

  describe('INCONSISTENT_EXECUTABLE_DIRECTIVE_PRESENCE', () => {
    it('names the directive and the subgraphs without it', () => {
      const hints = compose({
        products: `directive @lowercase on FIELD ${PRODUCT} type Product @key(fields: "id") { id: ID! }`,
        inventory: 'type Product @key(fields: "id") { id: ID! stock: Int }',
        reviews: 'type Product @key(fields: "id") { id: ID! rating: Int }',
      });
      const [hint] = withCode(hints, 'INCONSISTENT_EXECUTABLE_DIRECTIVE_PRESENCE');
      assert.equal(
        hint?.message,
        'Executable directive "@lowercase" is defined in subgraph "products" but not in subgraphs "inventory" and "reviews": the supergraph accepts it in operations, but subgraphs "inventory" and "reviews" do not know it',
      );
      assert.deepEqual(hint.subgraphs, ['products', 'inventory', 'reviews']);
    });

    it('gives none when every subgraph defines it, nor for a type-system directive', () => {
      const hints = compose({
        products: `directive @lowercase on FIELD directive @audit on FIELD_DEFINITION ${PRODUCT}
          type Product @key(fields: "id") { id: ID! }`,
        inventory: 'directive @lowercase on FIELD type Product @key(fields: "id") { id: ID! stock: Int }',
      });
      assert.deepEqual(withCode(hints, 'INCONSISTENT_EXECUTABLE_DIRECTIVE_PRESENCE'), []);
    });
  });

  it('keeps at most MAX_HINTS hints', () => {
    const enums = Array.from({ length: MAX_HINTS + 20 }, (_, n) => `enum Unused${n} { X }`).join(' ');
    const hints = compose({ products: `${PRODUCT} type Product @key(fields: "id") { id: ID! } ${enums}` });
    assert.equal(hints.length, MAX_HINTS);
    assert.equal(hints[0]?.type, 'Unused0');
  });

  it('computes no hints unless asked (a gateway node loading a supergraph)', () => {
    const sources = [
      { name: 'a', sdl: `${LINK} type Query { e: Int } enum Unused { X }`, url: 'http://a.test/graphql' },
    ];
    const asked = composeSupergraph(sources, { hints: true });
    const unasked = composeSupergraph(sources);
    assert.ok(asked.ok && unasked.ok);
    assert.equal(asked.hints.length, 1);
    assert.deepEqual(unasked.hints, []);
  });

  it('an error whose message names no subgraph gets the subgraphs declaring its type', () => {
    const result = composeSupergraph([
      {
        name: 'products',
        sdl: `${LINK} ${PRODUCT} type Product @key(fields: "id") { id: ID! @inaccessible }`,
        url: 'http://products.test/graphql',
      },
    ]);
    assert.equal(result.ok, false);
    if (result.ok) return;
    const [error] = result.errors;
    assert.equal(error?.rule, 'ONLY_INACCESSIBLE_CHILDREN');
    assert.match(
      error.message,
      /all of its fields are @inaccessible \("Product" is declared in subgraph "products"\)$/,
    );
    assert.deepEqual([error.subgraphs, error.type], [['products'], 'Product']);
  });
});
