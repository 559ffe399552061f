import { strict as assert } from 'node:assert';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/** extended_paths.url_rewrites (groups, triggers, internal loops), method_transforms and internal endpoints. */
describe('url rewrites, internal loops, method transforms and internal endpoints', () => {
  let gw: GatewayFixture;
  const lastReceived = () => gw.upstream.received.at(-1)!;

  before(async () => {
    gw = await startGatewayFixture();
    await gw.addApi(
      apiDefinition('rw-target', '/inner', gw.upstream.url, {
        internal: true,
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            url_rewrites: [
              { path: '/prefixed/{x}', method: 'GET', match_pattern: '^/prefixed/(.*)', rewrite_to: '/from-inner/$1' },
            ],
          },
        }),
      }),
    );
    await gw.addApi(
      apiDefinition('rw', '/rw', gw.upstream.url, {
        enable_context_vars: true,
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            url_rewrites: [
              {
                path: '/books/{id}',
                method: 'GET',
                match_pattern: '^/books/(\\d+)/?(.*)',
                rewrite_to: '/library/items/$1?part=$2',
              },
              {
                path: '/tenant',
                method: 'GET',
                match_pattern: '^/tenant',
                rewrite_to: '/tenants/default',
                triggers: [
                  {
                    on: 'all',
                    options: {
                      header_matches: { 'X-Tenant': { match_rx: '^t-(\\w+)$' } },
                      query_val_matches: { region: { match_rx: 'eu' } },
                    },
                    rewrite_to: '/tenants/$gw_context.trigger-0-X-Tenant-1/eu',
                  },
                  {
                    on: 'any',
                    options: { header_matches: { 'X-Tenant': { match_rx: '^t-(\\w+)$' } } },
                    rewrite_to: '/tenants/$gw_context.trigger-1-X-Tenant-1',
                  },
                ],
              },
              {
                path: '/payload',
                method: 'POST',
                match_pattern: '^/payload',
                rewrite_to: '/plain',
                triggers: [{ on: 'any', options: { payload_matches: { match_rx: 'urgent' } }, rewrite_to: '/urgent' }],
              },
              {
                path: '/loop-self',
                method: 'GET',
                match_pattern: '^/loop-self',
                rewrite_to: 'gw://self/hidden?via=self',
              },
              {
                path: '/loop-other',
                method: 'GET',
                match_pattern: '^/loop-other/(.*)',
                rewrite_to: 'gw://rw-target/prefixed/$1',
              },
              { path: '/forever', method: 'GET', match_pattern: '^/forever', rewrite_to: 'gw://self/forever' },
              { path: '/nowhere', method: 'GET', match_pattern: '^/nowhere', rewrite_to: 'gw://no-such-api/x' },
              // six loops: one more than the default bound, allowed by loop_limit on the first
              {
                path: '/long-chain',
                method: 'GET',
                match_pattern: '^/long-chain',
                rewrite_to: 'gw://self/chain1?loop_limit=8',
              },
              { path: '/short-chain', method: 'GET', match_pattern: '^/short-chain', rewrite_to: 'gw://self/chain1' },
              ...[1, 2, 3, 4, 5].map((n) => ({
                path: `/chain${n}`,
                method: 'GET',
                match_pattern: `^/chain${n}`,
                rewrite_to: `gw://self/chain${n + 1}`,
              })),
              { path: '/chain6', method: 'GET', match_pattern: '^/chain6', rewrite_to: '/chain-end' },
              {
                path: '/peek',
                method: 'GET',
                match_pattern: '^/peek',
                rewrite_to: 'gw://self/inside?loop_limit=8&keep=yes',
              },
              {
                path: '/greedy',
                method: 'GET',
                match_pattern: '^/greedy',
                rewrite_to: 'gw://self/greedy?loop_limit=100000',
              },
            ],
            method_transforms: [{ path: '/legacy-delete', method: 'GET', to_method: 'DELETE' }],
            internal: [{ path: '/hidden', method: 'GET' }],
          },
        }),
      }),
    );
  });
  after(() => gw.stop());

  it('rewrites with the match groups, keeping the path below the target', async () => {
    const res = await gw.call('/rw/books/42/chapters');
    assert.equal(res.status, 200);
    assert.equal(lastReceived().url, '/library/items/42?part=chapters');
  });

  it('a rewrite without its own query keeps the client query; non-matching paths are untouched', async () => {
    await gw.call('/rw/tenant?x=1');
    assert.equal(lastReceived().url, '/tenants/default?x=1');
    await gw.call('/rw/other?y=2');
    assert.equal(lastReceived().url, '/other?y=2');
  });

  it('triggers: all-conditions first, then any, with their captured groups', async () => {
    await gw.call('/rw/tenant?region=eu', { headers: { 'x-tenant': 't-acme' } });
    assert.equal(lastReceived().url, '/tenants/acme/eu?region=eu');
    await gw.call('/rw/tenant?region=us', { headers: { 'x-tenant': 't-acme' } });
    assert.equal(lastReceived().url, '/tenants/acme?region=us');
    await gw.call('/rw/tenant', { headers: { 'x-tenant': 'nope' } });
    assert.equal(lastReceived().url, '/tenants/default');
  });

  it('a payload trigger reads the body and still sends it upstream', async () => {
    await gw.call('/rw/payload', { method: 'POST', body: 'this is urgent' });
    assert.equal(lastReceived().url, '/urgent');
    assert.equal(lastReceived().body, 'this is urgent');
    await gw.call('/rw/payload', { method: 'POST', body: 'routine' });
    assert.equal(lastReceived().url, '/plain');
  });

  it('an internal endpoint is 404 for clients and reachable through gw://self', async () => {
    const before = gw.upstream.received.length;
    assert.equal((await gw.call('/rw/hidden')).status, 404);
    assert.equal(gw.upstream.received.length, before);
    const res = await gw.call('/rw/loop-self');
    assert.equal(res.status, 200);
    assert.equal(lastReceived().url, '/hidden?via=self');
  });

  it('loops into another (internal) API of the organisation, which applies its own rewrites', async () => {
    assert.equal((await gw.call('/inner/prefixed/x')).status, 404, 'an internal API has no listen path of its own');
    const res = await gw.call('/rw/loop-other/deep/path', { headers: { 'x-through': 'kept' } });
    assert.equal(res.status, 200);
    assert.equal(lastReceived().url, '/from-inner/deep/path');
    assert.equal(lastReceived().headers['x-through'], 'kept');
  });

  it('a loop past the bound answers 500 without reaching the upstream; an unknown API is 404', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/rw/forever');
    assert.equal(res.status, 500);
    assert.match(res.text, /Loop level too deep/);
    assert.equal(gw.upstream.received.length, before);
    assert.equal((await gw.call('/rw/nowhere')).status, 404);
  });

  it('loop_limit on a gw:// rewrite allows a longer chain, and is not passed on', async () => {
    const before = gw.upstream.received.length;
    const refused = await gw.call('/rw/short-chain');
    assert.equal(refused.status, 500);
    assert.match(refused.text, /more than 5 loops/);
    assert.equal(gw.upstream.received.length, before);
    const res = await gw.call('/rw/long-chain');
    assert.equal(res.status, 200, res.text);
    assert.equal(lastReceived().url, '/chain-end');
    assert.equal((await gw.call('/rw/peek')).status, 200);
    assert.equal(lastReceived().url, '/inside?keep=yes');
  });

  it('loop_limit is capped: a rewrite looping on itself still stops', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/rw/greedy');
    assert.equal(res.status, 500);
    assert.match(res.text, /more than 20 loops/);
    assert.equal(gw.upstream.received.length, before);
  });

  it('method_transforms changes the method sent upstream', async () => {
    await gw.call('/rw/legacy-delete/7');
    assert.equal(lastReceived().method, 'DELETE');
    assert.equal(lastReceived().url, '/legacy-delete/7');
  });

  it('refuses at save time a rewrite pattern, trigger pattern or template gw could not run; nothing is stored', async () => {
    const post = (extended: Record<string, unknown>) =>
      http(`${gw.node.gatewayUrl}/gw/apis`, {
        method: 'POST',
        headers: gw.node.gwHeaders,
        body: apiDefinition('rw-bad', '/rw-bad', gw.upstream.url, {
          version_data: singleVersion({ use_extended_paths: true, extended_paths: extended }),
        }),
      });
    const badPattern = await post({
      url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '(?=look)ahead', rewrite_to: '/b' }],
    });
    assert.equal(badPattern.status, 400, badPattern.text);
    assert.match(badPattern.text, /url_rewrites\[0\]: match_pattern/);
    const badTrigger = await post({
      url_rewrites: [
        {
          path: '/a',
          method: 'GET',
          match_pattern: '/a',
          rewrite_to: '/b',
          triggers: [{ on: 'any', options: { header_matches: { 'X-A': { match_rx: '(a' } } }, rewrite_to: '/c' }],
        },
      ],
    });
    assert.equal(badTrigger.status, 400);
    assert.match(badTrigger.text, /triggers\[0\]/);
    const badTemplate = await post({
      transform: [
        {
          path: '/a',
          method: 'POST',
          template_data: {
            input_type: 'json',
            template_mode: 'blob',
            template_source: Buffer.from('{{if .x}}').toString('base64'),
          },
        },
      ],
    });
    assert.equal(badTemplate.status, 400);
    assert.match(badTemplate.text, /missing \{\{end\}\}/);
    const badFile = await post({
      virtual: [
        {
          path: '/a',
          method: 'GET',
          response_function_name: 'f',
          function_source_type: 'file',
          function_source_uri: '../secret.js',
        },
      ],
    });
    assert.equal(badFile.status, 400);
    assert.equal((await http(`${gw.node.gatewayUrl}/gw/apis/rw-bad`, { headers: gw.node.gwHeaders })).status, 404);
  });
});
