import { strict as assert } from 'node:assert';
import { PolicyProgram, RegoError, RegoEvalError } from '../../../lib/rego/policy';

/** A module with `package t` and the given rules; `value` is the rule `v` evaluated against `input`. */
function evaluate(rules: string, input: unknown = {}, rule = 'v'): unknown {
  return PolicyProgram.compile(`package t\n${rules}`).evaluate(rule, input);
}

describe('policy engine (lib/rego): evaluation', () => {
  const cases: Array<{ name: string; rules: string; input?: unknown; expected: unknown }> = [
    { name: 'a constant', rules: 'v := 1', expected: 1 },
    { name: 'true when the body holds', rules: 'v if { input.a == 1 }', input: { a: 1 }, expected: true },
    { name: 'undefined when it does not', rules: 'v if { input.a == 1 }', input: { a: 2 }, expected: undefined },
    {
      name: 'the default when no body holds',
      rules: 'default v := "no"\nv := "yes" if input.a',
      input: {},
      expected: 'no',
    },
    {
      name: 'old-style bodies in braces',
      rules: 'v = "w" { input.m == "POST" }\nv = "w" { input.m == "PUT" }',
      input: { m: 'PUT' },
      expected: 'w',
    },
    { name: 'arithmetic and precedence', rules: 'v := 1 + 2 * 3 - 8 / 4 + 7 % 4', expected: 8 },
    { name: 'unary minus', rules: 'v := -input.n + 1', input: { n: 3 }, expected: -2 },
    {
      name: 'comparisons as values',
      rules: 'v := [1 < 2, "a" >= "b", 2 != 2, {"x": [1]} == {"x": [1]}]',
      expected: [true, false, false, true],
    },
    { name: 'comparing different types is undefined', rules: 'v if { 1 < "2" }', expected: undefined },
    {
      name: 'a partial set (deny[msg])',
      rules: 'v[m] { some x in input.xs; x > 1; m := sprintf("big %d", [x]) }',
      input: { xs: [1, 2, 3] },
      expected: ['big 2', 'big 3'],
    },
    {
      name: 'a partial set with contains/if',
      rules: 'v contains x if { x := input.xs[_]; x != "b" }',
      input: { xs: ['a', 'b', 'a'] },
      expected: ['a'],
    },
    {
      name: 'a partial object',
      rules: 'v[k] = n { some k, n in input.o; n > 1 }',
      input: { o: { a: 1, b: 2 } },
      expected: { b: 2 },
    },
    {
      name: 'iteration with _ and an index variable',
      rules: 'v := [i | input.xs[i] == "b"]',
      input: { xs: ['a', 'b', 'c', 'b'] },
      expected: [1, 3],
    },
    {
      name: 'some i declares an index',
      rules: 'v contains i if { some i; input.xs[i] > 5 }',
      input: { xs: [9, 1, 7] },
      expected: [0, 2],
    },
    {
      name: 'x in collection',
      rules: 'v := ["b" in input.xs, "z" in input.xs, 1 in {"a": 1}]',
      input: { xs: ['a', 'b'] },
      expected: [true, false, true],
    },
    { name: 'not', rules: 'v if { not input.missing; not input.f }', input: { f: false }, expected: true },
    { name: 'not of a true expression fails', rules: 'v if { not input.t }', input: { t: true }, expected: undefined },
    {
      name: 'every',
      rules:
        'default a := false\ndefault b := false\na if { every x in input.xs { x > 0 } }\nb if { every x in input.xs { x > 1 } }\nv := [a, b]',
      input: { xs: [1, 2] },
      expected: [true, false],
    },
    {
      name: 'a helper rule',
      rules: 'admin if input.user.user_permissions.IsAdmin == "admin"\nv if { not admin }',
      input: { user: { user_permissions: {} } },
      expected: true,
    },
    { name: 'a function', rules: 'double(x) := y if { y := x * 2 }\nv := double(21)', expected: 42 },
    {
      name: 'a function with several bodies is an OR',
      rules: 'ok(p) if startswith(p, "/a")\nok(p) if endswith(p, ".json")\nv := [p | some p in input.ps; ok(p)]',
      input: { ps: ['/a/x', '/b/y.json', '/c'] },
      expected: ['/a/x', '/b/y.json'],
    },
    {
      name: 'facts with constant arguments',
      rules:
        'match("read", "read")\nmatch("read", "write")\nv := [x | some x in ["read", "write", "deny"]; match("read", x)]',
      expected: ['read', 'write'],
    },
    {
      name: 'unification destructures arrays',
      rules: 'v := b if { [a, b] = split(input.s, "/"); a == "x" }',
      input: { s: 'x/y' },
      expected: 'y',
    },
    {
      name: 'objects, arrays and sets',
      rules: 'v := {"a": [1, {"b": true}], "s": {3, 1, 3}}',
      expected: { a: [1, { b: true }], s: [1, 3] },
    },
    {
      name: 'set and object comprehensions',
      rules: 'v := [{x | some x in [3, 1, 3]}, {k: 1 | some k in ["p", "q"]}]',
      expected: [[1, 3], { p: 1, q: 1 }],
    },
    { name: 'set difference', rules: 'v := {1, 2, 3} - {2}', expected: [1, 3] },
    {
      name: 'string built-ins',
      rules:
        'v := [startswith("abc", "ab"), endswith("abc", "bc"), contains("abc", "x"), lower("AbC"), upper("a"), trim_space(" a "), replace("a-b", "-", "+"), indexof("abc", "c"), substring("abcdef", 1, 3), concat(",", ["a", "b"])]',
      expected: [true, true, false, 'abc', 'A', 'a', 'a+b', 2, 'bcd', 'a,b'],
    },
    {
      name: 'count of strings, arrays, objects, sets',
      rules: 'v := [count("héllo"), count([1, 2]), count({"a": 1}), count({1, 1, 2})]',
      expected: [5, 2, 1, 2],
    },
    {
      name: 'sprintf %s %v %d and %%',
      rules: 'v := sprintf("%s|%v|%d|100%%|%v", ["a", ["x", 1], 7, null])',
      expected: 'a|["x",1]|7|100%|null',
    },
    {
      name: 'regex.match runs on RE2',
      rules: 'v := [regex.match("^/api/users/[^/]+$", "/api/users/7"), regex.match("^x", "yx")]',
      expected: [true, false],
    },
    { name: 'a bad pattern makes the expression undefined', rules: 'v if regex.match("(a", "a")', expected: undefined },
    {
      name: 'type checks and conversions',
      rules:
        'v := [is_null(null), is_string(1), is_object({}), is_array([]), is_set({1}), is_number(1.5), is_boolean(false), to_number("12")]',
      expected: [true, false, true, true, true, true, true, 12],
    },
    {
      name: 'aggregates',
      rules: 'v := [sum([1, 2]), max([1, 5]), min({4, 2}), abs(-3), array.concat([1], [2])]',
      expected: [3, 5, 2, 3, [1, 2]],
    },
    { name: 'raw strings and comments', rules: 'v := `a\\b` # a comment', expected: 'a\\b' },
    { name: 'expressions span lines inside brackets', rules: 'v := [\n  1,\n  2,\n]', expected: [1, 2] },
    {
      name: 'and after an operator',
      rules: 'v if {\n  x :=\n    1 +\n    2\n  x ==\n    3\n  2 in\n    [x, 2]\n}',
      expected: true,
    },
    { name: 'a missing input path is undefined, not an error', rules: 'v if input.a.b.c == 1', expected: undefined },
    {
      name: 'data-free modules may import keywords',
      rules: 'import future.keywords.in\nimport future.keywords.if\nimport rego.v1\nv := 1',
      expected: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(evaluate(c.rules, c.input), c.expected));
  }

  it('collects deny messages, and a deny that is just true gives a generic one', () => {
    const program = PolicyProgram.compile('package t\ndeny["b"] { true }\ndeny["a"] { input.x }');
    assert.deepEqual(program.denials({ x: true }), ['a', 'b']);
    assert.deepEqual(PolicyProgram.compile('package t\ndeny := true if input.x').denials({ x: 1 }), [
      "Denied by the organisation's policy rules",
    ]);
    assert.deepEqual(PolicyProgram.compile('package t\nallow := true').denials({}), []);
  });

  it('refuses two different values of one complete rule', () => {
    assert.throws(
      () => evaluate('v := 1\nv := 2'),
      (err: unknown) => err instanceof RegoEvalError && err.kind === 'conflict',
    );
  });

  it('stops an evaluation that explodes, by steps and by time', () => {
    const program = PolicyProgram.compile(
      'package t\ndeny["x"] { some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i + j < 0 }',
    );
    const started = Date.now();
    assert.throws(
      () => program.denials({}, { maxSteps: 50_000, maxMillis: 10_000 }),
      (err: unknown) => err instanceof RegoEvalError && err.kind === 'limit' && /50000 steps/.test(err.message),
    );
    assert.throws(
      () => program.denials({}, { maxSteps: 1e12, maxMillis: 50 }),
      (err: unknown) => err instanceof RegoEvalError && /50 ms/.test(err.message),
    );
    assert.ok(Date.now() - started < 5_000);
  });

  it('charges a huge range before building it', () => {
    const program = PolicyProgram.compile('package t\nv := count(numbers.range(1, 1000000000))');
    assert.throws(
      () => program.evaluate('v', {}),
      (err: unknown) => err instanceof RegoEvalError && err.kind === 'limit',
    );
  });
});

