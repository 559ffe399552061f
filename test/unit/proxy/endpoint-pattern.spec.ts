import { strict as assert } from 'node:assert';
import { compileEndpointPattern } from '../../../lib/patterns/endpoint-pattern';

/** What endpoint paths meant before they ran on RE2: a JavaScript RegExp anchored at the start. */
function oracle(path: string, ignoreCase: boolean): RegExp {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return new RegExp(`^${withSlash.replace(/\{[^/{}]+\}/g, '([^/]+)')}`, ignoreCase ? 'i' : '');
}

describe('endpoint patterns: same matches as before, in linear time', () => {
  const patterns = [
    '/users',
    'users',
    '/users/{id}',
    '/users/{id}/orders',
    '/u{id}',
    '/v1.0/x',
    '/a.{id}',
    '/{a}/{b}',
    '/',
    '/files/.*\\.json$',
    '/(cats|dogs)/[0-9]+',
    '/x/{id}$',
    '/Users/{ID}',
    '/a/{b}c',
  ];
  const paths = [
    '/users',
    '/users/',
    '/users/1',
    '/users/1/orders',
    '/users/1/orders/2',
    '/Users/1/ORDERS',
    '/u',
    '/u7',
    '/v1.0/x',
    '/v1x0/x',
    '/v1/0/x',
    '/a/x',
    '/a.b',
    '/x/y',
    '/files/a/b.json',
    '/files/a.jsonx',
    '/dogs/12',
    '/birds/1',
    '/x/1',
    '/x/1/2',
    '/a/bc',
    '/a/b/c',
    '/',
    '',
    '/usersx',
  ];
  for (const ignoreCase of [false, true]) {
    for (const pattern of patterns) {
      it(`${pattern}${ignoreCase ? ' (ignore case)' : ''}`, () => {
        const expected = oracle(pattern, ignoreCase);
        const compiled = compileEndpointPattern(pattern, ignoreCase);
        for (const path of paths) assert.equal(compiled.test(path), expected.test(path), `${pattern} on ${path}`);
      });
    }
  }

  it("runs (a+)+$ on 5000 a's and a ! in well under a second", () => {
    const compiled = compileEndpointPattern('(a+)+$', false);
    const started = process.hrtime.bigint();
    assert.equal(compiled.test(`/${'a'.repeat(5000)}!`), false);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n);
  });

  for (const bad of ['(a)\\1', '/(?=admin)', '/(?<!x)y', '/[unclosed']) {
    it(`refuses ${bad}, which RE2 can not run, naming the path`, () => {
      assert.throws(
        () => compileEndpointPattern(bad, false),
        (err: Error) => err.message.startsWith(`endpoint path '${bad}' is not a valid pattern: `),
      );
    });
  }
});
