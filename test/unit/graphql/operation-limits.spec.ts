import { strict as assert } from 'node:assert';
import { Kind, buildSchema, getOperationAST, parse, validate, type FragmentDefinitionNode } from 'graphql';
import { checkOperationLimits, type OperationLimits } from '../../../lib/graphql/operation-limits';

const schema = buildSchema(`
  type Query { me: User, users: [User!]! }
  type User { name: String, best: User, friends: [User!]! }
`);
const limits: OperationLimits = { maxDepth: 4, maxListNesting: 2, maxFields: 20, maxRootFields: 3 };

function check(query: string) {
  const document = parse(query);
  assert.deepEqual(validate(schema, document), [], 'the cases are valid queries');
  const fragments = document.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  return checkOperationLimits(schema, getOperationAST(document)!, fragments, limits)?.limit;
}

describe('lib/graphql/operation-limits', () => {
  // [case, query, the limit passed (undefined: within all)]
  const table: Array<[string, string, keyof OperationLimits | undefined]> = [
    ['depth 4', '{ me { best { best { name } } } }', undefined],
    ['depth 5', '{ me { best { best { best { name } } } } }', 'maxDepth'],
    [
      'depth 5 through a fragment',
      '{ me { best { ...F } } } fragment F on User { best { best { name } } }',
      'maxDepth',
    ],
    ['depth 5 through an inline fragment', '{ me { best { ... on User { best { best { name } } } } } }', 'maxDepth'],
    ['two nested lists', '{ users { friends { name } } }', undefined],
    ['three nested lists', '{ users { friends { friends { name } } } }', 'maxListNesting'],
    [
      'three nested lists through a fragment',
      '{ users { ...F } } fragment F on User { friends { friends { name } } }',
      'maxListNesting',
    ],
    ['20 fields', `{ me { ${Array.from({ length: 19 }, (_, i) => `n${i}: name`).join(' ')} } }`, undefined],
    ['21 fields', `{ me { ${Array.from({ length: 20 }, (_, i) => `n${i}: name`).join(' ')} } }`, 'maxFields'],
    [
      'a fragment counted each time it is spread',
      '{ me { a: best { ...F } b: best { ...F } } } fragment F on User { n1: name n2: name n3: name n4: name n5: name n6: name n7: name n8: name n9: name }',
      'maxFields',
    ],
    ['3 root fields', '{ a: me { name } b: me { name } c: users { name } }', undefined],
    [
      '4 root fields, aliases and fragments included',
      '{ a: me { name } ...R } fragment R on Query { b: me { name } c: me { name } d: me { name } }',
      'maxRootFields',
    ],
    [
      'introspection lists counted as any (types, fields, args)',
      '{ __schema { types { fields { args { name } } } } }',
      'maxListNesting',
    ],
  ];
  for (const [name, query, expected] of table) {
    it(`${name}: ${expected ?? 'within the limits'}`, () => assert.equal(check(query), expected));
  }

  it('stops at the limit however fragments multiply (bounded walk)', () => {
    // Each fragment spreads the next twice: 2^30 fields if walked to the end.
    const fragments = Array.from(
      { length: 30 },
      (_, i) => `fragment F${i} on User { a: best { ...F${i + 1} } b: best { ...F${i + 1} } }`,
    ).join(' ');
    const document = parse(`{ me { ...F0 } } ${fragments} fragment F30 on User { name }`);
    const defs = document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
    const started = Date.now();
    const breach = checkOperationLimits(schema, getOperationAST(document)!, defs, { ...limits, maxDepth: 100 });
    assert.equal(breach?.limit, 'maxFields');
    assert.ok(Date.now() - started < 1000);
  });
});
