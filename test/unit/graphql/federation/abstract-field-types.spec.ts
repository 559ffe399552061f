import { strict as assert } from 'node:assert';
import { composeSupergraph } from '../../../../lib/graphql/federation/compose-supergraph';
import { isFederation2, type Federation2Supergraph } from '../../../../lib/graphql/federation/supergraph';

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])';

function composed(...subgraphs: Array<[name: string, sdl: string]>): Federation2Supergraph {
  const result = composeSupergraph(subgraphs.map(([name, sdl]) => ({ name, sdl: `${LINK} ${sdl}`, url: 'http://x' })));
  if (!result.ok) assert.fail(result.errors.map((e) => e.message).join('\n'));
  if (!isFederation2(result.supergraph)) assert.fail('expected a Federation 2 supergraph');
  return result.supergraph;
}

function supergraphLine(supergraph: Federation2Supergraph, field: string): string | undefined {
  return supergraph.supergraphSdl
    .split('\n')
    .find((line) => line.trim().startsWith(`${field}:`))
    ?.trim();
}

describe('federation 2 composition: a field returning an abstract type in one subgraph and a member of it in another', () => {
  it('takes the interface in lists, whichever subgraph comes first', () => {
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
      const line = supergraphLine(supergraph, 'items');
      assert.ok(line?.includes('@join__field(graph: A, type: "[Page!]")'), line);
      assert.ok(line?.includes('@join__field(graph: B, type: "[Node!]!")'), line);
    }
  });

  it('leaves a field whose subgraphs agree as composed', () => {
    const supergraph = composed(
      ['a', 'union U = T type T { id: ID! @shareable } type Query { u: U @shareable }'],
      ['b', 'union U = T type T { id: ID! @shareable } type Query { u: U @shareable }'],
    );
    assert.equal(supergraphLine(supergraph, 'u'), 'u: U');
  });
});
