import { strict as assert } from 'node:assert';
import { Kind, parse, print, type DocumentNode } from 'graphql';
import { composeSupergraph } from '../../../../lib/graphql/federation/compose-supergraph';
import { withObjectTypeRequires } from '../../../../lib/graphql/federation/requires-field-sets';

const LINK = (imports: string) =>
  `extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: [${imports}])`;

const TYPES = `
  interface Foo { foo: String! }
  interface Bar implements Foo { foo: String! bar: String! }
  type Baz implements Foo & Bar @shareable { foo: String! bar: String! baz: String! }
  type Qux implements Foo & Bar @shareable { foo: String! bar: String! qux: String! }
  type Other implements Foo @shareable { foo: String! }
  union Named = Baz | Other
`;

/** The `fields:` of the directive named `directive` on `Entity.field`, after the rewrite. */
function requiredFields(typeDefs: DocumentNode, field: string, directive = 'requires'): string {
  for (const definition of typeDefs.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION || definition.name.value !== 'Entity') continue;
    const argument = definition.fields
      ?.find((f) => f.name.value === field)
      ?.directives?.find((d) => d.name.value === directive)
      ?.arguments?.find((a) => a.name.value === 'fields');
    if (argument?.value.kind === Kind.STRING) return argument.value.value;
  }
  return assert.fail(`no @${directive}(fields:) on Entity.${field}`);
}

function subgraph(
  requires: string,
  imports = '"@key", "@shareable", "@external", "@requires"',
  directive = 'requires',
) {
  return `${LINK(imports)}
    type Query @shareable { e: Entity }
    type Entity @key(fields: "id") {
      id: ID!
      data: Foo @external
      requirer: String! @${directive}(fields: """${requires}""")
    }
    ${TYPES}`;
}

const normalised = (fieldSet: string) => print(parse(`{ ${fieldSet} }`));

describe('federation 2 composition: @requires field sets with abstract type conditions', () => {
  it('expands a fragment on an interface into its objects, nested fragments kept for the object they match and dropped for the others', () => {
    const rewritten = withObjectTypeRequires(
      parse(subgraph('data { foo ... on Bar { bar ... on Baz { baz } ... on Qux { qux } } }')),
    );
    assert.equal(
      normalised(requiredFields(rewritten, 'requirer')),
      normalised('data { foo ... on Baz { bar baz } ... on Qux { bar qux } }'),
    );
  });

  it('expands a fragment on a union into the members the interface position can also be', () => {
    const rewritten = withObjectTypeRequires(
      parse(subgraph('data { ... on Named { foo ... on Other { __typename } } }')),
    );
    assert.equal(
      normalised(requiredFields(rewritten, 'requirer')),
      normalised('data { ... on Baz { foo } ... on Other { foo __typename } }'),
    );
  });

  it('leaves a fragment on the type of its position as written', () => {
    const fieldSet = 'data { ... on Foo { foo } }';
    const typeDefs = parse(subgraph(fieldSet));
    const rewritten = withObjectTypeRequires(typeDefs);
    assert.equal(rewritten, typeDefs);
    assert.equal(requiredFields(rewritten, 'requirer'), fieldSet);
  });

  it('reads @requires under the name the subgraph imports it as', () => {
    const rewritten = withObjectTypeRequires(
      parse(
        subgraph(
          'data { ... on Bar { bar } }',
          '"@key", "@shareable", "@external", { name: "@requires", as: "@needs" }',
          'needs',
        ),
      ),
    );
    assert.equal(
      normalised(requiredFields(rewritten, 'requirer', 'needs')),
      normalised('data { ... on Baz { bar } ... on Qux { bar } }'),
    );
  });

  it('leaves a subgraph whose field sets have no abstract fragment untouched', () => {
    for (const fieldSet of ['data {  foo }', 'data { foo ... on Baz { baz } }']) {
      const typeDefs = parse(subgraph(fieldSet));
      const rewritten = withObjectTypeRequires(typeDefs);
      assert.equal(rewritten, typeDefs);
      assert.equal(requiredFields(rewritten, 'requirer'), fieldSet);
    }
  });

  it('composes subgraphs requiring through a fragment on an interface that implements the field type', () => {
    const owner = `${LINK('"@key", "@shareable"')}
      type Query @shareable { a: Entity }
      type Entity @key(fields: "id") { id: ID! data: Foo }
      ${TYPES}`;
    const requirer = subgraph('data { foo ... on Bar { bar ... on Baz { baz } ... on Qux { qux } } }');
    const result = composeSupergraph([
      { name: 'a', sdl: owner, url: 'http://a' },
      { name: 'b', sdl: requirer, url: 'http://b' },
    ]);
    if (!result.ok) assert.fail(result.errors.map((e) => e.message).join('\n'));
    assert.ok(result.supergraph.schema.getType('Entity'));
  });
});
