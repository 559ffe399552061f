import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { eventually } from '../support/eventually';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const TEST_PLUGINS = resolve(__dirname, '../support/plugins');
const CAP = 64 * 1024;

describe('gateway: response plugins and large upstream bodies', function () {
  let gw: GatewayFixture;
  const big = Buffer.alloc(1024 * 1024, 'x');
  /** upstream responses that have been written out completely */
  let finished = 0;

  before(async () => {
    gw = await startGatewayFixture({ maxResponseBodyBuffer: CAP, pluginsDir: TEST_PLUGINS });
    gw.upstream.respondWith((req, res) => {
      // 'huge': more than socket buffers absorb, so the upstream only finishes if the gateway reads on.
      const size = req.url.includes('small') ? 1000 : req.url.includes('huge') ? 16 * big.length : big.length;
      res.writeHead(200, { 'content-type': 'text/plain' });
      // In chunks, as a real upstream streams a large body.
      for (let at = 0; at < size; at += 16 * 1024) res.write(big.subarray(0, Math.min(16 * 1024, size - at)));
      res.end();
      res.on('finish', () => finished++);
    });
    await gw.addApi(
      apiDefinition('reads-body', '/reads', gw.upstream.url, {
        custom_middleware: { response: [{ name: 'rewrite', path: 'rewrite.ts' }] },
      }),
    );
    await gw.addApi(
      apiDefinition('header-only', '/header', gw.upstream.url, {
        custom_middleware: { response: [{ name: 'slow-header', path: 'slow-header.ts' }] },
      }),
    );
  });
  after(() => gw.stop());
  before(() =>
    gw.addApi(
      apiDefinition('crashes', '/crashes', gw.upstream.url, {
        custom_middleware: { response: [{ name: 'slow-crash', path: 'slow-crash.ts' }] },
      }),
    ),
  );

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

  it('a plugin that fails while the upstream is paused gets a 500, and the upstream is not left hanging', async () => {
    const before = finished;
    const res = await gw.call('/crashes/huge');
    assert.equal(res.status, 500);
    await eventually(() => assert.equal(finished, before + 1, 'the upstream finished sending'), 3000);
  });
});
