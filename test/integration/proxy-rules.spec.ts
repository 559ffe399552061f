import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { startUpstream } from '../support/upstream';

describe('proxy: versions, endpoint rules, transforms and limits', () => {
  let gw: GatewayFixture;
  const lastReceived = () => gw.upstream.received.at(-1)!;

  before(async () => {
    gw = await startGatewayFixture();
  });
  after(() => gw.stop());

  describe('versions', () => {
    const versions = {
      v1: { name: 'v1', expires: '2000-01-01 00:00' },
      v2: { name: 'v2', expires: '' },
      v3: { name: 'v3', override_target: '' },
    };

    before(async () => {
      await gw.addApi(
        apiDefinition('by-header', '/by-header', gw.upstream.url, {
          definition: { location: 'header', key: 'x-api-version' },
          version_data: { not_versioned: false, versions },
        }),
      );
      await gw.addApi(
        apiDefinition('by-param', '/by-param', gw.upstream.url, {
          definition: { location: 'url-param', key: 'ver' },
          version_data: { not_versioned: false, default_version: 'v2', versions },
        }),
      );
      await gw.addApi(
        apiDefinition('by-url', '/by-url', gw.upstream.url, {
          definition: { location: 'url', strip_versioning_data: true },
          version_data: { not_versioned: false, versions },
        }),
      );
    });

    const cases: Array<[string, string, Record<string, string>, number, unknown]> = [
      ['a header names a live version', '/by-header/a', { 'x-api-version': 'v2' }, 200, undefined],
      [
        'an expired version',
        '/by-header/a',
        { 'x-api-version': 'v1' },
        403,
        { error: 'Api Version has expired, please check documentation or contact administrator' },
      ],
      ['no version information and no default', '/by-header/a', {}, 403, { error: 'Version information not found' }],
      [
        'an unknown version',
        '/by-header/a',
        { 'x-api-version': 'v9' },
        404,
        { error: 'This API version does not seem to exist' },
      ],
      ['a query parameter names the version', '/by-param/a?ver=v3', {}, 200, undefined],
      ['the default version when none is named', '/by-param/a', {}, 200, undefined],
      [
        'an expired version named in the query',
        '/by-param/a?ver=v1',
        {},
        403,
        { error: 'Api Version has expired, please check documentation or contact administrator' },
      ],
      ['a URL segment names the version', '/by-url/v2/items', {}, 200, undefined],
      ['an unknown URL version', '/by-url/v7/items', {}, 404, { error: 'This API version does not seem to exist' }],
    ];
    for (const [what, path, headers, status, body] of cases) {
      it(`${what}: ${path} → ${status}`, async () => {
        const res = await gw.call(path, { headers });
        assert.equal(res.status, status, res.text);
        if (body) {
          assert.deepEqual(res.json, body);
          assert.equal(res.headers.get('x-generator'), 'gw');
        }
      });
    }

    it('strips the URL version segment before proxying when asked to', async () => {
      await gw.call('/by-url/v2/items?x=1');
      assert.equal(lastReceived().url, '/items?x=1');
    });
  });

  describe('endpoint rules', () => {
    before(async () => {
      await gw.addApi(
        apiDefinition('lists', '/lists', gw.upstream.url, {
          version_data: singleVersion({
            use_extended_paths: true,
            extended_paths: {
              ignored: [
                {
                  path: '/health',
                  method_actions: {
                    GET: {
                      action: 'reply',
                      code: 200,
                      data: '{"ok":true}',
                      headers: { 'content-type': 'application/json', 'x-mock': '1' },
                    },
                  },
                },
              ],
              black_list: [
                {
                  path: '/users/{id}/secret',
                  method_actions: { GET: { action: 'no_action', code: 200, data: '', headers: {} } },
                },
                { path: '/admin', method_actions: { GET: { action: 'no_action' }, POST: { action: 'no_action' } } },
              ],
              white_list: [
                { path: '/users/{id}/secret', method_actions: { POST: { action: 'no_action' } } },
                { path: '/users/{id}', method_actions: { GET: { action: 'no_action' } } },
                {
                  path: '/hello',
                  method_actions: {
                    GET: { action: 'reply', code: 202, data: 'hi there', headers: { 'x-reply': 'yes' } },
                  },
                },
                { path: '/orders/[0-9]+$', method_actions: { GET: { action: 'no_action' } } },
              ],
            },
          }),
        }),
      );
      await gw.addApi(
        apiDefinition('legacy', '/legacy', gw.upstream.url, {
          version_data: singleVersion({
            use_extended_paths: false,
            ignore_endpoint_case: true,
            paths: { black_list: ['/private'] },
          }),
        }),
      );
    });

    const cases: Array<[string, string, string, number, string | undefined]> = [
      ['a white-listed path and method', 'GET', '/lists/users/42', 200, 'proxied'],
      ['a sub-path of a white-listed path', 'GET', '/lists/users/42/orders', 200, 'proxied'],
      ['a white-listed path with another method', 'DELETE', '/lists/users/42', 403, undefined],
      ['a path on no list while a white list exists', 'GET', '/lists/other', 403, undefined],
      ['a black-listed path (listed before the white list entry)', 'GET', '/lists/users/7/secret', 403, undefined],
      ['the same path with a white-listed method', 'POST', '/lists/users/7/secret', 200, 'proxied'],
      ['a black-listed path for any listed method', 'POST', '/lists/admin', 403, undefined],
      ['a reply action: answered by the gateway', 'GET', '/lists/hello', 202, 'hi there'],
      ['a regular-expression path', 'GET', '/lists/orders/123', 200, 'proxied'],
      ['a path the expression does not match', 'GET', '/lists/orders/abc', 403, undefined],
      ['an ignored path with a reply action', 'GET', '/lists/health', 200, '{"ok":true}'],
      ['a legacy black list, case-insensitive', 'GET', '/legacy/PRIVATE/x', 403, undefined],
      ['a legacy path not on the list', 'GET', '/legacy/public', 200, 'proxied'],
    ];
    for (const [what, method, path, status, body] of cases) {
      it(`${what}: ${method} ${path} → ${status}`, async () => {
        const before = gw.upstream.received.length;
        const res = await gw.call(path, { method });
        assert.equal(res.status, status, res.text);
        if (status === 403) assert.deepEqual(res.json, { error: 'Requested endpoint is forbidden' });
        if (body === 'proxied') assert.equal(gw.upstream.received.length, before + 1);
        else assert.equal(gw.upstream.received.length, before, 'the upstream was not called');
        if (body !== undefined && body !== 'proxied') assert.equal(res.text, body);
      });
    }

    it('sends the headers of a reply action', async () => {
      const res = await gw.call('/lists/hello');
      assert.equal(res.headers.get('x-reply'), 'yes');
    });
  });

  describe('header transforms and context variables', () => {
    before(async () => {
      await gw.addApi(
        apiDefinition('headers', '/headers', gw.upstream.url, {
          enable_context_vars: true,
          version_data: singleVersion({
            global_headers: {
              'X-Static': 'fixed',
              'X-Client-Agent': '$gw_context.headers_User_Agent',
              'X-Where': '$gw_context.path on $gw_context.api_id',
              'X-Request-Id': '$gw_context.request_id',
              'X-Parts': '$gw_context.path_parts',
              'X-Query': '$gw_context.request_data',
              'X-Client': '$gw_context.remote_addr',
              'X-Session-Cookie': '$gw_context.cookies_session',
            },
            global_headers_remove: ['x-secret', 'X-Static'],
            global_response_headers: { 'X-Served-By': 'gw' },
            global_response_headers_remove: ['x-upstream'],
          }),
        }),
      );
    });

    it('removes, then sets request headers, expanding context variables', async () => {
      await gw.call('/headers/a?b=1', {
        headers: {
          'user-agent': 'test-agent/1.0',
          'x-secret': 'hide me',
          'x-static': 'from client',
          cookie: 'theme=dark; session=s%201',
          'x-real-ip': '10.1.1.1',
        },
      });
      const received = lastReceived().headers;
      assert.equal(received['x-parts'], 'headers,a');
      assert.equal(received['x-query'], 'b=1');
      assert.equal(received['x-client'], '10.1.1.1');
      assert.equal(received['x-session-cookie'], 's 1');
      assert.equal(received['x-secret'], undefined);
      assert.equal(received['x-static'], 'fixed');
      assert.equal(received['x-client-agent'], 'test-agent/1.0');
      assert.equal(received['x-where'], '/headers/a on headers');
      assert.match(String(received['x-request-id']), /^[0-9a-f-]{36}$/);
    });

    it('sets and removes response headers', async () => {
      const res = await gw.call('/headers/a');
      assert.equal(res.headers.get('x-served-by'), 'gw');
      assert.equal(res.headers.get('x-upstream'), null);
    });

    it('leaves context variables unexpanded when the API does not enable them', async () => {
      await gw.addApi(
        apiDefinition('no-vars', '/no-vars', gw.upstream.url, {
          version_data: singleVersion({ global_headers: { 'X-Raw': '$gw_context.path' } }),
        }),
      );
      await gw.call('/no-vars/a');
      assert.equal(lastReceived().headers['x-raw'], '$gw_context.path');
    });
  });

  describe('override_target', () => {
    it("sends a version's requests to its own target", async () => {
      const other = await startUpstream();
      try {
        await gw.addApi(
          apiDefinition('override', '/override', gw.upstream.url, {
            version_data: singleVersion({ override_target: `${other.url}/elsewhere` }),
          }),
        );
        const res = await gw.call('/override/x?y=1');
        assert.equal(res.json.url, '/elsewhere/x?y=1');
        assert.equal(other.received.length, 1);
      } finally {
        await other.close();
      }
    });
  });

  describe('request size limit', () => {
    before(() =>
      gw.addApi(
        apiDefinition('sized', '/sized', gw.upstream.url, { version_data: singleVersion({ global_size_limit: 10 }) }),
      ),
    );

    it('proxies a body within the limit', async () => {
      const res = await gw.call('/sized/a', { method: 'POST', body: '0123456789' });
      assert.equal(res.status, 200);
      assert.equal(lastReceived().body, '0123456789');
    });

    it('refuses a larger body with 400 Request is too large', async () => {
      const res = await gw.call('/sized/a', { method: 'POST', body: '0123456789X' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { error: 'Request is too large' });
    });

    it('refuses a chunked body without a length with 411', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${gw.node.gatewayUrl}/sized/a`,
          { method: 'POST', headers: { 'transfer-encoding': 'chunked' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end('abc');
      });
      assert.equal(status, 411);
    });

    it('lets a GET without a body through', async () => {
      assert.equal((await gw.call('/sized/a')).status, 200);
    });
  });

  describe('IP rules', () => {
    before(async () => {
      await gw.addApi(
        apiDefinition('allow-v4', '/allow-v4', gw.upstream.url, {
          enable_ip_whitelisting: true,
          allowed_ips: ['10.0.0.0/8', '192.168.1.7'],
        }),
      );
      await gw.addApi(
        apiDefinition('allow-v6', '/allow-v6', gw.upstream.url, {
          enable_ip_whitelisting: true,
          allowed_ips: ['2001:db8::/32'],
        }),
      );
      await gw.addApi(
        apiDefinition('block', '/block', gw.upstream.url, {
          enable_ip_blacklisting: true,
          blacklisted_ips: ['203.0.113.0/24'],
        }),
      );
    });

    const cases: Array<[string, string, string | undefined, number]> = [
      ['an address in an allowed range', '/allow-v4/a', '10.1.2.3', 200],
      ['an allowed single address', '/allow-v4/a', '192.168.1.7', 200],
      ['an address outside the allowed ones', '/allow-v4/a', '192.168.1.8', 403],
      ['the connection address when no header names one', '/allow-v4/a', undefined, 403],
      ['an IPv6 address in an allowed range', '/allow-v6/a', '2001:db8::1', 200],
      ['an IPv6 address outside it', '/allow-v6/a', '2001:db9::1', 403],
      ['a blocked range', '/block/a', '203.0.113.9', 403],
      ['an address outside the block list', '/block/a', '198.51.100.1', 200],
    ];
    for (const [what, path, address, status] of cases) {
      it(`${what}: ${address ?? 'loopback'} on ${path} → ${status}`, async () => {
        const res = await gw.call(path, { headers: address ? { 'x-real-ip': address } : {} });
        assert.equal(res.status, status);
        if (status === 403) assert.deepEqual(res.json, { error: 'access from this IP has been disallowed' });
      });
    }

    it('reads the first X-Forwarded-For entry when there is no X-Real-IP', async () => {
      assert.equal((await gw.call('/allow-v4/a', { headers: { 'x-forwarded-for': '10.9.9.9, 8.8.8.8' } })).status, 200);
    });
  });
});
