import { strict as assert } from 'node:assert';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

describe('proxy: batch requests', () => {
  let gw: GatewayFixture;
  before(async () => {
    gw = await startGatewayFixture();
    await gw.addApi(
      apiDefinition('batched', '/batched/', gw.upstream.url, {
        enable_batch_request_support: true,
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: { black_list: [{ path: '/forbidden', method_actions: { GET: { action: 'no_action' } } }] },
        }),
      }),
    );
    await gw.addApi(apiDefinition('unbatched', '/unbatched/', gw.upstream.url));
  });
  after(() => gw.stop());

  it('runs each request through the API and returns their results in order', async () => {
    const res = await gw.call('/batched/gw/batch/', {
      method: 'POST',
      body: {
        requests: [
          { method: 'GET', headers: { 'x-n': '1' }, body: '', relative_url: 'items/1?x=1' },
          { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'payload', relative_url: 'items' },
          { method: 'GET', headers: {}, body: '', relative_url: 'forbidden' },
        ],
        suppress_parallel_execution: true,
      },
    });
    assert.equal(res.status, 200);
    assert.equal(res.json.length, 3);
    assert.deepEqual(
      res.json.map((r: { relative_url: string; code: number }) => [r.relative_url, r.code]),
      [
        ['items/1?x=1', 200],
        ['items', 200],
        ['forbidden', 403],
      ],
    );
    assert.deepEqual(JSON.parse(res.json[0].body), { method: 'GET', url: '/items/1?x=1', body: '' });
    assert.deepEqual(JSON.parse(res.json[1].body), { method: 'POST', url: '/items', body: 'payload' });
    assert.deepEqual(JSON.parse(res.json[2].body), { error: 'Requested endpoint is forbidden' });
    // Go's http.Header: canonical names, each with a list of values
    assert.deepEqual(res.json[0].headers['X-Upstream'], ['yes']);
    assert.deepEqual(res.json[0].headers['Content-Type'], ['application/json']);
    const first = gw.upstream.received.find((r) => r.url === '/items/1?x=1');
    assert.equal(first?.headers['x-n'], '1');
  });

  // gateway/batch_requests.go: a body encoding/json can not decode into BatchRequestStructure
  const malformed: Array<[string, unknown]> = [
    ['requests not a list', { requests: 'all' }],
    ['not JSON', '{"requests": ['],
    ['a list at the top', '[]'],
    ['a request that is not an object', { requests: ['GET /items'] }],
    ['a method that is not a string', { requests: [{ method: 1, relative_url: 'items' }] }],
    ['a header value that is not a string', { requests: [{ headers: { 'x-n': 1 }, relative_url: 'items' }] }],
    ['suppress_parallel_execution not a boolean', { requests: [], suppress_parallel_execution: 'yes' }],
  ];
  for (const [what, body] of malformed) {
    it(`refuses a malformed batch (${what}) with 400 and the reference gateway's error`, async () => {
      const res = await gw.call('/batched/gw/batch/', { method: 'POST', body });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { status: 'error', message: 'Batch request malformed' });
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    });
  }

  it('answers an empty list for a batch without requests, as Go decodes absent fields', async () => {
    const res = await gw.call('/batched/gw/batch/', { method: 'POST', body: { Requests: null } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, []);
  });

  it('proxies the batch path like any other when batching is off', async () => {
    const res = await gw.call('/unbatched/gw/batch/', { method: 'POST', body: { requests: [] } });
    assert.equal(res.status, 200);
    assert.equal(res.json.url, '/gw/batch/');
  });
});
