import { strict as assert } from 'node:assert';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/** A keyless classic definition, never saved: what a caller sends as `spec`. */
function classicSpec(apiId: string, listenPath: string, target: string, extra: Record<string, unknown> = {}) {
  return {
    api_id: apiId,
    name: `Debug ${apiId}`,
    org_id: 'org-debug',
    use_keyless: true,
    proxy: { listen_path: listenPath, target_url: target, strip_listen_path: true },
    version_data: { not_versioned: true, versions: { Default: { name: 'Default' } } },
    ...extra,
  };
}

/** The log lines of a trace, parsed. */
const logLines = (logs: string) =>
  logs
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('gateway API: POST /gw/debug (swagger.yml debugApiDefinition)', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  const debug = (body: unknown) =>
    http(`${node.gatewayUrl}/gw/debug`, { method: 'POST', body, headers: node.gwHeaders });

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('runs the request through a classic definition to the upstream and answers the exchange and the log, saving nothing', async () => {
    const res = await debug({
      // a stated length that is not the body's is left to the exchange, which frames the body itself
      request: {
        method: 'POST',
        path: '/anything?x=1',
        headers: { 'X-Debug': ['yes'], 'Content-Length': ['100'] },
        body: 'hello',
      },
      spec: classicSpec('debug-classic', '/debug-classic/', upstream.url),
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.json).sort(), ['logs', 'message', 'response']);
    assert.equal(res.json.message, 'ok');

    const received = upstream.received.at(-1)!;
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/anything?x=1', 'the listen path is stripped as for a served API');
    assert.equal(received.headers['x-debug'], 'yes');
    assert.equal(received.body, 'hello');

    const [request, response] = res.json.response.split('\n====== Response ======\n');
    assert.equal(
      request,
      '====== Request ======\nPOST /debug-classic/anything?x=1 HTTP/1.1\r\nX-Debug: yes\r\n\r\nhello',
    );
    assert.match(response, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(response, /\r\nX-Upstream: yes\r\n/);
    assert.deepEqual(JSON.parse(response.split('\r\n\r\n')[1]), {
      method: 'POST',
      url: '/anything?x=1',
      body: 'hello',
    });

    const lines = logLines(res.json.logs);
    assert.deepEqual(lines.at(0), { ...lines.at(0), type: 'request', api_id: 'debug-classic' });
    assert.deepEqual(lines.at(-1), { ...lines.at(-1), type: 'response', code: 200, api_id: 'debug-classic' });
    const steps = lines.filter((line) => line.mw !== undefined);
    assert.ok(
      steps.some((line) => line.mw === 'version' && line.msg === 'Started'),
      'each step of the chain is logged as it starts',
    );
    assert.deepEqual(
      steps.filter((line) => line.msg === 'Answered').map((line) => [line.mw, line.code]),
      [['upstream', 200]],
      'the step that answered is logged with the status',
    );

    assert.equal((await http(`${node.gatewayUrl}/gw/apis/debug-classic`, { headers: node.gwHeaders })).status, 404);
    assert.equal((await http(`${node.gatewayUrl}/debug-classic/anything`)).status, 404, 'the definition is not served');
  });

  it('runs an OAS definition, its chain included: an unauthenticated request is refused before the upstream', async () => {
    const before = upstream.received.length;
    const oas = {
      openapi: '3.0.3',
      info: { title: 'Debug OAS', version: '1' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
      security: [{ token: [] }],
      paths: { '/get': { get: { operationId: 'get', responses: { '200': { description: 'ok' } } } } },
      'x-gw-api-gateway': {
        info: { id: 'debug-oas', name: 'Debug OAS', state: { active: true } },
        upstream: { url: upstream.url },
        server: {
          listenPath: { value: '/debug-oas/', strip: true },
          authentication: { enabled: true, securitySchemes: { token: { enabled: true } } },
        },
      },
    };
    const res = await debug({ request: { method: 'GET', path: '/get' }, oas });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.message, 'ok');
    assert.match(res.json.response, /\n====== Response ======\nHTTP\/1\.1 401 Unauthorized\r\n/);
    assert.equal(upstream.received.length, before, 'the upstream was not called');
    assert.deepEqual(logLines(res.json.logs).at(-1), {
      ...logLines(res.json.logs).at(-1),
      type: 'response',
      code: 401,
    });
    assert.deepEqual(
      logLines(res.json.logs)
        .filter((line) => line.msg === 'Answered')
        .map((line) => [line.mw, line.code]),
      [['authentication', 401]],
      'the log says which step refused',
    );
  });

  it('answers 400 {message: error, logs} for a definition that can not be served', async () => {
    const res = await debug({
      request: { method: 'GET', path: '/' },
      spec: classicSpec('debug-broken', '/debug-broken/', 'not a url'),
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.message, 'error');
    assert.equal(res.json.response, '');
    const [line] = logLines(res.json.logs);
    assert.equal(line.level, 'error');
    assert.match(String(line.msg), /^the definition can not be served: /);
  });

  it("refuses what is not a trace request with the reference's messages", async () => {
    const cases: Array<[unknown, string]> = [
      ['{not json', 'Request malformed'],
      [{ request: { method: 'GET', path: '/' } }, 'Spec field is missing'],
      [{ spec: classicSpec('x', '/x/', upstream.url) }, 'Request field is missing'],
      [
        { request: { path: '/', headers: { 'Bad Header': ['x'] } }, spec: classicSpec('x', '/x/', upstream.url) },
        'Request malformed: request.headers.Bad Header is not a valid header',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await debug(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(res.json, { status: 'error', message });
    }
    const forbidden = await http(`${node.gatewayUrl}/gw/debug`, { method: 'POST', body: {} });
    assert.equal(forbidden.status, 403);
  });
});

describe('gateway API: POST /gw/debug under GW_OUTBOUND_POLICY=deny-private', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({ outboundPolicy: 'deny-private' });
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('refuses a private upstream as for any tenant API: the run answers 502 and the upstream is never called', async () => {
    const res = await http(`${node.gatewayUrl}/gw/debug`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: { request: { method: 'GET', path: '/x' }, spec: classicSpec('private', '/private/', upstream.url) },
    });
    assert.equal(res.status, 200, res.text);
    assert.match(res.json.response, /\n====== Response ======\nHTTP\/1\.1 502 Bad Gateway\r\n/);
    assert.match(res.json.response, /There was a problem proxying the request/);
    assert.equal(upstream.received.length, 0);
  });
});
