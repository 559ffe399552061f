import { strict as assert } from 'node:assert';
import { RoutingTable } from '../../../services/proxy/lib/routing-table';

describe('proxy: RoutingTable', () => {
  const table = new RoutingTable<string>();
  table.add('/', '', 'root');
  table.add('/api/', '', 'api');
  table.add('/api/v2', '', 'api-v2');
  table.add('/api/v2/admin', 'admin.test', 'admin-host');
  table.add('/api', 'eu.test', 'api-eu');

  const cases: Array<[string, string, string | undefined, number]> = [
    ['', '/', 'root', 0],
    ['', '/other', 'root', 0],
    ['', '/api', 'api', 4],
    ['', '/api/', 'api', 4],
    ['', '/api/users/1', 'api', 4],
    ['', '/apiary', 'root', 0],
    ['', '/api/v2/x', 'api-v2', 7],
    ['', '/api/v20', 'api', 4],
    ['eu.test', '/api/v2/x', 'api-v2', 7],
    ['eu.test', '/api/x', 'api-eu', 4],
    ['admin.test', '/api/v2/admin/users', 'admin-host', 13],
    ['admin.test', '/api/v2/other', 'api-v2', 7],
  ];
  for (const [host, path, expected, prefixLength] of cases) {
    it(`${host || 'any host'} ${path} → ${expected} (prefix ${prefixLength})`, () => {
      assert.deepEqual(table.match(host, path), { value: expected, prefixLength });
    });
  }

  it('finds nothing when no API covers the path and there is no root API', () => {
    const small = new RoutingTable<string>();
    small.add('/a', '', 'a');
    assert.equal(small.match('', '/b'), undefined);
    assert.equal(small.match('', '/'), undefined);
  });

  it('refuses a second API on the same listen path and domain', () => {
    const small = new RoutingTable<string>();
    assert.equal(small.add('/a', '', 'first'), true);
    assert.equal(small.add('/a/', '', 'second'), false);
    assert.equal(small.add('/a', 'x.test', 'other-domain'), true);
    assert.equal(small.match('', '/a')?.value, 'first');
    assert.equal(small.size, 2);
  });

  it('does not slow down with the number of APIs', () => {
    const big = new RoutingTable<number>();
    for (let i = 0; i < 10_000; i++) big.add(`/service-${i}/v1`, '', i);
    assert.deepEqual(big.match('', '/service-9999/v1/orders'), { value: 9999, prefixLength: 16 });
  });
});
