import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { oasFixture } from '../support/oas-fixtures';
import { STORE_VARIANTS } from '../support/stores';

/** A remote MCP API as a user posts it: per-tool rules, members gw keeps but does not enforce. */
function remoteMcp(id: string | undefined, listenPath: string, upstreamUrl = 'http://127.0.0.1:7878/mcp') {
  return {
    openapi: '3.0.3',
    info: { title: 'Weather MCP', version: '1.0.0' },
    paths: {},
    'x-gw-api-gateway': {
      info: { name: 'weather-mcp', ...(id ? { id } : {}), state: { active: true } },
      upstream: { url: upstreamUrl },
      server: { listenPath: { value: listenPath, strip: true } },
      middleware: {
        mcpTools: {
          get_weather: {
            allow: { enabled: true },
            rateLimit: { enabled: true, rate: 5, per: '1m' },
            transformRequestHeaders: { enabled: true, add: [{ name: 'x-a', value: '1' }] },
          },
          delete_all: { block: { enabled: true } },
        },
        mcpResources: { 'file:///docs/*': { block: { enabled: true } } },
        mcpPrompts: { review: { allow: { enabled: true } } },
      },
    },
  } as Record<string, any>;
}

/** REST as MCP: the tools of the OAS API `sourceId`, two of them selected. */
function restAsMcp(id: string | undefined, listenPath: string, sourceId: string) {
  const document = remoteMcp(id, listenPath, `gw://${sourceId}/mcp`);
  document['x-gw-api-gateway'].middleware = {};
  document['x-gw-mcp-server'] = {
    primitives: [{ source: { operationId: 'listPets' }, name: 'list_pets', allow: true }],
  };
  return document;
}

