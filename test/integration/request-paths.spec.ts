import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { startUpstream, type Upstream } from '../support/upstream';

/** A GET with the path exactly as written: fetch and `new URL` would resolve its dot segments first. */
function rawGet(gatewayUrl: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('proxy: dot segments in request paths are resolved before routing', () => {
  let gw: GatewayFixture;
  let load: Upstream;

  before(async () => {
    gw = await startGatewayFixture();
    load = await startUpstream();
    await gw.addApi(
      apiDefinition('fuzz', '/fuzz/', gw.upstream.url, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: { black_list: [{ path: '/admin', method_actions: { GET: { action: 'no_action' } } }] },
        }),
      }),
    );
    await gw.addApi(apiDefinition('load', '/load/', load.url));
  });
  after(async () => {
    await gw.stop();
    await load.close();
  });
  beforeEach(() => {
    gw.upstream.received.length = 0;
    load.received.length = 0;
  });

  const cases: Array<[string, string]> = [
    ['/load/../fuzz/x', '/x'],
    ['/load/%2e%2e/fuzz/x', '/x'],
    ['/load/%2E%2E/fuzz/x', '/x'],
    ['/load/.%2e/fuzz/x?q=/../a', '/x?q=/../a'],
    ['/fuzz/a/./b', '/a/b'],
    ['/fuzz/a/%2e/b/', '/a/b/'],
    ['/fuzz/a/b/..', '/a'],
    ['/fuzz/a%2Fb/../%41c', '/Ac'],
    ['/../../fuzz/y', '/y'],
    ['//fuzz//z', '/z'],
  ];
  for (const [sent, forwarded] of cases) {
    it(`${sent} reaches the /fuzz/ upstream as ${forwarded}; /load/ receives nothing`, async () => {
      const res = await rawGet(gw.node.gatewayUrl, sent);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(
        gw.upstream.received.map((r) => r.url),
        [forwarded],
      );
      assert.equal(load.received.length, 0);
    });
  }

  it('applies the endpoint rules to the resolved path: /fuzz/public/../admin is blocked', async () => {
    for (const path of ['/fuzz/public/../admin', '/fuzz/public/%2e%2e/admin']) {
      const res = await rawGet(gw.node.gatewayUrl, path);
      assert.equal(res.status, 403, `${path}: ${res.body}`);
    }
    assert.equal(gw.upstream.received.length, 0);
  });

  it('keeps .. above the root at the root: /fuzz/../../x is /x, which no API serves', async () => {
    const res = await rawGet(gw.node.gatewayUrl, '/fuzz/../../x');
    assert.equal(res.status, 404);
    assert.equal(gw.upstream.received.length + load.received.length, 0);
  });

  it('leaves paths with dots that are not dot segments as they are', async () => {
    const res = await rawGet(gw.node.gatewayUrl, '/fuzz/file.json/..x/.well-known?a=..');
    assert.equal(res.status, 200);
    assert.deepEqual(
      gw.upstream.received.map((r) => r.url),
      ['/file.json/..x/.well-known?a=..'],
    );
  });
});

describe('proxy: percent-encoded unreserved characters are decoded before routing and endpoint rules', () => {
  let gw: GatewayFixture;

  before(async () => {
    gw = await startGatewayFixture();
    await gw.addApi(
      apiDefinition('enc', '/enc/', gw.upstream.url, {
        version_data: singleVersion({
          ignore_endpoint_case: true,
          use_extended_paths: true,
          extended_paths: {
            black_list: [
              { path: '/admin', method_actions: { GET: { action: 'no_action' } } },
              { path: '/vault/keys', method_actions: { GET: { action: 'no_action' } } },
            ],
          },
        }),
      }),
    );
    await gw.addApi(
      apiDefinition('open', '/open/', gw.upstream.url, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: { white_list: [{ path: '/items/{id}', method_actions: { GET: { action: 'no_action' } } }] },
        }),
      }),
    );
  });
  after(() => gw.stop());
  beforeEach(() => {
    gw.upstream.received.length = 0;
  });

  for (const path of [
    '/enc/%61dmin',
    '/enc/%41dmin',
    '/enc/%61%64%6D%69%6E/users',
    '/%65nc/admin',
    '/enc/vault%2Fkeys',
    '/enc/x%2F..%2Fadmin',
  ]) {
    it(`blocks ${path} like the path it stands for`, async () => {
      const res = await rawGet(gw.node.gatewayUrl, path);
      assert.equal(res.status, 403, res.body);
      assert.equal(gw.upstream.received.length, 0);
    });
  }

  it('refuses a %2F path whose decoded reading leaves the white list', async () => {
    const res = await rawGet(gw.node.gatewayUrl, '/open/items/x%2F..%2F..%2Fsecret');
    assert.equal(res.status, 403, res.body);
    assert.equal(gw.upstream.received.length, 0);
  });

  it('forwards the normalised path upstream, keeping reserved and other escapes', async () => {
    const sent: Array<[string, string]> = [
      ['/enc/%7Euser/%2D%2e%5F%7e?x=%41', '/~user/-._~?x=%41'],
      ['/enc/a%20b/%2Fc%2f/%25/%3F', '/a%20b/%2Fc%2f/%25/%3F'],
      ['/open/items/a%2Fb', '/items/a%2Fb'],
    ];
    for (const [path] of sent) {
      const res = await rawGet(gw.node.gatewayUrl, path);
      assert.equal(res.status, 200, `${path}: ${res.body}`);
    }
    assert.deepEqual(
      gw.upstream.received.map((r) => r.url),
      sent.map(([, forwarded]) => forwarded),
    );
  });
});
