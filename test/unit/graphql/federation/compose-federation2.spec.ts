import { strict as assert } from 'node:assert';
import { composeSupergraph } from '../../../../lib/graphql/federation/compose-supergraph';
import { isFederation2 } from '../../../../lib/graphql/federation/supergraph';

const LINK =
  '@link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@composeDirective"])';

describe('Federation 2 composition', () => {
  it('passes a directive through with @composeDirective: on the client schema and the supergraph', () => {
    const products = `extend schema ${LINK}
        @link(url: "https://specs.example.com/audit/v1.0", import: ["@audited"])
        @composeDirective(name: "@audited")
      directive @audited(reason: String) on FIELD_DEFINITION
      type Query { product: Product }
      type Product @key(fields: "id") { id: ID! price: Int @audited(reason: "finance") }`;
    const result = composeSupergraph([{ name: 'products', sdl: products, url: 'http://products.test/graphql' }]);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    assert.ok(isFederation2(result.supergraph));
    assert.match(result.supergraph.sdl, /price: Int @audited\(reason: "finance"\)/);
    assert.match(result.supergraph.supergraphSdl, /price: Int @audited\(reason: "finance"\)/);
    assert.doesNotMatch(result.supergraph.sdl, /join__|link__|@key/);
  });

  it('names an error by its Federation 2 code and lists the subgraphs it names', () => {
    const sdl = (name: string) => `extend schema ${LINK}
      type Query { ${name}: Product }
      type Product @key(fields: "id") { id: ID! name: String }`;
    const result = composeSupergraph([
      { name: 'products', sdl: sdl('product'), url: 'http://products.test/graphql' },
      { name: 'inventory', sdl: sdl('stock'), url: 'http://inventory.test/graphql' },
    ]);
    assert.equal(result.ok, false);
    if (result.ok) return;
    const sharing = result.errors.find((error) => error.rule === 'INVALID_FIELD_SHARING');
    assert.ok(sharing, JSON.stringify(result.errors));
    assert.match(sharing.message, /"Product\.name"/);
    assert.deepEqual([...sharing.subgraphs].sort(), ['inventory', 'products']);
  });
});
