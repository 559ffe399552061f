import { strict as assert } from 'node:assert';
import { composeSupergraph } from '../../../../lib/graphql/federation/compose-supergraph';
import { isFederation2, type Federation2Supergraph } from '../../../../lib/graphql/federation/supergraph';

const LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@interfaceObject", "@requires", { name: "@external", as: "@outside" }])';

function composed(...subgraphs: Array<[name: string, sdl: string]>): Federation2Supergraph {
  const result = composeSupergraph(subgraphs.map(([name, sdl]) => ({ name, sdl: `${LINK} ${sdl}`, url: 'http://x' })));
  if (!result.ok) assert.fail(result.errors.map((e) => e.message).join('\n'));
  if (!isFederation2(result.supergraph)) assert.fail('expected a Federation 2 supergraph');
  return result.supergraph;
}

/** The line of `field` in the supergraph SDL's definition of `type`. */
function supergraphLine(supergraph: Federation2Supergraph, type: string, field: string): string | undefined {
  const definition = supergraph.supergraphSdl
    .split('\n\n')
    .find((block) => new RegExp(`^(type|interface) ${type}\\b`).test(block));
  return definition
    ?.split('\n')
    .find((line) => line.trim().startsWith(`${field}:`))
    ?.trim();
}

describe('federation 2 composition: supergraph repairs towards the form Apollo composes', () => {
  it('a field returning an interface in one subgraph and an implementation in another takes the interface, in lists, whichever subgraph comes first', () => {
    const node = 'interface Node { id: ID! } type Page implements Node @key(fields: "id") { id: ID! }';
    for (const order of [
      ['a', 'b'],
      ['b', 'a'],
    ]) {
      const sdl: Record<string, string> = {
        a: `${node} type Query { items: [Page!] @shareable }`,
        b: `${node} type Query { items: [Node!]! @shareable }`,
      };
      const supergraph = composed(...order.map((name): [string, string] => [name, sdl[name]]));
      assert.match(String(supergraph.schema.getQueryType()!.getFields().items.type), /^\[Node!\]!?$/);
      const line = supergraphLine(supergraph, 'Query', 'items');
      assert.ok(line?.includes('@join__field(graph: A, type: "[Page!]")'), line);
      assert.ok(line?.includes('@join__field(graph: B, type: "[Node!]!")'), line);
    }
  });

  it('leaves a field whose subgraphs agree as composed', () => {
    const supergraph = composed(
      ['a', 'union U = T type T { id: ID! @shareable } type Query { u: U @shareable }'],
      ['b', 'union U = T type T { id: ID! @shareable } type Query { u: U @shareable }'],
    );
    assert.equal(supergraphLine(supergraph, 'Query', 'u'), 'u: U');
  });

  it('an interface field an @interfaceObject subgraph declares @external (under its linked name) says so in @join__field', () => {
    const supergraph = composed(
      [
        'a',
        'type Query { users: [Node!]! } interface Node @key(fields: "id") { id: ID! name: String } type User implements Node @key(fields: "id") { id: ID! name: String }',
      ],
      [
        'b',
        'type Query { others: [Node] } type Node @key(fields: "id") @interfaceObject { id: ID! name: String @outside handle: String @requires(fields: "name") }',
      ],
    );
    assert.equal(
      supergraphLine(supergraph, 'Node', 'name'),
      'name: String @join__field(graph: A) @join__field(graph: B, external: true)',
    );
    assert.equal(
      supergraphLine(supergraph, 'Node', 'handle'),
      'handle: String @join__field(graph: B, requires: "name")',
    );
    assert.equal(supergraphLine(supergraph, 'Node', 'id'), 'id: ID!', 'a field both declare alike is left as composed');
  });
});