describe('policy engine (lib/rego): refused rule files', () => {
  const refused: Array<{
    name: string;
    rules: string;
    kind: RegoError['kind'];
    line: number;
    column: number;
    says: RegExp;
  }> = [
    {
      name: 'with',
      rules: 'package t\ndeny["x"] {\n  input.a with input as {}\n}',
      kind: 'unsupported',
      line: 3,
      column: 11,
      says: /'with' keyword/,
    },
    {
      name: 'else',
      rules: 'package t\nv = 1 { input.a } else = 2 { true }',
      kind: 'unsupported',
      line: 2,
      column: 19,
      says: /'else' keyword/,
    },
    {
      name: 'data',
      rules: 'package t\nv { data.users[_] }',
      kind: 'unsupported',
      line: 2,
      column: 5,
      says: /'data' document/,
    },
    {
      name: 'import of data',
      rules: 'package t\nimport data.roles',
      kind: 'unsupported',
      line: 2,
      column: 1,
      says: /import data.roles/,
    },
    {
      name: 'an unknown built-in',
      rules: 'package t\nv := time.now_ns()',
      kind: 'unsupported',
      line: 2,
      column: 6,
      says: /built-in function 'time.now_ns'/,
    },
    {
      name: "the reference's TykAPIGet",
      rules: 'package t\nv := TykAPIGet("/api/apis/1")',
      kind: 'unsupported',
      line: 2,
      column: 6,
      says: /TykAPIGet/,
    },
    {
      name: 'set union',
      rules: 'package t\nv if { x := {1} | {2} }',
      kind: 'unsupported',
      line: 2,
      column: 17,
      says: /'\|'/,
    },
    {
      name: 'recursion',
      rules: 'package t\na if b\nb if a',
      kind: 'invalid',
      line: 3,
      column: 6,
      says: /depends on itself/,
    },
    {
      name: 'a wrong number of arguments',
      rules: 'package t\nv := lower("a", "b")',
      kind: 'invalid',
      line: 2,
      column: 6,
      says: /takes 1 argument/,
    },
    {
      name: 'an unclosed body',
      rules: 'package t\ndeny["x"] {\n  input.a == 1\n',
      kind: 'syntax',
      line: 4,
      column: 1,
      says: /expected '}'/,
    },
    {
      name: 'a stray token',
      rules: 'package t\nv := 1 +\n',
      kind: 'syntax',
      line: 3,
      column: 1,
      says: /expected a value but found the end of the file/,
    },
    {
      name: 'an unterminated string',
      rules: 'package t\nv := "abc\n',
      kind: 'syntax',
      line: 2,
      column: 6,
      says: /unterminated string/,
    },
    {
      name: 'an unknown character',
      rules: 'package t\nv := 1 @ 2',
      kind: 'syntax',
      line: 2,
      column: 8,
      says: /unexpected character '@'/,
    },
  ];
  for (const c of refused) {
    it(`refuses ${c.name} with its line and column`, () => {
      assert.throws(
        () => PolicyProgram.compile(c.rules),
        (err: unknown) => {
          assert.ok(err instanceof RegoError, String(err));
          assert.equal(err.kind, c.kind, err.message);
          assert.deepEqual(err.location, { line: c.line, column: c.column }, err.message);
          assert.match(err.message, c.says);
          assert.match(err.message, new RegExp(`^line ${c.line}, column ${c.column}: `));
          return true;
        },
      );
    });
  }
});
