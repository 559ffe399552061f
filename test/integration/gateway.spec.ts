import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const FORBIDDEN = { status: 'error', message: 'Attempted administrative access with invalid or missing key!' };

describe('gateway port: /gw management API and keyless proxying', () => {
  let node: TestNode;
  let upstream: Upstream;
  let other: Upstream;
  let tenant: Tenant;
  const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const served = async (path: string, status = 200) => {
    const res = await http(`${node.gatewayUrl}${path}`);
    assert.equal(res.status, status, `${path}: ${res.text}`);
    return res;
  };

  before(async () => {
    upstream = await startUpstream();
    other = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    await other.close();
    removeDir(node.dataDir);
  });

  describe('gateway secret', () => {
    for (const [what, headers] of [
      ['missing', {}],
      ['wrong', { 'x-gw-authorization': 'guess' }],
    ] as const) {
      it(`refuses a ${what} x-gw-authorization with 403`, async () => {
        const res = await http(`${node.gatewayUrl}/gw/apis`, { headers });
        assert.equal(res.status, 403);
        assert.deepEqual(res.json, FORBIDDEN);
      });
    }
  });

  describe('API lifecycle through /gw/apis', () => {
    let apiId: string;

    it('adds a keyless API with a generated id and serves it at once', async () => {
      const res = await gw('/apis', {
        method: 'POST',
        body: keylessApi('Echo', '/echo/', upstream.url).api_definition,
      });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'ok');
      assert.equal(res.json.action, 'added');
      assert.match(res.json.key, /^[0-9a-f]{32}$/);
      apiId = res.json.key;

      const proxied = await eventually(() => served('/echo/items/42?color=blue&size=%20L'));
      assert.deepEqual(proxied.json, { method: 'GET', url: '/items/42?color=blue&size=%20L', body: '' });
      assert.equal(proxied.headers.get('x-upstream'), 'yes');
    });

    it('passes the method, body and headers through and returns the upstream status, headers and body', async () => {
      upstream.respondWith((req, res) => {
        res.writeHead(201, { 'content-type': 'text/plain', 'x-created-by': 'upstream' });
        res.end(`created from ${req.method} ${req.body}`);
      });
      try {
        const res = await http(`${node.gatewayUrl}/echo/items`, {
          method: 'POST',
          headers: { 'x-client': 'abc', 'content-type': 'application/json' },
          body: '{"n":1}',
        });
        assert.equal(res.status, 201);
        assert.equal(res.text, 'created from POST {"n":1}');
        assert.equal(res.headers.get('x-created-by'), 'upstream');
        const received = upstream.received.at(-1)!;
        assert.equal(received.url, '/items');
        assert.equal(received.headers['x-client'], 'abc');
        assert.equal(received.headers.host, `127.0.0.1:${upstream.port}`, "Host is the target's");
        assert.equal(received.headers['x-forwarded-for'], '127.0.0.1');
        assert.equal(received.headers['x-forwarded-host'], new URL(node.gatewayUrl).host);
      } finally {
        upstream.respondWith((req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
          res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body }));
        });
      }
    });

    it('lists and reads loaded definitions', async () => {
      const list = await gw('/apis');
      assert.equal(list.status, 200);
      assert.ok(list.json.some((def: { api_id: string }) => def.api_id === apiId));
      const one = await gw(`/apis/${apiId}`);
      assert.equal(one.json.name, 'Echo');
      assert.equal(one.json.proxy.listen_path, '/echo/');
      const missing = await gw('/apis/does-not-exist');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json, { status: 'error', message: 'API not found' });
    });

    it('modifies the API and serves the new target', async () => {
      const res = await gw(`/apis/${apiId}`, {
        method: 'PUT',
        body: { ...keylessApi('Echo', '/echo/', `${other.url}/base`).api_definition, api_id: apiId },
      });
      assert.deepEqual(res.json, { key: apiId, status: 'ok', action: 'modified' });
      await eventually(async () => {
        const proxied = await served('/echo/x');
        assert.equal(proxied.json.url, '/base/x');
      });
    });

    it('refuses an update whose body names another api_id', async () => {
      const res = await gw(`/apis/${apiId}`, {
        method: 'PUT',
        body: { ...keylessApi('Echo', '/echo/', upstream.url).api_definition, api_id: 'other' },
      });
      assert.equal(res.status, 400);
      assert.equal(res.json.status, 'error');
      assert.match(res.json.message, /does not match/);
    });

    it('deletes the API and the path answers 404', async () => {
      const res = await gw(`/apis/${apiId}`, { method: 'DELETE' });
      assert.deepEqual(res.json, { key: apiId, status: 'ok', action: 'deleted' });
      const gone = await eventually(() => served('/echo/x', 404));
      assert.deepEqual(gone.json, { error: 'Not Found' });
      assert.equal(gone.headers.get('x-generator'), 'gw');
      assert.equal((await gw(`/apis/${apiId}`, { method: 'DELETE' })).status, 404);
    });

    it('keeps a client-chosen api_id and refuses it twice', async () => {
      const body = { ...keylessApi('Named', '/named', upstream.url).api_definition, api_id: 'named-api' };
      assert.deepEqual((await gw('/apis', { method: 'POST', body })).json, {
        key: 'named-api',
        status: 'ok',
        action: 'added',
      });
      const again = await gw('/apis', {
        method: 'POST',
        body: { ...body, proxy: { ...body.proxy, listen_path: '/named-2' } },
      });
      assert.equal(again.status, 400);
      assert.deepEqual(again.json, { status: 'error', message: 'API with this ID already exists: named-api' });
    });

    it('refuses malformed definitions with a clear message', async () => {
      const malformed = await gw('/apis', { method: 'POST', body: '{nope' });
      assert.equal(malformed.status, 400);
      assert.match(malformed.json.message, /^Malformed JSON in request body/);
      const invalid = await gw('/apis', { method: 'POST', body: { name: 'No proxy' } });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.json.message, "Request validation failed: The 'api_definition.proxy' field is required.");
    });
  });

  describe('APIs created on the dashboard', () => {
    it('serves a keyless API within a second and stops when it is deactivated or deleted', async () => {
      const created = await dashboard('/apis', { method: 'POST', body: keylessApi('Shop', '/shop', upstream.url) });
      const id = created.json.Meta;
      await eventually(async () => assert.equal((await served('/shop/cart')).json.url, '/cart'));

      const record = (await dashboard(`/apis/${id}`)).json;
      record.api_definition.active = false;
      assert.equal((await dashboard(`/apis/${id}`, { method: 'PUT', body: record })).status, 200);
      await eventually(() => served('/shop/cart', 404));

      record.api_definition.active = true;
      record.api_definition.proxy.strip_listen_path = false;
      await dashboard(`/apis/${id}`, { method: 'PUT', body: record });
      await eventually(async () => assert.equal((await served('/shop/cart?x=1')).json.url, '/shop/cart?x=1'));

      await dashboard(`/apis/${id}`, { method: 'DELETE' });
      await eventually(() => served('/shop/cart', 404));
    });

    it('routes to the longest listen path and only on whole segments', async () => {
      await dashboard('/apis', { method: 'POST', body: keylessApi('Outer', '/nest', upstream.url) });
      await dashboard('/apis', {
        method: 'POST',
        body: keylessApi('Inner', '/nest/inner', `${other.url}/inner-target`),
      });
      await eventually(async () => {
        assert.equal((await served('/nest/inner/a')).json.url, '/inner-target/a');
        assert.equal((await served('/nest/other')).json.url, '/other');
        await served('/nestle', 404);
      });
    });

    it('refuses protected APIs until a key can be checked: 401 without a credential, 403 with one', async () => {
      const body = keylessApi('Locked', '/locked', upstream.url, { use_keyless: false });
      await dashboard('/apis', { method: 'POST', body });
      const count = upstream.received.length;
      const missing = await eventually(() => served('/locked/a', 401));
      assert.deepEqual(missing.json, { error: 'Authorization field missing' });
      const unknown = await http(`${node.gatewayUrl}/locked/a`, { headers: { authorization: 'some-key' } });
      assert.equal(unknown.status, 403);
      assert.deepEqual(unknown.json, { error: 'Access to this API has been disallowed' });
      assert.equal(upstream.received.length, count, 'nothing reached the upstream');
    });

    it('answers 502 with a JSON error when the upstream is down', async () => {
      await dashboard('/apis', { method: 'POST', body: keylessApi('Down', '/down', 'http://127.0.0.1:9') });
      const res = await eventually(() => served('/down', 502));
      assert.deepEqual(res.json, { error: 'There was a problem proxying the request' });
      assert.equal(res.headers.get('x-generator'), 'gw');
    });

    it('does not drop a request in flight when definitions reload', async () => {
      other.respondWith((req, res) => setTimeout(() => res.end(`slow ${req.url}`), 300));
      try {
        const created = await dashboard('/apis', { method: 'POST', body: keylessApi('Slow', '/slow', other.url) });
        await eventually(
          async () => assert.equal((await http(`${node.gatewayUrl}/slow/warm`)).text, 'slow /warm'),
          2000,
        );
        const inFlight = http(`${node.gatewayUrl}/slow/one`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await dashboard(`/apis/${created.json.Meta}`, {
          method: 'PUT',
          body: keylessApi('Slow', '/slow', upstream.url),
        });
        assert.equal((await gw('/reload')).status, 200);
        const res = await inFlight;
        assert.equal(res.status, 200);
        assert.equal(res.text, 'slow /one');
        await eventually(async () => assert.equal((await served('/slow/two')).json.url, '/two'));
      } finally {
        other.respondWith((req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body }));
        });
      }
    });
  });

  describe('definition files in GW_APPS_DIR', () => {
    it('loads files on reload and reports the reload as {status: ok, message: ""}', async () => {
      mkdirSync(node.config.appsDir, { recursive: true });
      writeFileSync(
        join(node.config.appsDir, 'files-api.json'),
        JSON.stringify({
          api_id: 'from-file',
          name: 'From file',
          use_keyless: true,
          proxy: { listen_path: '/from-file', target_url: upstream.url, strip_listen_path: true },
        }),
      );
      writeFileSync(join(node.config.appsDir, 'broken.json'), '{ not json');
      await served('/from-file/x', 404);
      const res = await gw('/reload');
      assert.deepEqual(res.json, { status: 'ok', message: '' });
      assert.equal((await served('/from-file/x')).json.url, '/x');
      assert.equal((await gw('/apis/from-file')).json.name, 'From file');
    });

    it('reloads every gateway with /gw/reload/group', async () => {
      writeFileSync(
        join(node.config.appsDir, 'group-api.json'),
        JSON.stringify({
          api_id: 'group-file',
          use_keyless: true,
          proxy: { listen_path: '/group-file', target_url: upstream.url },
        }),
      );
      const res = await gw('/reload/group');
      assert.deepEqual(res.json, { status: 'ok', message: '' });
      await eventually(async () => assert.equal((await served('/group-file/y')).json.url, '/group-file/y'));
    });
  });

  describe('health and unknown paths', () => {
    it('reports health on /gw/health', async () => {
      const res = await gw('/health');
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'pass');
      assert.ok(res.json.apis_served > 0, `apis_served: ${res.json.apis_served}`);
    });

    it('answers 404 JSON for a path no API listens on', async () => {
      const res = await served('/nobody-here', 404);
      assert.deepEqual(res.json, { error: 'Not Found' });
    });
  });
});
