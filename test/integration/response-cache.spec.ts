import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis';

function cachedApi(
  apiId: string,
  listenPath: string,
  target: string,
  cacheOptions: Record<string, unknown>,
  extended: Record<string, unknown> = {},
): Record<string, unknown> {
  return apiDefinition(apiId, listenPath, target, {
    cache_options: { enable_cache: true, cache_timeout: 60, ...cacheOptions },
    version_data: singleVersion({ use_extended_paths: true, extended_paths: extended }),
  });
}

/** cache_options, extended_paths.cache and advance_cache_config, seen by the upstream's request count. */
describe('response cache', () => {
  let gw: GatewayFixture;
  let counter = 0;
  const upstreamCalls = (path: string) => gw.upstream.received.filter((r) => r.url.startsWith(path)).length;

  before(async () => {
    gw = await startGatewayFixture();
    gw.upstream.respondWith((req, res) => {
      counter++;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (req.url.includes('cookie')) headers['set-cookie'] = 'a=b';
      if (req.url.includes('private')) headers['cache-control'] = 'private';
      if (req.url.includes('ctl-yes'))
        Object.assign(headers, { 'x-gw-cache-action-set': '1', 'x-gw-cache-action-set-ttl': '1' });
      if (req.url.includes('teapot')) return res.writeHead(418, headers).end(JSON.stringify({ n: counter }));
      res.writeHead(200, headers).end(JSON.stringify({ n: counter, url: req.url }));
    });
    await gw.addApi(
      cachedApi('cache-all', '/cache-all', gw.upstream.url, {
        cache_all_safe_requests: true,
        cache_response_codes: [200],
        cache_by_headers: ['X-Lang'],
      }),
    );
    await gw.addApi(cachedApi('cache-other', '/cache-other', gw.upstream.url, { cache_all_safe_requests: true }));
    await gw.addApi(
      cachedApi('cache-ctl', '/cache-ctl', gw.upstream.url, {
        cache_all_safe_requests: true,
        enable_upstream_cache_control: true,
      }),
    );
    await gw.addApi(
      cachedApi(
        'cache-some',
        '/cache-some',
        gw.upstream.url,
        { cache_timeout: 1 },
        {
          cache: ['/listed'],
          advance_cache_config: [{ path: '/search', method: 'POST', cache_key_regex: '"q":"[^"]*"', timeout: 60 }],
        },
      ),
    );
  });
  after(() => gw.stop());

  it('a second GET is served from the cache with X-Gw-Cached-Response; the upstream sees one request', async () => {
    const first = await gw.call('/cache-all/items?x=1');
    const second = await gw.call('/cache-all/items?x=1');
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-gw-cached-response'), null);
    assert.equal(second.headers.get('x-gw-cached-response'), '1');
    assert.equal(second.text, first.text);
    assert.equal(upstreamCalls('/items'), 1);
    await gw.call('/cache-all/items?x=2');
    assert.equal(upstreamCalls('/items'), 2, 'another query is another entry');
    await gw.call('/cache-all/items?x=1', { headers: { 'x-lang': 'fr' } });
    assert.equal(upstreamCalls('/items'), 3, 'cache_by_headers: another header value is another entry');
  });

  it('another API with the same path never gets this API’s entry', async () => {
    await gw.call('/cache-all/shared');
    const other = await gw.call('/cache-other/shared');
    assert.equal(other.headers.get('x-gw-cached-response'), null);
    assert.equal(upstreamCalls('/shared'), 2);
  });

  it('does not cache unsafe methods, statuses outside cache_response_codes, Set-Cookie or private answers', async () => {
    for (const path of ['/teapot', '/cookie', '/private']) {
      await gw.call(`/cache-all${path}`);
      const again = await gw.call(`/cache-all${path}`);
      assert.equal(again.headers.get('x-gw-cached-response'), null, path);
      assert.equal(upstreamCalls(path), 2, path);
    }
    await gw.call('/cache-all/posted', { method: 'POST', body: 'x' });
    await gw.call('/cache-all/posted', { method: 'POST', body: 'x' });
    assert.equal(upstreamCalls('/posted'), 2);
  });

  it('enable_upstream_cache_control: only answers the upstream marks are cached, for the TTL it gives', async () => {
    await gw.call('/cache-ctl/ctl-no');
    await gw.call('/cache-ctl/ctl-no');
    assert.equal(upstreamCalls('/ctl-no'), 2);
    await gw.call('/cache-ctl/ctl-yes');
    assert.equal((await gw.call('/cache-ctl/ctl-yes')).headers.get('x-gw-cached-response'), '1');
    await eventually(
      async () => assert.equal((await gw.call('/cache-ctl/ctl-yes')).headers.get('x-gw-cached-response'), null),
      3000,
      200,
    );
  });

  it('extended_paths.cache caches the listed paths only, for cache_timeout seconds', async () => {
    await gw.call('/cache-some/unlisted');
    await gw.call('/cache-some/unlisted');
    assert.equal(upstreamCalls('/unlisted'), 2);
    await gw.call('/cache-some/listed');
    assert.equal((await gw.call('/cache-some/listed')).headers.get('x-gw-cached-response'), '1');
    assert.equal(upstreamCalls('/listed'), 1);
    await eventually(
      async () => assert.equal((await gw.call('/cache-some/listed')).headers.get('x-gw-cached-response'), null),
      3000,
      200,
    );
    assert.equal(upstreamCalls('/listed'), 2, 'expired after one second');
  });

  it('advance_cache_config caches a POST keyed on the cache_key_regex part of its body', async () => {
    await gw.call('/cache-some/search', { method: 'POST', body: '{"q":"cats","page":1}' });
    const same = await gw.call('/cache-some/search', { method: 'POST', body: '{"q":"cats","page":2}' });
    assert.equal(same.headers.get('x-gw-cached-response'), '1');
    await gw.call('/cache-some/search', { method: 'POST', body: '{"q":"dogs"}' });
    assert.equal(upstreamCalls('/search'), 2);
  });

  it('DELETE /gw/cache/{api_id} and a definition change drop the entries', async () => {
    await gw.call('/cache-all/flush');
    assert.equal((await gw.call('/cache-all/flush')).headers.get('x-gw-cached-response'), '1');
    const flushed = await http(`${gw.node.gatewayUrl}/gw/cache/cache-all`, {
      method: 'DELETE',
      headers: gw.node.gwHeaders,
    });
    assert.equal(flushed.status, 200);
    assert.deepEqual(flushed.json, { status: 'ok', message: 'cache invalidated' });
    assert.equal((await gw.call('/cache-all/flush')).headers.get('x-gw-cached-response'), null);
    assert.equal(upstreamCalls('/flush'), 2);
    assert.equal((await gw.call('/cache-all/flush')).headers.get('x-gw-cached-response'), '1');
    await gw.addApi(
      cachedApi('cache-all', '/cache-all', gw.upstream.url, { cache_all_safe_requests: true, cache_timeout: 30 }),
    );
    await eventually(async () =>
      assert.equal((await gw.call('/cache-all/flush')).headers.get('x-gw-cached-response'), null),
    );
    const missing = await http(`${gw.node.gatewayUrl}/gw/cache/no-such-api`, {
      method: 'DELETE',
      headers: gw.node.gwHeaders,
    });
    // as documented: flushing an API with nothing cached (or none at all) is not an error
    assert.equal(missing.status, 200);
    assert.deepEqual(missing.json, { status: 'ok', message: 'cache invalidated' });
  });
});

