import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const TEST_PLUGINS = resolve(__dirname, '../support/plugins');
const CAP = 64 * 1024;

describe('gateway: response plugins and large upstream bodies', function () {
  let gw: GatewayFixture;
  const big = Buffer.alloc(1024 * 1024, 'x');

  before(async () => {
    gw = await startGatewayFixture({ maxResponseBodyBuffer: CAP, pluginsDir: TEST_PLUGINS });
    gw.upstream.respondWith((req, res) => {
      const size = req.url.includes('small') ? 1000 : big.length;
      res.writeHead(200, { 'content-type': 'text/plain' });
      // In chunks, as a real upstream streams a large body.
      for (let at = 0; at < size; at += 16 * 1024) res.write(big.subarray(at, Math.min(size, at + 16 * 1024)));
      res.end();
    });
    await gw.addApi(apiDefinition('reads-body', '/reads', gw.upstream.url, { custom_middleware: { response: [{ name: 'rewrite', path: 'rewrite.ts' }] } }));
    await gw.addApi(apiDefinition('header-only', '/header', gw.upstream.url, { custom_middleware: { response: [{ name: 'slow-header', path: 'slow-header.ts' }] } }));
  });
  after(() => gw.stop());

  it('answers 502 when a plugin reads a body over the cap, and keeps serving', async () => {
    const res = await gw.call('/reads/large');
    assert.equal(res.status, 502);
    assert.deepEqual(res.json, { error: 'There was a problem proxying the request' });
    const small = await gw.call('/reads/small');
    assert.equal(small.status, 299);
    assert.equal(small.text, `wrapped(${'x'.repeat(1000)})`);
  });

  it('streams a body over the cap unchanged when the plugins do not read it', async () => {
    const res = await gw.call('/header/large');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-slow'), 'done');
    assert.equal(res.text.length, big.length);
  });
});
