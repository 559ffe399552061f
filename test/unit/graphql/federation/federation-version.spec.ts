import { strict as assert } from 'node:assert';
import { federationVersionOf } from '../../../../lib/graphql/federation/federation-version';

describe('federation version of a subgraph SDL', () => {
  it('is 1 without @link', () => {
    assert.equal(federationVersionOf('type Query { me: User } type User @key(fields: "id") { id: ID! }'), 1);
  });

  it('is 2 when the schema links federation v2.x, whatever the argument order', () => {
    assert.equal(
      federationVersionOf(
        'extend schema @link(url: "https://specs.apollo.dev/federation/v2.0", import: ["@key"]) type Query { a: Int }',
      ),
      2,
    );
    assert.equal(
      federationVersionOf(
        'schema @link(import: ["@shareable"], url: "https://specs.apollo.dev/federation/v2.9") { query: Query } type Query { a: Int }',
      ),
      2,
    );
  });

  it('is 1 when @link names another specification, or only appears in a description', () => {
    assert.equal(
      federationVersionOf('extend schema @link(url: "https://specs.apollo.dev/link/v1.0") type Query { a: Int }'),
      1,
    );
    assert.equal(federationVersionOf('"""see @link""" type Query { a: Int }'), 1);
  });

  it('is 1 for SDL that does not parse, so the v1 composer reports the syntax error', () => {
    assert.equal(
      federationVersionOf('extend schema @link(url: "https://specs.apollo.dev/federation/v2.3" type Query {'),
      1,
    );
  });
});
