import { strict as assert } from 'node:assert';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const blob = (text: string) => Buffer.from(text).toString('base64');

function virtual(
  path: string,
  name: string,
  source: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    path,
    method: 'GET',
    response_function_name: name,
    function_source_type: 'blob',
    function_source_uri: blob(source),
    ...extra,
  };
}

/** extended_paths.virtual: tenant JavaScript in an isolate, with limits, answering endpoints. */
describe('virtual endpoints', function () {
  this.timeout(30_000);
  let gw: GatewayFixture;

  before(async () => {
    gw = await startGatewayFixture();
    await gw.addApi(
      apiDefinition('virt', '/virt', gw.upstream.url, {
        config_data: { greeting: 'hello' },
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            virtual: [
              virtual(
                '/hello',
                'sayHello',
                `function sayHello(request, session, config) {
                   return TykJsResponse({ Code: 201, Headers: { 'X-Virtual': 'yes' }, Body: JSON.stringify({ msg: config.config_data.greeting, who: request.Params.name[0], method: request.Method }) }, session.meta_data);
                 }`,
              ),
              virtual(
                '/fetch',
                'fetchIt',
                `function fetchIt(request) {
                   var res = JSON.parse(TykMakeHttpRequest(JSON.stringify({ Method: 'GET', Domain: '${gw.upstream.url}', Resource: '/from-virtual' })));
                   return TykJsResponse({ Code: 200, Body: 'upstream said ' + res.Code + ' ' + JSON.parse(res.Body).url }, {});
                 }`,
              ),
              virtual(
                '/metadata',
                'steal',
                `function steal() {
                   var res = JSON.parse(TykMakeHttpRequest(JSON.stringify({ Method: 'GET', Domain: 'http://169.254.169.254', Resource: '/latest/meta-data/' })));
                   return TykJsResponse({ Code: 200, Body: JSON.stringify(res) }, {});
                 }`,
              ),
              virtual(
                '/escape',
                'escape',
                `function escape() { return TykJsResponse({ Code: 200, Body: String(process.env.HOME) }, {}); }`,
              ),
              virtual(
                '/require',
                'needs',
                `function needs() { return TykJsResponse({ Code: 200, Body: typeof require('fs') }, {}); }`,
              ),
              virtual('/forever', 'spin', `function spin() { for (;;) {} }`),
              virtual('/hog', 'hog', `function hog() { var a = []; for (;;) a.push(new Array(1e5).fill(1)); }`),
              virtual('/fallback', 'broken', `function broken() { throw new Error('nope'); }`, {
                proxy_on_error: true,
              }),
              virtual(
                '/many-headers',
                'many',
                `function many() {
                   var headers = {};
                   for (var i = 0; i < 100000; i++) headers['x-h' + i] = 'v';
                   return TykJsResponse({ Code: 200, Headers: headers, Body: 'many' }, {});
                 }`,
              ),
              virtual(
                '/long-headers',
                'long',
                `function long() {
                   var headers = {};
                   for (var i = 0; i < 20; i++) headers['x-h' + i] = 'v'.repeat(1000);
                   return TykJsResponse({ Code: 200, Headers: headers, Body: 'long' }, {});
                 }`,
              ),
              virtual(
                '/big-body',
                'big',
                `function big() {
                   return TykJsResponse({ Code: 200, Body: 'x'.repeat(10 * 1024 * 1024 + 1) }, {});
                 }`,
              ),
              virtual(
                '/big-json',
                'bigJson',
                `function bigJson() {
                   return TykJsResponse({ Code: 200, Body: { a: 'x'.repeat(10 * 1024 * 1024) } }, {});
                 }`,
              ),
              virtual(
                '/fits',
                'fits',
                `function fits() {
                   var headers = {};
                   for (var i = 0; i < 100; i++) headers['x-h' + i] = String(i);
                   return TykJsResponse({ Code: 202, Headers: headers, Body: { ok: true } }, {});
                 }`,
              ),
            ],
          },
        }),
      }),
    );
  });
  after(() => gw.stop());

  it('answers with the function’s code, headers and body; the upstream is not called', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/virt/hello?name=ada');
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('x-virtual'), 'yes');
    assert.deepEqual(res.json, { msg: 'hello', who: 'ada', method: 'GET' });
    assert.equal(gw.upstream.received.length, before);
  });

  it('the HTTP helper reaches a real upstream', async () => {
    const res = await gw.call('/virt/fetch');
    assert.equal(res.text, 'upstream said 200 /from-virtual');
  });

  it('the HTTP helper never reaches a cloud metadata address: the call fails with Code 0 and an error', async () => {
    const res = await gw.call('/virt/metadata');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.Code, 0);
    assert.match(res.json.Error, /link-local, cloud-metadata or multicast address/);
  });

  it("the HTTP helper never reaches this node's own ports (gateway, dashboard), by IP or by name; other loopback ports stay reachable", async () => {
    const caller = (name: string, domain: string, resource: string) =>
      virtual(
        `/${name}`,
        name,
        `function ${name}() {
           var res = JSON.parse(TykMakeHttpRequest(JSON.stringify({ Method: 'GET', Domain: '${domain}', Resource: '${resource}', Headers: { 'x-gw-authorization': 'guess' } })));
           return TykJsResponse({ Code: 200, Body: JSON.stringify(res) }, {});
         }`,
      );
    const upstreamPort = new URL(gw.upstream.url).port;
    await gw.addApi(
      apiDefinition('virt-own', '/virt-own', gw.upstream.url, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            virtual: [
              caller('gateway', gw.node.gatewayUrl, '/gw/apis'),
              caller('dashboard', gw.node.dashboardUrl, '/api/apis'),
              caller('byname', `http://localhost:${new URL(gw.node.gatewayUrl).port}`, '/gw/apis'),
              caller('upstream', `http://localhost:${upstreamPort}`, '/still-allowed'),
            ],
          },
        }),
      }),
    );
    const before = gw.upstream.received.length;
    for (const name of ['gateway', 'dashboard', 'byname']) {
      const res = await gw.call(`/virt-own/${name}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.Code, 0, `${name}: ${res.text}`);
      assert.match(res.json.Error, /is a port of this gw node/, name);
    }
    const allowed = await gw.call('/virt-own/upstream');
    assert.equal(allowed.json.Code, 200, allowed.text);
    assert.equal(gw.upstream.received.length, before + 1);
    assert.equal(gw.upstream.received.at(-1)!.url, '/still-allowed');
  });

  it('code that reaches for process or require fails with 500, and the gateway keeps serving', async () => {
    assert.equal((await gw.call('/virt/escape')).status, 500);
    assert.equal((await gw.call('/virt/require')).status, 500);
    assert.equal((await gw.call('/virt/hello?name=b')).status, 201);
  });

  it('an endless loop is stopped after the time limit (500), and the same endpoint set keeps working', async () => {
    const started = Date.now();
    const res = await gw.call('/virt/forever');
    assert.equal(res.status, 500);
    assert.ok(Date.now() - started < 5000);
    assert.equal((await gw.call('/virt/other')).status, 200, 'plain endpoints still proxied');
    assert.equal((await gw.call('/virt/hello?name=c')).status, 201);
  });

  it('code that exhausts its memory is stopped (500); the isolate is made again for the next call', async () => {
    assert.equal((await gw.call('/virt/hog')).status, 500);
    assert.equal((await gw.call('/virt/hello?name=d')).json.who, 'd');
  });

  describe('what an answer may carry back out of the isolate', () => {
    /** the longest the gateway's own thread was held while `work` ran */
    async function longestStall(work: () => Promise<void>): Promise<number> {
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      try {
        await work();
      } finally {
        delay.disable();
      }
      return delay.max / 1e6;
    }

    const refused = (res: { status: number; json: unknown; headers: Headers }, message: string) => {
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, { error: message });
      assert.equal(res.headers.get('x-generator'), 'gw');
    };

    it('100,000 headers: 500 naming the limit, without holding the gateway thread', async () => {
      let res!: Awaited<ReturnType<GatewayFixture['call']>>;
      const started = performance.now();
      const stall = await longestStall(async () => {
        res = await gw.call('/virt/many-headers');
      });
      refused(res, 'Virtual endpoint response exceeds the limit of 100 headers');
      assert.ok(stall < 100, `the gateway thread was held ${stall.toFixed(0)} ms`);
      assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
    });

    it('headers over 16 KB together: 500 naming the limit', async () => {
      const message = 'Virtual endpoint response exceeds the limit of 16384 header bytes';
      refused(await gw.call('/virt/long-headers'), message);
    });

    it('a body over 10 MiB, as a string or as a document: 500 naming the limit', async () => {
      const message = 'Virtual endpoint response exceeds the limit of 10485760 body bytes';
      refused(await gw.call('/virt/big-body'), message);
      refused(await gw.call('/virt/big-json'), message);
    });

    it('an answer within the limits is sent whole', async () => {
      const res = await gw.call('/virt/fits');
      assert.equal(res.status, 202);
      assert.deepEqual(res.json, { ok: true });
      assert.equal(res.headers.get('x-h0'), '0');
      assert.equal(res.headers.get('x-h99'), '99');
    });
  });

  it('proxy_on_error sends the request upstream when the function fails', async () => {
    const res = await gw.call('/virt/fallback');
    assert.equal(res.status, 200);
    assert.equal(gw.upstream.received.at(-1)!.url, '/fallback');
  });
});
