import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { http } from '../support/http';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

describe('plugins in the request path', () => {
  let gw: GatewayFixture;
  const health = async () => (await http(`${gw.node.gatewayUrl}/gw/health`, { headers: gw.node.gwHeaders })).json;

  before(async () => {
    // Plugin paths are relative to GW_PLUGINS_DIR, and plugin files come only from there: here
    // the folder of this suite's test plugins.
    gw = await startGatewayFixture({ pluginsDir: resolve(__dirname, '../support/plugins') });
  });
  after(() => gw.stop());

  describe('the example plugins, loaded from custom_middleware', () => {
    let examples: GatewayFixture;
    // The project's plugins folder, as GW_PLUGINS_DIR defaults to it.
    before(async () => {
      examples = await startGatewayFixture({ pluginsDir: resolve(__dirname, '../../plugins') });
    });
    after(() => examples.stop());

    before(() =>
      examples.addApi(
        apiDefinition('examples', '/examples', examples.upstream.url, {
          use_keyless: false,
          config_data: { static_keys: { 'key-alice': { owner: 'alice' } } },
          custom_middleware: {
            driver: 'node',
            pre: [{ name: 'request-id', path: 'examples/request-id' }],
            auth_check: { name: 'static-keys', path: 'examples/static-keys' },
            response: [{ name: 'request-id', path: 'examples/request-id' }],
          },
        }),
      ),
    );

    it('the response cache keeps nothing for sessions an auth plugin made: each caller reaches the upstream with its own identity', async () => {
      await examples.addApi(
        apiDefinition('examples-cached', '/examples-cached', examples.upstream.url, {
          use_keyless: false,
          config_data: { static_keys: { 'key-alice': { owner: 'alice' }, 'key-bob': { owner: 'bob' } } },
          cache_options: { enable_cache: true, cache_timeout: 60, cache_all_safe_requests: true },
          custom_middleware: { driver: 'node', auth_check: { name: 'static-keys', path: 'examples/static-keys' } },
        }),
      );
      const before = examples.upstream.received.length;
      for (const key of ['key-alice', 'key-bob', 'key-alice']) {
        const res = await examples.call('/examples-cached/profile', { headers: { 'x-api-key': key } });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers.get('x-gw-cached-response'), null, `${key}: answered from the cache`);
      }
      const seen = examples.upstream.received.slice(before).map((r) => r.headers['x-key-owner']);
      assert.deepEqual(seen, ['alice', 'bob', 'alice']);
    });

    it('refuses a request without a key (401) and with an unknown key (403)', async () => {
      const before = examples.upstream.received.length;
      assert.deepEqual((await examples.call('/examples/a')).json, { error: 'Authorization field missing' });
      const unknown = await examples.call('/examples/a', { headers: { 'x-api-key': 'nope' } });
      assert.equal(unknown.status, 403);
      assert.equal(examples.upstream.received.length, before);
    });

    it('lets a known key through, tags the request upstream and times the upstream', async () => {
      const res = await examples.call('/examples/a', {
        headers: { 'x-api-key': 'key-alice', 'x-request-id': 'req-1' },
      });
      assert.equal(res.status, 200);
      const received = examples.upstream.received.at(-1)!;
      assert.equal(received.headers['x-request-id'], 'req-1');
      assert.equal(received.headers['x-key-owner'], 'alice');
      assert.equal(received.headers['x-api-key'], undefined);
      assert.equal(res.headers.get('x-request-id'), 'req-1');
      assert.match(
        res.headers.get('x-upstream-time') ?? 'missing',
        /^\d+\.\d$/,
        'the upstream time is reported in milliseconds',
      );
    });
  });

  describe('what plugins can change', () => {
    before(async () => {
      await gw.addApi(
        apiDefinition('plugins', '/plugins', gw.upstream.url, {
          custom_middleware: {
            pre: [{ name: 'gatekeeper', path: 'gatekeeper.ts' }],
            post: [{ name: 'rewrite', path: 'rewrite.ts' }],
            response: [{ name: 'rewrite', path: 'rewrite.ts' }],
          },
        }),
      );
    });

    it('rewrites the URL and body upstream and the status and body of the response', async () => {
      const res = await gw.call('/plugins/items', { method: 'POST', body: 'shout' });
      const received = gw.upstream.received.at(-1)!;
      assert.equal(received.url, '/rewritten/items?by=plugin');
      assert.equal(received.body, 'SHOUT');
      assert.equal(received.headers['x-gatekeeper'], 'passed');
      assert.equal(res.status, 299);
      assert.equal(
        res.text,
        `wrapped(${JSON.stringify({ method: 'POST', url: '/rewritten/items?by=plugin', body: 'SHOUT' })})`,
      );
      assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(res.text)));
    });

    it('answers early without calling the upstream', async () => {
      const before = gw.upstream.received.length;
      const res = await gw.call('/plugins/items?stop=1');
      assert.equal(res.status, 418);
      assert.equal(res.headers.get('x-stopped'), 'yes');
      assert.deepEqual(res.json, { stopped: true });
      assert.equal(gw.upstream.received.length, before);
    });

    it('turns a plugin that throws into a 500 JSON error and keeps serving', async () => {
      const res = await gw.call('/plugins/items?crash=1');
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, { error: 'There was an internal error processing the request' });
      assert.equal(res.headers.get('x-generator'), 'gw');
      assert.equal((await gw.call('/plugins/items')).status, 299);
    });
  });

  describe('definitions whose plugins can not be loaded are not served half-configured', () => {
    const broken: Array<[string, Record<string, unknown>, RegExp]> = [
      ['an unknown hook', { prre: [{ name: 'gatekeeper', path: 'gatekeeper.ts' }] }, /unknown hook 'prre'/],
      ['another driver', { driver: 'python', pre: [{ name: 'x', path: 'x.py' }] }, /driver 'python' is not supported/],
      [
        'a missing module',
        { pre: [{ name: 'ghost', path: './nowhere/ghost.js' }] },
        /plugin module '.\/nowhere\/ghost.js' not found/,
      ],
      [
        'an SDK it does not support',
        { pre: [{ name: 'old-sdk', path: 'old-sdk.ts' }] },
        /needs SDK \^0\.1\.0, this gateway provides 1\.0\.0/,
      ],
      [
        'a module without a plugin',
        { pre: [{ name: 'not-a-plugin', path: 'not-a-plugin.ts' }] },
        /does not export a plugin made with definePlugin/,
      ],
      [
        'a hook the plugin lacks',
        { response: [{ name: 'gatekeeper', path: 'gatekeeper.ts' }] },
        /does not implement that hook/,
      ],
    ];
    for (const [what, customMiddleware, reason] of broken) {
      it(`${what}: 503 on its listen path, and the reason in /gw/health`, async () => {
        const apiId = `broken-${what.replace(/\W+/g, '-')}`;
        await gw.addApi(apiDefinition(apiId, `/${apiId}`, gw.upstream.url, { custom_middleware: customMiddleware }));
        const before = gw.upstream.received.length;
        const res = await gw.call(`/${apiId}/x`);
        assert.equal(res.status, 503);
        assert.match(res.json.error, /is not available: its definition failed to load/);
        assert.equal(gw.upstream.received.length, before);
        assert.match((await health()).apis_failed[apiId], reason);
      });
    }
  });
});
