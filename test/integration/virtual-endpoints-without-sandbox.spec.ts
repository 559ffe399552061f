import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildNode, type ChildNode } from '../support/child';
import { apiDefinition, singleVersion } from '../support/gateway-fixture';
import { http } from '../support/http';
import { removeDir } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const SECRET = 'no-sandbox-secret';
const blob = (text: string) => Buffer.from(text).toString('base64');
const source = blob('function hello() { return TykJsResponse({ Code: 200, Body: "hello" }, {}); }');

/** isolated-vm is an optional dependency: a gateway where it does not load serves all else. */
describe('virtual endpoints without isolated-vm', function () {
  this.timeout(60_000);
  let dir: string;
  let upstream: Upstream;
  let node: ChildNode;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-no-sandbox-'));
    upstream = await startUpstream();
    node = await startChildNode({
      NODE_OPTIONS: `--require ${join(__dirname, '../support/processes/without-isolated-vm.js')}`,
      GW_SECRET: SECRET,
      GW_GATEWAY_PORT: '0',
      GW_DASHBOARD_PORT: '0',
      GW_DATA_DIR: dir,
      GW_APPS_DIR: join(dir, 'apps'),
      GW_DATABASE_URL: `sqlite:${join(dir, 'gw.sqlite')}`,
    });
    const virtual = (path: string, extra: Record<string, unknown> = {}) => ({
      path,
      method: 'GET',
      response_function_name: 'hello',
      function_source_type: 'blob',
      function_source_uri: source,
      ...extra,
    });
    const definition = apiDefinition('virt', '/virt', upstream.url, {
      version_data: singleVersion({
        use_extended_paths: true,
        extended_paths: { virtual: [virtual('/hello'), virtual('/fallback', { proxy_on_error: true })] },
      }),
    });
    const created = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: { 'x-gw-authorization': SECRET },
      body: definition,
    });
    assert.equal(created.status, 200, created.text);
  });
  after(async () => {
    await node?.kill();
    await upstream?.close();
    removeDir(dir);
  });

  it('answers a virtual endpoint 500 saying the sandbox is not installed', async () => {
    const res = await http(`${node.gatewayUrl}/virt/hello`);
    assert.equal(res.status, 500);
    assert.deepEqual(res.json, {
      error: 'Virtual endpoints are not available on this gateway (isolated-vm is not installed)',
    });
    assert.equal(upstream.received.length, 0);
  });

  it('goes upstream with proxy_on_error, and proxies the API’s other paths', async () => {
    assert.equal((await http(`${node.gatewayUrl}/virt/fallback`)).status, 200);
    assert.equal((await http(`${node.gatewayUrl}/virt/other`)).status, 200);
    assert.deepEqual(
      upstream.received.map((r) => r.url),
      ['/fallback', '/other'],
    );
  });
});
