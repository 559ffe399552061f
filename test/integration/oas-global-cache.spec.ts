import { strict as assert } from 'node:assert';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/** An OAS API's middleware.global.cache, served by the gateway as the classic cache_options. */
describe('OAS middleware.global.cache through the gateway', () => {
  let gw: GatewayFixture;

  before(async () => {
    gw = await startGatewayFixture();
    const document = {
      openapi: '3.0.3',
      info: { title: 'Cached', version: '1' },
      paths: { '/items': { get: { operationId: 'listItems', responses: { 200: { description: 'ok' } } } } },
      'x-gw-api-gateway': {
        info: { name: 'cached', id: 'oas-cached', state: { active: true } },
        upstream: { url: gw.upstream.url },
        server: { listenPath: { value: '/oas-cached/', strip: true }, authentication: { enabled: false } },
        middleware: {
          global: { cache: { enabled: true, timeout: 60, cacheAllSafeRequests: true, cacheByHeaders: ['X-Tenant'] } },
        },
      },
    };
    const res = await http(`${gw.node.gatewayUrl}/gw/apis/oas`, {
      method: 'POST',
      headers: gw.node.gwHeaders,
      body: document,
    });
    assert.equal(res.status, 200, res.text);
    await eventually(async () => assert.equal((await gw.call('/oas-cached/warmup')).status, 200), 5000);
  });
  after(() => gw.stop());

  it('answers a repeated GET from the cache without calling the upstream, per cacheByHeaders value', async () => {
    const first = await gw.call('/oas-cached/items', { headers: { 'x-tenant': 'a' } });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-gw-cached-response'), null);
    const seen = gw.upstream.received.length;
    const second = await gw.call('/oas-cached/items', { headers: { 'x-tenant': 'a' } });
    assert.equal(second.headers.get('x-gw-cached-response'), '1');
    assert.equal(second.text, first.text);
    assert.equal(gw.upstream.received.length, seen);
    const other = await gw.call('/oas-cached/items', { headers: { 'x-tenant': 'b' } });
    assert.equal(other.headers.get('x-gw-cached-response'), null);
    assert.equal(gw.upstream.received.length, seen + 1);
  });
});
