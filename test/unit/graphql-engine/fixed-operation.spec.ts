import { strict as assert } from 'node:assert';
import { buildSchema } from 'graphql';
import { FixedQuery } from '../../../services/graphql-engine/lib/combined-graph/fixed-operation';

describe("combined graph: a GraphQL data source's own operation, batched", () => {
  const schema = buildSchema(
    'enum Size { SMALL LARGE } type Query { pets(size: Size, tags: [String], limit: Int): [String] }',
  );

  it('writes variables in as literals (enums as enum values, lists, defaults, missing as null), per root field, without aliases', () => {
    const query = FixedQuery.of(
      'query($size: Size!, $tags: [String], $limit: Int = 5, $q: String) { all: pets(size: $size, tags: $tags, limit: $limit) other: pets(limit: 1, tags: [$q]) }',
      schema,
    )!;
    assert.deepEqual(query.fieldsWith({ size: 'SMALL', tags: ['a "b"'] }), [
      ['all', 'pets(size: SMALL, tags: ["a \\"b\\""], limit: 5)'],
      ['other', 'pets(limit: 1, tags: [null])'],
    ]);
  });

  it('is not batchable for a mutation, fragments or several operations', () => {
    assert.equal(FixedQuery.of('mutation { pets }', schema), undefined);
    assert.equal(FixedQuery.of('query { ...F } fragment F on Query { pets }', schema), undefined);
    assert.equal(FixedQuery.of('query A { pets } query B { pets }', schema), undefined);
    assert.equal(FixedQuery.of('query {', schema), undefined);
  });
});
