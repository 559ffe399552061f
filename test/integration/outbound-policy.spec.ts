import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { apiDefinition } from '../support/gateway-fixture';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STREAMS_TYPE, streamsDocument } from '../support/stream-apis';
import { startUpstream, type Upstream } from '../support/upstream';

const PRIVATE = 'a loopback or private-network address, which gw does not call';

type Options = { method?: string; body?: unknown; headers?: Record<string, string> };

/** The status a WebSocket upgrade through the gateway gets, when it is not switched. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('error', reject);
  });
}

/** A data directory whose apps folder holds `definitions`, loaded by the gateway at start. */
function appsFolder(definitions: Array<Record<string, unknown>>): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-test-'));
  mkdirSync(join(dataDir, 'apps'));
  for (const definition of definitions) {
    writeFileSync(join(dataDir, 'apps', `${String(definition.api_id)}.json`), JSON.stringify(definition));
  }
  return dataDir;
}

describe('outbound policy: GW_OUTBOUND_POLICY=deny-private', function () {
  this.timeout(30_000);

  describe('without an allow list', () => {
    let node: TestNode;
    let tenant: Tenant;
    let upstream: Upstream;
    let wsServer: Server;
    let wsConnections = 0;
    const api = (path: string, options: Options = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });

    before(async () => {
      upstream = await startUpstream();
      wsServer = createServer((_req, res) => res.end('plain http'));
      new WebSocketServer({ server: wsServer }).on('connection', (socket) => socket.send('welcome'));
      wsServer.on('connection', () => wsConnections++);
      const wsPort = await listen(wsServer, 0, '127.0.0.1');
      // Definitions an operator placed in the apps folder reach the gateway without being saved
      // through the API (as do those saved before the policy was turned on): the connection decides.
      const dataDir = appsFolder([
        apiDefinition('loopback', '/loopback', upstream.url),
        apiDefinition('ws-loopback', '/ws-loopback', `http://127.0.0.1:${wsPort}`),
        apiDefinition('ws-localhost', '/ws-localhost', `http://localhost:${wsPort}`),
      ]);
      node = await startTestNode({ dataDir, outboundPolicy: 'deny-private' });
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Outbound');
    });
    after(async () => {
      await node?.stop();
      await upstream?.close();
      if (wsServer) await close(wsServer);
      if (node) removeDir(node.dataDir);
    });

    const RESOLVES_TO_LOOPBACK =
      /^proxy\.target_url: 'http:\/\/localhost:8000\/' names localhost, which resolves to (127\.0\.0\.1|::1), a loopback or private-network address, which gw does not call$/;
    const targets: Array<[string, string, string | RegExp]> = [
      ['a loopback address', 'http://127.0.0.1:8000/', `proxy.target_url: 'http://127.0.0.1:8000/' names ${PRIVATE}`],
      ['a private address', 'http://10.0.0.1/', `proxy.target_url: 'http://10.0.0.1/' names ${PRIVATE}`],
      [
        'a mapped loopback address',
        'http://[::ffff:127.0.0.1]/',
        `proxy.target_url: 'http://[::ffff:127.0.0.1]/' names ${PRIVATE}`,
      ],
      ['a name that resolves to loopback', 'http://localhost:8000/', RESOLVES_TO_LOOPBACK],
    ];
    targets.forEach(([what, target, message], i) => {
      it(`refuses an API whose target is ${what} when it is saved: 400 naming the field`, async () => {
        const res = await api('/apis', { method: 'POST', body: keylessApi(`target ${i}`, `/target-${i}/`, target) });
        assert.equal(res.status, 400, res.text);
        if (typeof message === 'string') assert.equal(res.json.Message, message);
        else assert.match(res.json.Message, message);
      });
    });

    it('refuses an uptime check URL on a private address when the API is saved', async () => {
      const uptime = { uptime_tests: { check_list: [{ url: 'http://192.168.1.1/health' }] } };
      const res = await api('/apis', {
        method: 'POST',
        body: keylessApi('uptime', '/uptime/', 'http://192.0.2.10/', uptime),
      });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.Message, `uptime_tests.check_list[0].url: 'http://192.168.1.1/health' names ${PRIVATE}`);
    });

    const tokenKeyPlaces: Array<[string, Record<string, unknown>, string]> = [
      [
        'a jwt_source JWKS URL',
        { enable_jwt: true, jwt_source: 'http://10.0.0.5/jwks.json' },
        `jwt_source: 'http://10.0.0.5/jwks.json' names ${PRIVATE}`,
      ],
      [
        'a jwt_source that is the base64 of a JWKS URL',
        { enable_jwt: true, jwt_source: Buffer.from('http://127.0.0.1:9000/jwks').toString('base64') },
        `jwt_source (base64 of a URL): 'http://127.0.0.1:9000/jwks' names ${PRIVATE}`,
      ],
      [
        'a jwt_jwks_uris entry',
        { enable_jwt: true, jwt_jwks_uris: [{ url: 'https://192.168.0.9/keys', cache_timeout: 60 }] },
        `jwt_jwks_uris[0].url: 'https://192.168.0.9/keys' names ${PRIVATE}`,
      ],
      [
        'an OpenID Connect issuer',
        {
          use_openid: true,
          openid_options: { providers: [{ issuer: 'http://[::1]:8080/realm', client_ids: {} }] },
        },
        `openid_options.providers[0].issuer: 'http://[::1]:8080/realm' names ${PRIVATE}`,
      ],
    ];
    tokenKeyPlaces.forEach(([what, settings, message], i) => {
      it(`refuses ${what} on a private address when the API is saved: 400 naming the field`, async () => {
        const body = keylessApi(`token keys ${i}`, `/token-keys-${i}/`, 'http://192.0.2.10/', {
          use_keyless: false,
          ...settings,
        });
        const res = await api('/apis', { method: 'POST', body });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.Message, message);
      });
    });

    it('accepts JWKS URLs and issuers on public addresses', async () => {
      const body = keylessApi('token keys public', '/token-keys-public/', 'http://192.0.2.10/', {
        use_keyless: false,
        enable_jwt: true,
        jwt_source: 'https://192.0.2.20/jwks.json',
        jwt_jwks_uris: [{ url: 'https://192.0.2.21/keys', cache_timeout: 60 }],
        openid_options: { providers: [{ issuer: 'https://192.0.2.22/', client_ids: {} }] },
      });
      const res = await api('/apis', { method: 'POST', body });
      assert.equal(res.status, 200, res.text);
    });

    it('refuses on connection a definition that reached the gateway unsaved (apps folder): 502, upstream never called', async () => {
      const res = await http(`${node.gatewayUrl}/loopback/x`);
      assert.equal(res.status, 502);
      assert.deepEqual(res.json, { error: 'There was a problem proxying the request' });
      assert.equal(upstream.received.length, 0);
    });

    it('answers a WebSocket upgrade to a refused address (literal or name) with 502, attempting no connection', async () => {
      const base = node.gatewayUrl.replace('http', 'ws');
      assert.equal(await upgradeStatus(`${base}/ws-loopback/chat`), 502);
      assert.equal(await upgradeStatus(`${base}/ws-localhost/chat`), 502);
      assert.equal(wsConnections, 0);
    });

    it('refuses a webhook to a private address when it is saved', async () => {
      const hook = {
        name: 'Inside',
        method: 'POST',
        target_path: 'http://10.1.2.3/hook',
        header_map: {},
        event_timeout: 0,
      };
      const res = await api('/hooks', { method: 'POST', body: hook });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.Message, `target_path: 'http://10.1.2.3/hook' names ${PRIVATE}`);
    });

    it('refuses a stream whose http_client output is a private address when it is saved', async () => {
      const stream = { input: { http_server: {} }, output: { http_client: { url: 'http://172.16.0.9/sink' } } };
      const document = streamsDocument('Private out', '/private-out/', { out: stream });
      (document['x-gw-api-gateway'] as { upstream: { url: string } }).upstream.url = 'http://192.0.2.10';
      const res = await api('/apis/streams', { method: 'POST', body: JSON.stringify(document), headers: STREAMS_TYPE });
      assert.equal(res.status, 400, res.text);
      assert.match(
        res.json.Message,
        /\/x-gw-streaming\/streams\/out\/output\/http_client\/url: may not point at a loopback or private-network address/,
      );
    });

    it('refuses a data-source import from a private address, fetching nothing', async () => {
      const url = `${upstream.url}/openapi.yaml`;
      const res = await api('/data-graphs/data-sources/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      assert.equal(res.status, 400, res.text);
      const refusal =
        '127.0.0.1 is a loopback or private-network address; the management server does not fetch from such addresses';
      assert.equal(res.json.Message, `The document URL ${url} is refused: ${refusal}`);
      assert.equal(upstream.received.length, 0);
    });
  });

  describe('with GW_OUTBOUND_ALLOW=127.0.0.1/32', () => {
    let node: TestNode;
    let tenant: Tenant;
    let upstream: Upstream;
    const save = (body: unknown) =>
      http(`${node.dashboardUrl}/api/apis`, { method: 'POST', headers: tenant.headers, body });

    before(async () => {
      upstream = await startUpstream();
      node = await startTestNode({ outboundPolicy: 'deny-private', outboundAllow: ['127.0.0.1/32'] });
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Allowed');
    });
    after(async () => {
      await node?.stop();
      await upstream?.close();
      if (node) removeDir(node.dataDir);
    });

    it('saves and proxies to an allow-listed address, and still refuses the rest of loopback', async () => {
      const saved = await save(keylessApi('allowed', '/allowed/', upstream.url));
      assert.equal(saved.status, 200, saved.text);
      const other = await save(keylessApi('other', '/other/', 'http://127.0.0.2/'));
      assert.equal(other.status, 400);
      assert.equal(other.json.Message, `proxy.target_url: 'http://127.0.0.2/' names ${PRIVATE}`);
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/allowed/hello`)).status, 200), 5000);
      assert.equal(upstream.received[0]?.url, '/hello');
    });
  });
});