describe('response cache in Redis, shared by two gateway nodes', function () {
  const redisUrl = process.env.GW_TEST_REDIS;
  let a: GatewayFixture;
  let b: GatewayFixture;
  const apiId = `shared-${randomUUID().slice(0, 8)}`;

  before(async function () {
    if (!redisUrl) return this.skip();
    a = await startGatewayFixture({ redisUrl });
    b = await startGatewayFixture({ redisUrl });
    // Both nodes proxy to a's upstream, so one count shows every upstream call.
    for (const node of [a, b])
      await node.addApi(cachedApi(apiId, '/shared', a.upstream.url, { cache_all_safe_requests: true }));
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('an answer cached by one node is served by the other, and a DELETE on one clears both', async () => {
    await a.call('/shared/thing');
    await eventually(async () =>
      assert.equal((await b.call('/shared/thing')).headers.get('x-gw-cached-response'), '1'),
    );
    assert.equal(a.upstream.received.length, 1);
    const flushed = await http(`${b.node.gatewayUrl}/gw/cache/${apiId}`, {
      method: 'DELETE',
      headers: b.node.gwHeaders,
    });
    assert.equal(flushed.status, 200);
    assert.equal((await a.call('/shared/thing')).headers.get('x-gw-cached-response'), null);
    assert.equal(a.upstream.received.length, 2);
  });
});

describe('response cache in Redis when Redis goes away', function () {
  this.timeout(30_000);
  let redis: PrivateRedis;
  let gw: GatewayFixture;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  before(async () => {
    redis = await startPrivateRedis();
    gw = await startGatewayFixture({ redisUrl: redis.url });
    await gw.addApi(cachedApi('redis-gone', '/redis-gone', gw.upstream.url, { cache_all_safe_requests: true }));
    process.on('unhandledRejection', onRejection);
  });
  after(async () => {
    process.off('unhandledRejection', onRejection);
    await gw?.stop();
    await redis?.stop();
  });

  it('DELETE /gw/cache/{api_id} answers 500 "Cache invalidation failed" and the node keeps serving, from the upstream', async () => {
    await gw.call('/redis-gone/x');
    assert.equal((await gw.call('/redis-gone/x')).headers.get('x-gw-cached-response'), '1');
    await redis.stop();
    const flushed = await http(`${gw.node.gatewayUrl}/gw/cache/redis-gone`, {
      method: 'DELETE',
      headers: gw.node.gwHeaders,
    });
    assert.equal(flushed.status, 500, flushed.text);
    assert.deepEqual(flushed.json, { status: 'error', message: 'Cache invalidation failed' });
    const before = gw.upstream.received.length;
    const res = await gw.call('/redis-gone/x');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-gw-cached-response'), null);
    assert.equal(gw.upstream.received.length, before + 1);
    assert.deepEqual(rejections, []);
  });
});
