import { strict as assert } from 'node:assert';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/** A plain OpenAPI document, as a team writes it: no gateway settings. */
function plainDocument(title: string, servers: unknown[]): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    servers,
    paths: {
      '/pets/{id}': {
        get: {
          operationId: 'getPet',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'a pet' } },
        },
      },
    },
  };
}

describe('gateway API: OAS import, API versions, schema (swagger.yml importOAS, listApiVersions, getSchema)', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: Upstream;
  const gw = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: { ...node.gwHeaders, ...options.headers } });
  /** A request through the gateway, once the API is served. */
  const served = (path: string) =>
    eventually(async () => {
      const res = await http(`${node.gatewayUrl}${path}`);
      assert.notEqual(res.status, 404, `${path}: ${res.text}`);
      return res;
    }, 3000);

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  describe('POST /gw/apis/oas/import', () => {
    it('imports a plain document with the query options; the API then proxies to the first server', async () => {
      const document = plainDocument('Imported pets', [{ url: upstream.url }]);
      const res = await gw('/apis/oas/import?listenPath=/imported/&apiID=imported-pets&validateRequest=true', {
        method: 'POST',
        body: document,
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { key: 'imported-pets', status: 'ok', action: 'added' });

      const proxied = await served('/imported/pets/7?x=1');
      assert.equal(proxied.status, 200, proxied.text);
      assert.equal(upstream.received.at(-1)!.url, '/pets/7?x=1', 'the listen path is stripped');
      assert.equal((await http(`${node.gatewayUrl}/imported/pets/seven`)).status, 422, 'validateRequest is on');

      const stored = (await gw('/apis/oas/imported-pets')).json;
      assert.deepEqual(stored.paths, document.paths);
      const extension = stored['x-gw-api-gateway'];
      assert.equal(extension.info.name, 'Imported pets');
      assert.equal(extension.info.id, 'imported-pets');
      assert.deepEqual(extension.info.state, { active: true, internal: false });
      assert.deepEqual(extension.server.listenPath, { value: '/imported/', strip: true });
      assert.equal(extension.upstream.url, upstream.url);
    });

    it('takes the upstream from a server URL with variables, given their defaults', async () => {
      const servers = [
        {
          url: 'http://127.0.0.1:{port}/v{major}',
          variables: { port: { default: String(upstream.port) }, major: { default: '2' } },
        },
      ];
      const res = await gw('/apis/oas/import?listenPath=/templated/', {
        method: 'POST',
        body: plainDocument('Templated', servers),
      });
      assert.equal(res.status, 200, res.text);
      assert.match(res.json.key, /^[0-9a-f]{32}$/, 'an id is generated when apiID is absent');
      await served('/templated/pets/1');
      assert.equal(upstream.received.at(-1)!.url, '/v2/pets/1');
    });

    it('switches on the authentication the document declares with authentication=true', async () => {
      const document = {
        ...plainDocument('Secured', [{ url: upstream.url }]),
        components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
        security: [{ token: [] }],
      };
      const res = await gw('/apis/oas/import?listenPath=/secured/&apiID=secured&authentication=true', {
        method: 'POST',
        body: document,
      });
      assert.equal(res.status, 200, res.text);
      const before = upstream.received.length;
      const refused = await served('/secured/pets/1');
      assert.equal(refused.status, 401, refused.text);
      assert.equal(upstream.received.length, before);
      const extension = (await gw('/apis/oas/secured')).json['x-gw-api-gateway'];
      assert.deepEqual(extension.server.authentication, {
        enabled: true,
        securitySchemes: { token: { enabled: true } },
      });
    });

    it('refuses a document carrying x-gw-api-gateway, or one with no upstream, storing nothing', async () => {
      const withExtension = { ...plainDocument('Has settings', [{ url: upstream.url }]), 'x-gw-api-gateway': {} };
      const refused = await gw('/apis/oas/import?apiID=not-stored', { method: 'POST', body: withExtension });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.json, {
        status: 'error',
        message: 'the import payload should not contain x-gw-api-gateway',
      });

      const noServers = await gw('/apis/oas/import?apiID=not-stored', {
        method: 'POST',
        body: plainDocument('No servers', []),
      });
      assert.equal(noServers.status, 400);
      assert.match(noServers.json.message, /^The ‘servers’ object is empty in your OAS/);
      assert.equal((await gw('/apis/oas/not-stored')).status, 404);
    });

    it('checks the version parameters as the reference does: 422 without new_version_name, 400 for an unknown base', async () => {
      const body = plainDocument('A version', [{ url: upstream.url }]);
      const unnamed = await gw('/apis/oas/import?base_api_id=imported-pets', { method: 'POST', body });
      assert.equal(unnamed.status, 422);
      assert.deepEqual(unnamed.json, { status: 'error', message: 'The new version name is required' });
      const unknown = await gw('/apis/oas/import?base_api_id=nope&new_version_name=v2', { method: 'POST', body });
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.json, { status: 'error', message: 'nope is not a valid Base API version' });
      const unversioned = await gw('/apis/oas/import?base_api_id=imported-pets&new_version_name=v2', {
        method: 'POST',
        body,
      });
      assert.equal(unversioned.status, 400);
      assert.deepEqual(unversioned.json, {
        status: 'error',
        message: 'you need to provide a version name for the new Base API: imported-pets',
      });
    });
  });

  describe('GET /gw/apis/{id}/versions and /gw/apis/oas/{id}/versions', () => {
    before(async () => {
      const base = await gw('/apis/oas/import?apiID=pets-base&listenPath=/pets-base/', {
        method: 'POST',
        body: plainDocument('Pets base', [{ url: upstream.url }]),
      });
      assert.equal(base.status, 200, base.text);
      const v2 = await gw(
        '/apis/oas/import?apiID=pets-v2&listenPath=/pets-v2/&base_api_id=pets-base&base_api_version_name=v1&new_version_name=v2',
        { method: 'POST', body: plainDocument('Pets v2', [{ url: upstream.url }]) },
      );
      assert.equal(v2.status, 200, v2.text);
      // an internal version, made through POST /gw/apis/oas with the same version parameters
      const v3 = plainDocument('Pets v3', [{ url: upstream.url }]);
      v3['x-gw-api-gateway'] = {
        info: { id: 'pets-v3', name: 'Pets v3', state: { active: true, internal: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/pets-v3/', strip: true } },
      };
      const created = await gw('/apis/oas?base_api_id=pets-base&new_version_name=v3&set_default=true', {
        method: 'POST',
        body: v3,
      });
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(created.json, { key: 'pets-v3', status: 'ok', action: 'added' });
    });

    const meta = (id: string, name: string, versionName: string, internal: boolean, isDefaultVersion: boolean) => ({
      id,
      name,
      versionName,
      internal,
      expirationDate: '',
      isDefaultVersion,
    });

    it('lists the base API first, then its versions by name, with the default marked', async () => {
      const expected = {
        status: 'success',
        apis: [
          meta('pets-base', 'Pets base', 'v1', false, false),
          meta('pets-v2', 'Pets v2', 'v2', false, false),
          meta('pets-v3', 'Pets v3', 'v3', true, true),
        ],
      };
      const res = await eventually(async () => {
        const listed = await gw('/apis/pets-base/versions');
        assert.deepEqual(listed.json, expected);
        return listed;
      }, 3000);
      assert.equal(res.status, 200);
      assert.deepEqual((await gw('/apis/oas/pets-base/versions')).json, expected);
      // the base routes to its versions: v3 is the default now
      await served('/pets-base/pets/1');
      assert.equal(upstream.received.at(-1)!.url, '/pets/1');
    });

    it('filters by searchText (any case) and accessType', async () => {
      const names = async (query: string) =>
        ((await gw(`/apis/pets-base/versions?${query}`)).json.apis ?? []).map((api: any) => api.versionName);
      assert.deepEqual(await names('searchText=V2'), ['v2']);
      assert.deepEqual(await names('accessType=internal'), ['v3']);
      assert.deepEqual(await names('accessType=external'), ['v1', 'v2']);
      assert.deepEqual((await gw('/apis/pets-base/versions?searchText=none')).json, { status: 'success', apis: null });
    });

    it('answers 404 for an API this gateway does not serve, and 403 without the secret', async () => {
      const res = await gw('/apis/oas/no-such-api/versions');
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, { status: 'error', message: 'API not found' });
      const forbidden = await http(`${node.gatewayUrl}/gw/apis/pets-base/versions`);
      assert.equal(forbidden.status, 403);
    });

    it('drops a deleted version from the base at once, its default falling back to the base version', async () => {
      const deleted = await gw('/apis/oas/pets-v3', { method: 'DELETE' });
      assert.deepEqual(deleted.json, { key: 'pets-v3', status: 'ok', action: 'deleted' });
      const listed = await gw('/apis/pets-base/versions');
      assert.deepEqual(
        listed.json.apis.map((api: { versionName: string; isDefaultVersion: boolean }) => [
          api.versionName,
          api.isDefaultVersion,
        ]),
        [
          ['v1', true],
          ['v2', false],
        ],
      );
      const versioning = (await gw('/apis/oas/pets-base')).json['x-gw-api-gateway'].info.versioning;
      assert.deepEqual(versioning.versions, [{ name: 'v2', id: 'pets-v2' }]);
      assert.equal(versioning.default, 'v1');
    });
  });

  describe('GET /gw/schema', () => {
    it('answers the OAS definition schema, with x-gw-api-gateway described, for the default and any 3.0 version', async () => {
      const res = await gw('/schema');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'Success');
      assert.equal(res.json.message, '');
      assert.deepEqual(res.json.schema.required, ['openapi', 'info', 'paths']);
      const extension = res.json.schema.properties['x-gw-api-gateway'];
      assert.deepEqual(extension.required, ['info', 'upstream', 'server']);
      assert.ok(extension.properties.server.properties.listenPath);
      assert.deepEqual((await gw('/schema?oasVersion=3.0.3')).json, res.json);
    });

    it('answers 404 {status: Failed} for a version with no schema, or a malformed one', async () => {
      const four = await gw('/schema?oasVersion=4');
      assert.equal(four.status, 404);
      assert.deepEqual(four.json, { status: 'Failed', message: 'Schema not found for version "4"' });
      const malformed = await gw('/schema?oasVersion=latest');
      assert.equal(malformed.status, 404);
      assert.deepEqual(malformed.json, { status: 'Failed', message: 'Malformed version: latest' });
    });
  });

  describe('OAS reads of a classic API', () => {
    it('answers 400 with the reference text on export, read and PATCH, and 404 "API not found" for an unknown id', async () => {
      const created = await gw('/apis', {
        method: 'POST',
        body: {
          api_id: 'classic-one',
          name: 'Classic',
          use_keyless: true,
          active: true,
          proxy: { listen_path: '/classic-one/', target_url: upstream.url, strip_listen_path: true },
        },
      });
      assert.equal(created.status, 200, created.text);
      const message = 'the requested API definition is in gw classic format, please use old api endpoint';
      for (const path of ['/apis/oas/classic-one/export', '/apis/oas/classic-one']) {
        const res = await gw(path);
        assert.equal(res.status, 400, path);
        assert.deepEqual(res.json, { status: 'error', message });
      }
      const patched = await gw('/apis/oas/classic-one', { method: 'PATCH', body: plainDocument('P', []) });
      assert.equal(patched.status, 400);
      assert.deepEqual(patched.json, { status: 'error', message });
      for (const [path, method] of [
        ['/apis/oas/no-such-api/export', 'GET'],
        ['/apis/oas/no-such-api', 'PATCH'],
      ]) {
        const missing = await gw(path, { method, body: method === 'PATCH' ? plainDocument('P', []) : undefined });
        assert.equal(missing.status, 404, path);
        assert.deepEqual(missing.json, { status: 'error', message: 'API not found' });
      }
    });
  });
});
