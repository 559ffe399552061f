import { strict as assert } from 'node:assert';
import { parseTarget, upstreamPath } from '../../../services/proxy/pipeline/target';

describe('proxy: upstream path', () => {
  // [target_url, request path, query, stripped prefix length, expected upstream path]
  const cases: Array<[string, string, string, number, string]> = [
    ['http://up.test', '/orders/1', '', 7, '/1'],
    ['http://up.test', '/orders', '?a=1', 7, '/?a=1'],
    ['http://up.test', '/orders/', '', 7, '/'],
    ['http://up.test/base', '/orders/1', '?a=%20b', 7, '/base/1?a=%20b'],
    ['http://up.test/base/', '/orders/1', '', 7, '/base/1'],
    ['http://up.test/base', '/orders', '', 7, '/base'],
    ['http://up.test/base/', '/orders', '', 7, '/base/'],
    ['http://up.test/base', '/orders/', '', 7, '/base/'],
    ['http://up.test/base', '/orders/1', '', 0, '/base/orders/1'],
    ['http://up.test', '/orders/a%2Fb', '', 0, '/orders/a%2Fb'],
  ];
  for (const [target, path, search, prefix, expected] of cases) {
    it(`${target} + ${path}${search} (strip ${prefix}) → ${expected}`, () => {
      assert.equal(upstreamPath(parseTarget(target), path, search, prefix), expected);
    });
  }

  it('keeps the origin for the connection pool', () => {
    assert.equal(parseTarget('https://up.test:8443/x').origin, 'https://up.test:8443');
  });

  it('takes an h2c:// target (HTTP/2 in cleartext): its own origin, port 80 unless given', () => {
    const target = parseTarget('h2c://grpc.test:50051/base');
    assert.equal(target.protocol, 'h2c:');
    assert.equal(target.origin, 'h2c://grpc.test:50051');
    assert.equal(target.port, 50051);
    assert.equal(target.basePath, '/base');
    assert.equal(parseTarget('h2c://grpc.test').port, 80);
    assert.throws(() => parseTarget('ftp://files.test'), /must be http:\/\/, https:\/\/ or h2c:\/\//);
  });
});
