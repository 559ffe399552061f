import { strict as assert } from 'node:assert';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const blob = (text: string) => Buffer.from(text).toString('base64');

/** Rewrites, body templates, virtual endpoints and the cache as seen by a keyed API: session metadata and per-key entries. */
describe('session metadata in rewrites, templates, virtual endpoints, and per-key cache entries', () => {
  let gw: GatewayFixture;
  const keys: Record<string, string> = {};
  const lastReceived = () => gw.upstream.received.at(-1)!;

  before(async () => {
    gw = await startGatewayFixture();
    await gw.addApi(
      apiDefinition('sess', '/sess', gw.upstream.url, {
        use_keyless: false,
        auth: { auth_header_name: 'Authorization' },
        cache_options: { enable_cache: true, cache_timeout: 60 },
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            url_rewrites: [
              {
                path: '/meta',
                method: 'GET',
                match_pattern: '^/meta',
                rewrite_to: '/tiers/$gw_meta.tier',
                triggers: [
                  {
                    on: 'any',
                    options: { session_meta_matches: { tier: { match_rx: '^gold$' } } },
                    rewrite_to: '/vip',
                  },
                ],
              },
            ],
            transform: [
              {
                path: '/body',
                method: 'POST',
                template_data: {
                  input_type: 'json',
                  template_mode: 'blob',
                  enable_session: true,
                  template_source: blob('{"tier":"{{._gw_meta.tier}}","x":{{.x}}}'),
                },
              },
            ],
            virtual: [
              {
                path: '/whoami',
                method: 'GET',
                response_function_name: 'who',
                function_source_type: 'blob',
                use_session: true,
                function_source_uri: blob(
                  'function who(request, session) { return TykJsResponse({ Code: 200, Body: session.meta_data.tier }, session.meta_data); }',
                ),
              },
              {
                path: '/count',
                method: 'GET',
                response_function_name: 'count',
                function_source_type: 'blob',
                use_session: true,
                function_source_uri: blob(
                  'function count(request, session) { var meta = session.meta_data; meta.visits = (meta.visits || 0) + 1; return TykJsResponse({ Code: 200, Body: String(meta.visits) }, meta); }',
                ),
              },
              {
                path: '/bloat',
                method: 'GET',
                response_function_name: 'bloat',
                function_source_type: 'blob',
                use_session: true,
                function_source_uri: blob(
                  'function bloat(request, session) { var meta = session.meta_data; meta.junk = new Array(70000).join("x"); return TykJsResponse({ Code: 200, Body: "big" }, meta); }',
                ),
              },
              {
                path: '/blind',
                method: 'GET',
                response_function_name: 'blind',
                function_source_type: 'blob',
                function_source_uri: blob(
                  'function blind(request, session) { return TykJsResponse({ Code: 200, Body: "x" }, { visits: 99 }); }',
                ),
              },
            ],
            cache: ['/cached'],
          },
        }),
      }),
    );
    for (const tier of ['gold', 'silver']) {
      const res = await http(`${gw.node.gatewayUrl}/gw/keys`, {
        method: 'POST',
        headers: gw.node.gwHeaders,
        body: {
          expires: 0,
          quota_max: -1,
          rate: 1000,
          per: 1,
          meta_data: { tier },
          access_rights: { sess: { api_id: 'sess', api_name: 'sess', versions: ['Default'] } },
        },
      });
      assert.equal(res.status, 200, res.text);
      keys[tier] = res.json.key;
    }
  });
  after(() => gw.stop());

  it('a rewrite reads $gw_meta and a trigger matches session metadata', async () => {
    assert.equal((await gw.call('/sess/meta', { headers: { authorization: keys.silver } })).status, 200);
    assert.equal(lastReceived().url, '/tiers/silver');
    await gw.call('/sess/meta', { headers: { authorization: keys.gold } });
    assert.equal(lastReceived().url, '/vip');
  });

  it('a body template with enable_session sees ._gw_meta', async () => {
    await gw.call('/sess/body', { method: 'POST', body: { x: 5 }, headers: { authorization: keys.gold } });
    assert.deepEqual(JSON.parse(lastReceived().body), { tier: 'gold', x: 5 });
  });

  it('a virtual endpoint with use_session gets the key’s session', async () => {
    assert.equal((await gw.call('/sess/whoami', { headers: { authorization: keys.silver } })).text, 'silver');
  });

  it('cache entries are per key: one key’s cached answer is never served to another', async () => {
    await gw.call('/sess/cached', { headers: { authorization: keys.gold } });
    assert.equal(
      (await gw.call('/sess/cached', { headers: { authorization: keys.gold } })).headers.get('x-gw-cached-response'),
      '1',
    );
    assert.equal(
      (await gw.call('/sess/cached', { headers: { authorization: keys.silver } })).headers.get('x-gw-cached-response'),
      null,
    );
    assert.equal((await gw.call('/sess/cached')).status, 401, 'no key: refused before the cache');
  });

  it('a virtual endpoint with use_session writes the session metadata it returns back to the key', async () => {
    const storedMeta = async () =>
      (await http(`${gw.node.gatewayUrl}/gw/keys/${keys.silver}`, { headers: gw.node.gwHeaders })).json.meta_data;
    assert.equal((await gw.call('/sess/count', { headers: { authorization: keys.silver } })).text, '1');
    await eventually(async () => assert.deepEqual(await storedMeta(), { tier: 'silver', visits: 1 }), 3000);
    await eventually(
      async () => assert.equal((await gw.call('/sess/count', { headers: { authorization: keys.silver } })).text, '2'),
      3000,
    );
    await eventually(async () => assert.equal((await storedMeta()).visits, 2), 3000);
  });

  it('without use_session, or over 64 KiB, the returned metadata is not written to the key', async () => {
    assert.equal((await gw.call('/sess/bloat', { headers: { authorization: keys.gold } })).text, 'big');
    assert.equal((await gw.call('/sess/blind', { headers: { authorization: keys.gold } })).text, 'x');
    assert.equal((await gw.call('/sess/whoami', { headers: { authorization: keys.gold } })).text, 'gold');
    const stored = await http(`${gw.node.gatewayUrl}/gw/keys/${keys.gold}`, { headers: gw.node.gwHeaders });
    assert.deepEqual(stored.json.meta_data, { tier: 'gold' });
  });
});
