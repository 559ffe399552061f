import { strict as assert } from 'node:assert';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/** What a browser sends before a cross-origin PUT with a JSON body and a custom header. */
const preflight = (origin: string, method = 'PUT', headers = 'content-type, x-trace') => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

describe('CORS: preflight before authentication, headers on every answer, origins with wildcards', () => {
  let gw: GatewayFixture;
  const cors = {
    enable: true,
    allowed_origins: ['https://app.example.org', 'https://*.example.com'],
    allowed_methods: ['GET', 'PUT', 'POST'],
    allowed_headers: ['Content-Type', 'X-Trace', 'Authorization'],
    exposed_headers: ['X-Upstream'],
    allow_credentials: true,
    max_age: 600,
  };

  before(async () => {
    gw = await startGatewayFixture();
    // Keyed: a preflight carries no credentials and must still be answered.
    await gw.addApi(
      apiDefinition('cors-keyed', '/cors-keyed', gw.upstream.url, {
        use_keyless: false,
        auth: { auth_header_name: 'Authorization' },
        CORS: cors,
      }),
    );
    await gw.addApi(
      apiDefinition('cors-open', '/cors-open', gw.upstream.url, {
        CORS: { ...cors, allow_credentials: false, allowed_origins: ['*'] },
      }),
    );
    await gw.addApi(
      apiDefinition('cors-pass', '/cors-pass', gw.upstream.url, { CORS: { ...cors, options_passthrough: true } }),
    );
    await gw.addApi(apiDefinition('cors-none', '/cors-none', gw.upstream.url));
  });
  after(() => gw.stop());

  it('answers a preflight from an allowed origin itself, before authentication, without calling the upstream', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/cors-keyed/items/1', preflight('https://app.example.org'));
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.org');
    assert.equal(res.headers.get('access-control-allow-methods'), 'PUT');
    assert.equal(res.headers.get('access-control-allow-headers'), 'content-type, x-trace');
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(res.headers.get('access-control-max-age'), '600');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    assert.equal(gw.upstream.received.length, before, 'the upstream saw no preflight');
  });

  it('matches a wildcard origin on its subdomains only', async () => {
    const sub = await gw.call('/cors-keyed/items', preflight('https://shop.eu.example.com', 'GET', 'x-trace'));
    assert.equal(sub.headers.get('access-control-allow-origin'), 'https://shop.eu.example.com');
    const lookalike = await gw.call('/cors-keyed/items', preflight('https://example.com.evil.net', 'GET', 'x-trace'));
    assert.equal(lookalike.headers.get('access-control-allow-origin'), null);
  });

  it('gives a disallowed origin, method or header no CORS headers at all', async () => {
    for (const res of [
      await gw.call('/cors-keyed/items', preflight('https://evil.example.net')),
      await gw.call('/cors-keyed/items', preflight('https://app.example.org', 'DELETE')),
      await gw.call('/cors-keyed/items', preflight('https://app.example.org', 'PUT', 'x-not-allowed')),
    ]) {
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal(res.headers.get('access-control-allow-methods'), null);
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
    }
    const actual = await gw.call('/cors-open/items', { headers: { origin: 'https://evil.example.net' } });
    assert.equal(actual.headers.get('access-control-allow-origin'), '*', 'any origin on the open API');
    const keyed = await gw.call('/cors-keyed/items', {
      headers: { origin: 'https://evil.example.net', authorization: 'nope' },
    });
    assert.equal(keyed.headers.get('access-control-allow-origin'), null);
  });

  it('puts the CORS headers on the actual request, on an upstream answer and on a gateway error alike', async () => {
    const open = await gw.call('/cors-open/items', { headers: { origin: 'https://app.example.org' } });
    assert.equal(open.status, 200);
    assert.equal(open.headers.get('access-control-allow-origin'), '*');
    assert.equal(open.headers.get('access-control-expose-headers'), 'X-Upstream');
    assert.equal(open.headers.get('x-upstream'), 'yes');
    assert.match(open.headers.get('vary') ?? '', /Origin/);
    const refused = await gw.call('/cors-keyed/items', { headers: { origin: 'https://app.example.org' } });
    assert.equal(refused.status, 401, 'no key');
    assert.equal(
      refused.headers.get('access-control-allow-origin'),
      'https://app.example.org',
      'the browser can read the 401',
    );
    assert.equal(refused.headers.get('access-control-allow-credentials'), 'true');
  });

  it('sends the preflight on to the upstream with options_passthrough, headers added', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/cors-pass/items', preflight('https://app.example.org'));
    assert.equal(res.status, 200, 'the upstream answered');
    assert.equal(gw.upstream.received.length, before + 1);
    assert.equal(gw.upstream.received.at(-1)!.method, 'OPTIONS');
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.org');
  });

  it('keeps the upstream’s Vary and adds Origin to it', async () => {
    gw.upstream.respondWith((_req, res) =>
      res.writeHead(200, { vary: 'Accept-Encoding', 'content-type': 'text/plain' }).end('ok'),
    );
    try {
      const res = await gw.call('/cors-open/items', { headers: { origin: 'https://app.example.org' } });
      assert.equal(res.headers.get('vary'), 'Accept-Encoding, Origin');
    } finally {
      gw.upstream.respondWith((req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' })
          .end(JSON.stringify({ url: req.url })),
      );
    }
  });

  it('adds nothing on an API without CORS', async () => {
    const res = await gw.call('/cors-none/items', preflight('https://app.example.org'));
    assert.equal(res.status, 200, 'the upstream answered the OPTIONS');
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});