for (const store of STORE_VARIANTS)
  describe(`MCP API management (/gw/mcps, /api/mcps) on ${store.name}`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> } | undefined;
    let acme: Tenant;
    let globex: Tenant;
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const api = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const petstore = (id: string, listenPath: string) => {
      const document = oasFixture('petstore.yaml', 'http://127.0.0.1:9');
      document['x-gw-api-gateway'].info = { name: `pets ${id}`, id, state: { active: true } };
      document['x-gw-api-gateway'].server.listenPath.value = listenPath;
      return document;
    };

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-mcp-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    });
    after(async () => {
      await node?.stop();
      await database?.cleanup();
      if (node) removeDir(node.dataDir);
    });

    describe('on the gateway API', () => {
      it('creates, reads, lists, updates and deletes a remote MCP API, served by this node at once', async () => {
        const created = await gw('/mcps', { method: 'POST', body: remoteMcp('weather', '/weather/') });
        assert.deepEqual(created.json, { key: 'weather', status: 'ok', action: 'added' });

        const compiled = (await gw('/apis/weather')).json;
        assert.equal(compiled.proxy.target_url, 'http://127.0.0.1:7878/mcp');
        assert.deepEqual(compiled.mcp, {
          primitives: {
            tools: { get_weather: { allow: true, rate_limit: { rate: 5, per: 60 } }, delete_all: { block: true } },
            resources: { 'file:///docs/*': { block: true } },
            prompts: { review: { allow: true } },
          },
        });

        const read = await gw('/mcps/weather');
        assert.equal(read.status, 200);
        assert.equal(read.json['x-gw-api-gateway'].info.id, 'weather');
        assert.deepEqual(
          read.json['x-gw-api-gateway'].middleware.mcpTools.get_weather.transformRequestHeaders,
          { enabled: true, add: [{ name: 'x-a', value: '1' }] },
          'members gw does not enforce are kept as sent',
        );
        assert.deepEqual((await gw('/mcps?expand=true')).status, 200);
        assert.deepEqual((await gw('/mcps/weather?expand=true')).json, read.json, 'a remote MCP API expands to itself');
        assert.deepEqual(
          (await gw('/mcps')).json.map((doc: any) => doc['x-gw-api-gateway'].info.id),
          ['weather'],
        );

        const changed = remoteMcp('weather', '/weather/');
        changed['x-gw-api-gateway'].middleware.mcpTools.delete_all = { allow: { enabled: true } };
        const updated = await gw('/mcps/weather', { method: 'PUT', body: changed });
        assert.deepEqual(updated.json, { key: 'weather', status: 'ok', action: 'modified' });
        assert.deepEqual((await gw('/apis/weather')).json.mcp.primitives.tools.delete_all, { allow: true });

        const removed = await gw('/mcps/weather', { method: 'DELETE' });
        assert.deepEqual(removed.json, { key: 'weather', status: 'ok', action: 'deleted' });
        assert.equal((await gw('/apis/weather')).status, 404);
        assert.equal((await gw('/mcps/weather')).status, 404);
      });

      it('keeps MCP APIs apart from OAS APIs (as the reference does)', async () => {
        assert.equal((await gw('/mcps', { method: 'POST', body: remoteMcp('apart', '/apart/') })).status, 200);
        assert.equal(
          (await gw('/apis/oas', { method: 'POST', body: petstore('apart-oas', '/apart-oas/') })).status,
          200,
        );
        const oasIds = (await gw('/apis/oas')).json.map((doc: any) => doc['x-gw-api-gateway'].info.id);
        assert.ok(oasIds.includes('apart-oas') && !oasIds.includes('apart'), JSON.stringify(oasIds));
        const mcpIds = (await gw('/mcps')).json.map((doc: any) => doc['x-gw-api-gateway'].info.id);
        assert.ok(mcpIds.includes('apart') && !mcpIds.includes('apart-oas'), JSON.stringify(mcpIds));

        const notMcp = await gw('/mcps/apart-oas');
        assert.equal(notMcp.status, 404);
        assert.deepEqual(notMcp.json, { status: 'error', message: 'API is not an MCP API' });
        assert.equal((await gw('/mcps/apart-oas', { method: 'DELETE' })).status, 404);
        assert.equal((await gw('/apis/oas/apart-oas')).status, 200, 'the OAS API was not deleted');
        assert.equal((await gw('/apis/oas/apart')).status, 404);
        const overwrite = await gw('/apis/oas/apart', { method: 'PUT', body: petstore('apart', '/apart/') });
        assert.equal(overwrite.status, 404, overwrite.text);
        assert.ok((await gw('/apis/apart')).json.mcp, 'the MCP API keeps its mcp block');
      });

      it('validates without storing with dryRun=true, answering the document with its id', async () => {
        const res = await gw('/mcps?dryRun=true', { method: 'POST', body: remoteMcp(undefined, '/dry/') });
        assert.equal(res.status, 200, res.text);
        const id = res.json['x-gw-api-gateway'].info.id;
        assert.match(id, /^[0-9a-f]{32}$/);
        assert.deepEqual(
          res.json['x-gw-api-gateway'].middleware,
          remoteMcp(undefined, '/dry/')['x-gw-api-gateway'].middleware,
        );
        assert.equal((await gw(`/mcps/${id}`)).status, 404);
        assert.ok(!(await gw('/apis')).json.some((api: any) => api.proxy.listen_path === '/dry/'));

        assert.equal((await gw('/mcps', { method: 'POST', body: remoteMcp('dry-put', '/dry-put/') })).status, 200);
        const changed = remoteMcp('dry-put', '/dry-put/');
        changed['x-gw-api-gateway'].upstream.url = 'http://127.0.0.1:7979/mcp';
        const dryPut = await gw('/mcps/dry-put?dryRun=true', { method: 'PUT', body: changed });
        assert.equal(dryPut.status, 200, dryPut.text);
        assert.equal(dryPut.json['x-gw-api-gateway'].upstream.url, 'http://127.0.0.1:7979/mcp');
        assert.equal((await gw('/apis/dry-put')).json.proxy.target_url, 'http://127.0.0.1:7878/mcp');
        assert.equal((await gw('/mcps/dry-put')).json['x-gw-api-gateway'].upstream.url, 'http://127.0.0.1:7878/mcp');

        const badFlag = await gw('/mcps?dryRun=maybe', { method: 'POST', body: remoteMcp(undefined, '/dry2/') });
        assert.deepEqual(badFlag.json, { status: 'error', message: 'invalid dryRun query parameter' });
        assert.equal(badFlag.status, 400);
      });

      const badDocuments: Array<[string, (doc: Record<string, any>) => void, RegExp]> = [
        [
          'a rateLimit without rate',
          (doc) => (doc['x-gw-api-gateway'].middleware.mcpTools.get_weather.rateLimit = { enabled: true, per: '1m' }),
          /\/x-gw-api-gateway\/middleware\/mcpTools\/get_weather\/rateLimit\/rate: is required/,
        ],
        [
          'a rateLimit of 0 per period',
          (doc) =>
            (doc['x-gw-api-gateway'].middleware.mcpTools.get_weather.rateLimit = { enabled: true, rate: 0, per: '1m' }),
          /mcpTools\/get_weather\/rateLimit\/rate: must be greater than 0/,
        ],
        [
          'allow that is not a toggle',
          (doc) => (doc['x-gw-api-gateway'].middleware.mcpTools.get_weather.allow = true),
          /mcpTools\/get_weather\/allow: must be object/,
        ],
        [
          'an unknown member of block',
          (doc) => (doc['x-gw-api-gateway'].middleware.mcpPrompts.review.block = { enabled: true, why: 1 }),
          /mcpPrompts\/review\/block\/why: is not a known field here/,
        ],
        [
          'an upstream that is neither http(s) nor gw://…/mcp',
          (doc) => (doc['x-gw-api-gateway'].upstream.url = 'gw://pets/other'),
          /\/x-gw-api-gateway\/upstream\/url/,
        ],
        [
          'x-gw-mcp-server.primitives that is not a list',
          (doc) => (doc['x-gw-mcp-server'] = { primitives: { a: 1 } }),
          /\/x-gw-mcp-server\/primitives: must be an array/,
        ],
      ];
      for (const [what, spoil, reason] of badDocuments)
        it(`refuses ${what} with a 400 naming the field`, async () => {
          const document = remoteMcp('bad', '/bad/');
          spoil(document);
          const res = await gw('/mcps', { method: 'POST', body: document });
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.status, 'error');
          assert.match(res.json.message, reason);
          assert.equal((await gw('/apis/bad')).status, 404);
        });

      it('refuses MCP settings on an OAS API', async () => {
        const document = petstore('oas-with-tools', '/oas-with-tools/');
        document['x-gw-api-gateway'].middleware.mcpTools = { a: { block: { enabled: true } } };
        const res = await gw('/apis/oas', { method: 'POST', body: document });
        assert.equal(res.status, 400);
        assert.match(res.json.message, /\/x-gw-api-gateway\/middleware\/mcpTools: is for MCP APIs only/);
      });

      it('offers a REST API of the same organisation as MCP, compiled with its rest_source', async () => {
        assert.equal((await gw('/apis/oas', { method: 'POST', body: petstore('pets-src', '/pets-src/') })).status, 200);
        const created = await gw('/mcps', { method: 'POST', body: restAsMcp('pets-mcp', '/pets-mcp/', 'pets-src') });
        assert.deepEqual(created.json, { key: 'pets-mcp', status: 'ok', action: 'added' });
        const compiled = (await gw('/apis/pets-mcp')).json;
        assert.equal(compiled.proxy.target_url, 'gw://pets-src/mcp');
        assert.equal(compiled.mcp.rest_source, 'pets-src');
        assert.deepEqual(compiled.mcp.rest_primitives, [
          { source: { operationId: 'listPets' }, name: 'list_pets', allow: true },
        ]);
        const inUse = await gw('/apis/oas/pets-src', { method: 'DELETE' });
        assert.equal(inUse.status, 409, inUse.text);
        assert.deepEqual(inUse.json, { status: 'error', message: 'API is referenced by MCP APIs: pets-mcp' });
        assert.equal((await gw('/apis/oas/pets-src')).status, 200, 'the REST source is still there');
        assert.deepEqual(
          compiled.mcp.rest_tools.map((tool: { name: string; method: string; pathTemplate: string }) => [
            tool.name,
            tool.method.toUpperCase(),
            tool.pathTemplate,
          ]),
          [['list_pets', 'GET', '/pets']],
          'the selected tool, renamed, is kept for the gateway to serve',
        );
        const expanded = await gw('/mcps/pets-mcp?expand=true');
        assert.equal(expanded.status, 200);
        assert.equal(expanded.json['x-gw-api-gateway'].upstream.url, 'gw://pets-src/mcp');
        const primitives = expanded.json['x-gw-mcp-server'].primitives as Array<Record<string, any>>;
        const offered = primitives.filter((p) => p.allow);
        assert.deepEqual(
          offered.map((p) => [p.source.operationId, p.name]),
          [['listPets', 'list_pets']],
        );
        assert.equal(offered[0].inputSchema.type, 'object');
        assert.ok(primitives.length > 1, "the source's other operations are listed, not offered");
        assert.ok(primitives.filter((p) => !p.allow).every((p) => p.inputSchema?.type === 'object'));
        const unknownOperation = restAsMcp('pets-mcp-2', '/pets-mcp-2/', 'pets-src');
        unknownOperation['x-gw-mcp-server'].primitives = [{ source: { operationId: 'noSuchOperation' }, allow: true }];
        const refused = await gw('/mcps', { method: 'POST', body: unknownOperation });
        assert.equal(refused.status, 400, refused.text);
        assert.match(refused.json.message, /x-gw-mcp-server: .*noSuchOperation/);
        assert.equal((await gw('/mcps/pets-mcp', { method: 'DELETE' })).status, 200);
        assert.equal((await gw('/apis/oas/pets-src', { method: 'DELETE' })).status, 200, 'free to go once unused');
      });

      it('refuses a REST source that is missing (400), classic (400), an MCP API (400) or of another organisation (403)', async () => {
        const missing = await gw('/mcps', { method: 'POST', body: restAsMcp(undefined, '/m1/', 'nowhere') });
        assert.equal(missing.status, 400);
        assert.deepEqual(missing.json, {
          status: 'error',
          message: 'REST source API nowhere does not exist; create it first',
        });
        const classic = await gw('/apis', {
          method: 'POST',
          body: {
            name: 'classic',
            api_id: 'classic-src',
            proxy: { listen_path: '/classic-src/', target_url: 'http://127.0.0.1:9' },
          },
        });
        assert.equal(classic.status, 200, classic.text);
        const fromClassic = await gw('/mcps', { method: 'POST', body: restAsMcp(undefined, '/m2/', 'classic-src') });
        assert.equal(fromClassic.status, 400);
        assert.match(fromClassic.json.message, /classic-src is not an OAS API/);
        const fromMcp = await gw('/mcps', { method: 'POST', body: restAsMcp(undefined, '/m3/', 'apart') });
        assert.equal(fromMcp.status, 400);

        // An OAS API of an organisation, made on the dashboard; the MCP API below has none.
        const foreign = await api(globex, '/apis/oas', { method: 'POST', body: petstore('x', '/foreign-src/') });
        assert.equal(foreign.status, 200, foreign.text);
        const crossOrg = await gw('/mcps?dryRun=true', {
          method: 'POST',
          body: restAsMcp(undefined, '/m4/', foreign.json.ID),
        });
        assert.equal(crossOrg.status, 403, crossOrg.text);
        assert.deepEqual(crossOrg.json, {
          status: 'error',
          message: 'REST source API belongs to a different organisation',
        });
      });
    });

    describe('on the dashboard API, per organisation', () => {
      let acmeId: string;

      it('creates, reads, lists, updates and deletes an MCP API of the caller', async () => {
        const created = await api(acme, '/mcps', { method: 'POST', body: remoteMcp('chosen', '/acme-mcp/') });
        assert.equal(created.status, 200, created.text);
        assert.equal(created.json.Message, 'API created');
        acmeId = created.json.ID;
        assert.notEqual(acmeId, 'chosen', 'the dashboard gives the ids');

        const read = await api(acme, `/mcps/${acmeId}`);
        assert.equal(read.status, 200);
        assert.equal(read.json['x-gw-api-gateway'].info.orgId, acme.orgId);
        const listed = await api(acme, '/mcps');
        assert.deepEqual(
          listed.json.apis.map((doc: any) => doc['x-gw-api-gateway'].info.id),
          [acmeId],
        );
        assert.ok(
          !(await api(acme, '/apis/oas')).json.apis.some((doc: any) => doc['x-gw-api-gateway'].info.id === acmeId),
        );

        const changed = remoteMcp(acmeId, '/acme-mcp/');
        changed['x-gw-api-gateway'].middleware.mcpTools = {};
        const updated = await api(acme, `/mcps/${acmeId}`, { method: 'PUT', body: changed });
        assert.equal(updated.status, 200, updated.text);
        assert.deepEqual((await api(acme, `/apis/${acmeId}`)).json.api_definition.mcp.primitives.tools, {});

        const dry = await api(acme, '/mcps?dryRun=true', { method: 'POST', body: remoteMcp(undefined, '/acme-dry/') });
        assert.equal(dry.status, 200);
        assert.equal((await api(acme, '/mcps')).json.apis.length, 1, 'a dry run stores nothing');
      });

      it("never shows or touches another organisation's MCP APIs", async () => {
        assert.deepEqual((await api(globex, '/mcps')).json.apis, []);
        assert.equal((await api(globex, `/mcps/${acmeId}`)).status, 404);
        assert.equal(
          (await api(globex, `/mcps/${acmeId}`, { method: 'PUT', body: remoteMcp(acmeId, '/acme-mcp/') })).status,
          404,
        );
        assert.equal((await api(globex, `/mcps/${acmeId}`, { method: 'DELETE' })).status, 404);
        assert.equal((await api(acme, `/mcps/${acmeId}`)).status, 200, 'still there');
      });

      it("does not let a tenant take another organisation's REST API as a source, nor learn it exists", async () => {
        const source = await api(acme, '/apis/oas', { method: 'POST', body: petstore('x', '/acme-pets/') });
        assert.equal(source.status, 200, source.text);
        const sourceId = source.json.ID;
        const own = await api(acme, '/mcps?dryRun=true', {
          method: 'POST',
          body: restAsMcp(undefined, '/acme-rest-mcp/', sourceId),
        });
        assert.equal(own.status, 200, own.text);
        const stolen = await api(globex, '/mcps', {
          method: 'POST',
          body: restAsMcp(undefined, '/globex-mcp/', sourceId),
        });
        assert.equal(stolen.status, 400);
        assert.equal(stolen.json.Message, `REST source API ${sourceId} does not exist; create it first`);
      });

      it('deletes an MCP API of the caller', async () => {
        assert.equal((await api(acme, `/mcps/${acmeId}`, { method: 'DELETE' })).status, 200);
        assert.equal((await api(acme, `/mcps/${acmeId}`)).status, 404);
      });
    });
    describe('MCP rights on keys and policies', () => {
      let mcpApi: string;
      const mcpAccess = {
        mcp_access_rights: {
          tools: { allowed: ['get_.*', 'list'], blocked: ['get_secret'] },
          prompts: { blocked: ['p'] },
        },
        mcp_primitives: [{ type: 'tool', name: 'get_weather', limit: { rate: 5, per: 60, quota_max: 100 } }],
      };
      const access = (extra: Record<string, unknown> = mcpAccess) => ({
        [mcpApi]: { api_id: mcpApi, versions: ['Default'], ...extra },
      });
      const session = (extra?: Record<string, unknown>) => ({
        rate: 100,
        per: 60,
        expires: 0,
        quota_max: -1,
        access_rights: access(extra),
      });
      const badAccess: Array<[string, Record<string, unknown>, RegExp]> = [
        [
          'a pattern that does not compile',
          { mcp_access_rights: { tools: { blocked: ['get_(('] } } },
          /mcp_access_rights\.tools\.blocked\[0\] is not a valid pattern/,
        ],
        [
          'an unknown primitive type',
          { mcp_primitives: [{ type: 'function', name: 'a', limit: { rate: 1, per: 1 } }] },
          /mcp_primitives\[0\]\.type: invalid MCP primitive type "function": must be one of tool, resource, prompt/,
        ],
        ['access rights that are a list', { mcp_access_rights: ['a'] }, /mcp_access_rights must be an object/],
      ];

      before(async function () {
        if (!store.enabled) this.skip();
        const created = await api(acme, '/mcps', { method: 'POST', body: remoteMcp(undefined, '/acme-keys-mcp/') });
        assert.equal(created.status, 200, created.text);
        mcpApi = created.json.ID;
      });

      it('stores and returns them on dashboard keys, and refuses bad ones with a 400 naming the field', async () => {
        const created = await api(acme, '/keys', { method: 'POST', body: session() });
        assert.equal(created.status, 200, created.text);
        const read = await api(acme, `/apis/${mcpApi}/keys/${created.json.key_id}`);
        assert.equal(read.status, 200, read.text);
        assert.deepEqual(read.json.data.access_rights[mcpApi].mcp_access_rights, mcpAccess.mcp_access_rights);
        assert.deepEqual(read.json.data.access_rights[mcpApi].mcp_primitives, mcpAccess.mcp_primitives);
        for (const [what, extra, reason] of badAccess) {
          const refused = await api(acme, '/keys', { method: 'POST', body: session(extra) });
          assert.equal(refused.status, 400, `${what}: ${refused.text}`);
          assert.match(refused.json.Message, reason, what);
        }
      });

      it('stores and returns them on dashboard policies, and refuses bad ones', async () => {
        const body = { name: 'MCP gold', rate: 5, per: 1, access_rights: access() };
        const created = await api(acme, '/portal/policies/', { method: 'POST', body });
        assert.equal(created.status, 200, created.text);
        const read = await api(acme, `/portal/policies/${created.json.Meta}`);
        assert.deepEqual(read.json.access_rights[mcpApi].mcp_access_rights, mcpAccess.mcp_access_rights);
        assert.deepEqual(read.json.access_rights[mcpApi].mcp_primitives, mcpAccess.mcp_primitives);
        for (const [what, extra, reason] of badAccess) {
          const refused = await api(acme, '/portal/policies/', {
            method: 'POST',
            body: { ...body, access_rights: access(extra) },
          });
          assert.equal(refused.status, 400, `${what}: ${refused.text}`);
          assert.match(refused.json.Message, reason, what);
        }
      });

      it('stores and returns them on /gw/keys and /gw/policies, and refuses bad ones', async () => {
        const key = await gw('/keys', { method: 'POST', body: session() });
        assert.equal(key.json.status, 'ok', key.text);
        const readKey = await gw(`/keys/${key.json.key}`);
        assert.deepEqual(readKey.json.access_rights[mcpApi].mcp_access_rights, mcpAccess.mcp_access_rights);
        assert.deepEqual(readKey.json.access_rights[mcpApi].mcp_primitives, mcpAccess.mcp_primitives);
        const policy = await gw('/policies', {
          method: 'POST',
          body: { id: 'mcp-policy', name: 'MCP policy', rate: 5, per: 1, access_rights: access() },
        });
        assert.equal(policy.status, 200, policy.text);
        assert.deepEqual(
          (await gw('/policies/mcp-policy')).json.access_rights[mcpApi].mcp_primitives,
          mcpAccess.mcp_primitives,
        );
        for (const [what, extra, reason] of badAccess) {
          const refusedKey = await gw('/keys', { method: 'POST', body: session(extra) });
          assert.equal(refusedKey.status, 400, `${what}: ${refusedKey.text}`);
          assert.equal(refusedKey.json.status, 'error');
          assert.match(refusedKey.json.message, reason, what);
          const refusedPolicy = await gw('/policies', {
            method: 'POST',
            body: { id: 'bad-mcp-policy', name: 'bad', rate: 5, per: 1, access_rights: access(extra) },
          });
          assert.equal(refusedPolicy.status, 400, `${what}: ${refusedPolicy.text}`);
          assert.match(refusedPolicy.json.message, reason, what);
        }
      });
    });
  });
