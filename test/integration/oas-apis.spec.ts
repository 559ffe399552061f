import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { oasFixture, oasFixtureText } from '../support/oas-fixtures';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

const YAML = { 'content-type': 'application/x-yaml' };

for (const store of STORE_VARIANTS)
  describe(`OAS API definitions: dashboard and gateway management APIs on ${store.name}`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> } | undefined;
    let upstream: Upstream;
    let acme: Tenant;
    let globex: Tenant;
    const api = (
      tenant: Tenant,
      path: string,
      options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) => http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    const petstore = (listenPath = '/petstore/') => {
      const document = oasFixture('petstore.yaml', upstream.url);
      document['x-gw-api-gateway'].server.listenPath.value = listenPath;
      return document;
    };

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-oas-'));
      database = await store.open(dataDir);
      upstream = await startUpstream();
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    });
    after(async () => {
      await node?.stop();
      await upstream?.close();
      await database?.cleanup();
      if (node) removeDir(node.dataDir);
    });

    describe('on the dashboard (/api/apis/oas)', () => {
      let internalId: string;
      let apiId: string;

      it('creates an API from a YAML document, with generated ids whatever info.id says', async () => {
        const text = oasFixtureText('petstore.yaml', upstream.url).replace(
          '    name: Petstore\n',
          '    name: Petstore\n    id: chosen-by-client\n',
        );
        const res = await api(acme, '/apis/oas', { method: 'POST', body: text, headers: YAML });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.Status, 'OK');
        assert.equal(res.json.Message, 'API created');
        assert.match(res.json.Meta, /^[0-9a-f]{24}$/);
        assert.match(res.json.ID, /^[0-9a-f]{32}$/);
        internalId = res.json.Meta;
        apiId = res.json.ID;
      });

      it('returns the document as sent, with the ids and organisation written into x-gw-api-gateway.info', async () => {
        const res = await api(acme, `/apis/oas/${apiId}`);
        assert.equal(res.status, 200, res.text);
        const sent = oasFixture('petstore.yaml', upstream.url);
        assert.deepEqual(res.json.paths, sent.paths);
        assert.deepEqual(res.json.components, sent.components);
        assert.deepEqual(res.json['x-gw-api-gateway'].middleware, sent['x-gw-api-gateway'].middleware);
        assert.deepEqual(res.json['x-gw-api-gateway'].info, {
          name: 'Petstore',
          state: { active: true },
          id: apiId,
          dbId: internalId,
          orgId: acme.orgId,
        });
        const byInternalId = await api(acme, `/apis/oas/${internalId}`);
        assert.deepEqual(byInternalId.json, res.json);
      });

      it('returns it as YAML when asked (?format=yaml)', async () => {
        const res = await api(acme, `/apis/oas/${apiId}?format=yaml`);
        assert.equal(res.status, 200);
        assert.match(String(res.headers.get('content-type')), /^application\/x-yaml/);
        assert.equal(parse(res.text)['x-gw-api-gateway'].info.id, apiId);
      });

      it('leaves the gateway settings out with ?mode=public', async () => {
        const res = await api(acme, `/apis/oas/${apiId}?mode=public`);
        assert.equal(res.status, 200);
        assert.equal(res.json['x-gw-api-gateway'], undefined);
        assert.equal(res.json.info.title, 'Petstore');
      });

      it('serves the compiled classic definition on /api/apis/{id}, marked is_oas', async () => {
        const res = await api(acme, `/apis/${apiId}`);
        assert.equal(res.status, 200);
        const definition = res.json.api_definition;
        assert.equal(definition.is_oas, true);
        assert.equal(definition.proxy.listen_path, '/petstore/');
        assert.equal(definition.auth_configs.authToken.auth_header_name, 'X-Api-Key');
        assert.deepEqual(definition.version_data.versions.Default.extended_paths.rate_limit[0], {
          path: '/pets$',
          method: 'GET',
          enabled: true,
          rate: 3,
          per: 10,
        });
      });

      it('refuses a classic update of an OAS API, and leaves it as it was', async () => {
        const res = await api(acme, `/apis/${apiId}`, {
          method: 'PUT',
          body: keylessApi('Petstore', '/petstore/', upstream.url),
        });
        assert.equal(res.status, 400);
        assert.deepEqual(res.json, {
          Status: 'Error',
          Message: `API ${apiId} is an OAS API definition: update it with PUT /api/apis/oas/${apiId}`,
          Meta: null,
        });
        assert.equal((await api(acme, `/apis/${apiId}`)).json.api_definition.is_oas, true);
      });

      it('updates it with a new document (JSON)', async () => {
        const document = petstore();
        document['x-gw-api-gateway'].info.name = 'Petstore v2';
        document['x-gw-api-gateway'].middleware.operations.listPets.rateLimit.rate = 30;
        const res = await api(acme, `/apis/oas/${apiId}`, { method: 'PUT', body: document });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json, { Status: 'OK', Message: 'API updated.', Meta: null });
        const classic = (await api(acme, `/apis/${apiId}`)).json.api_definition;
        assert.equal(classic.name, 'Petstore v2');
        assert.equal(classic.api_id, apiId);
        assert.equal(classic.version_data.versions.Default.extended_paths.rate_limit[0].rate, 30);
        assert.equal((await api(acme, `/apis/oas/${apiId}`)).json['x-gw-api-gateway'].info.name, 'Petstore v2');
      });

      it('lists OAS APIs only, as documents', async () => {
        const classic = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Classic', '/classic-listed/', upstream.url),
        });
        assert.equal(classic.status, 200);
        const res = await api(acme, '/apis/oas');
        assert.equal(res.status, 200);
        assert.equal(res.json.pages, 1);
        assert.deepEqual(
          res.json.apis.map((doc: any) => doc['x-gw-api-gateway'].info.id),
          [apiId],
        );
        const notOas = await api(acme, `/apis/oas/${classic.json.ID}`);
        assert.equal(notOas.status, 400);
        assert.equal(notOas.json.Status, 'Error');
      });

      describe('another organisation', () => {
        it('can not read, export, update or delete the OAS API, nor see it listed', async () => {
          assert.equal((await api(globex, `/apis/oas/${apiId}`)).status, 404);
          assert.equal((await api(globex, `/apis/oas/${apiId}/export`)).status, 404);
          const put = await api(globex, `/apis/oas/${apiId}`, { method: 'PUT', body: petstore('/globex-pets/') });
          assert.equal(put.status, 404);
          assert.deepEqual(put.json, { Status: 'Error', Message: `API not found: ${apiId}`, Meta: null });
          assert.equal((await api(globex, `/apis/oas/${apiId}`, { method: 'DELETE' })).status, 404);
          assert.deepEqual((await api(globex, '/apis/oas')).json, { apis: [], pages: 0 });
          assert.equal(
            (await api(acme, `/apis/oas/${apiId}`)).json['x-gw-api-gateway'].info.name,
            'Petstore v2',
            'still there, unchanged',
          );
        });
      });

      describe('bad documents', () => {
        const cases: Array<[string, (doc: Record<string, any>) => unknown, string]> = [
          [
            'an upstream url that is not a string',
            (d) => (d['x-gw-api-gateway'].upstream.url = 42),
            '/x-gw-api-gateway/upstream/url: must be string',
          ],
          [
            'a rate limit per that is not a duration',
            (d) => (d['x-gw-api-gateway'].middleware.operations.listPets.rateLimit.per = 'ten seconds'),
            '/x-gw-api-gateway/middleware/operations/listPets/rateLimit/per: must match pattern',
          ],
          [
            'a misspelt operation setting',
            (d) => (d['x-gw-api-gateway'].middleware.operations.getPet.rateLimt = { enabled: true }),
            '/x-gw-api-gateway/middleware/operations/getPet/rateLimt: is not a known field here',
          ],
          [
            'an operation id not in paths',
            (d) => (d['x-gw-api-gateway'].middleware.operations.adoptPet = { block: { enabled: true } }),
            '/x-gw-api-gateway/middleware/operations/adoptPet: no operation in paths has the operationId "adoptPet"',
          ],
          [
            'a security scheme not in components',
            (d) => (d['x-gw-api-gateway'].server.authentication.securitySchemes.jwt = { enabled: true }),
            '/x-gw-api-gateway/server/authentication/securitySchemes/jwt: no security scheme "jwt" in components.securitySchemes',
          ],
          [
            'a missing listen path',
            (d) => delete d['x-gw-api-gateway'].server.listenPath,
            '/x-gw-api-gateway/server/listenPath: is required',
          ],
          ['an OpenAPI 2 document', (d) => (d.openapi = '2.0'), '/openapi: must be an OpenAPI 3.0 version'],
          ['no gateway extension', (d) => delete d['x-gw-api-gateway'], '/x-gw-api-gateway: is required'],
          [
            'a $ref that points nowhere',
            (d) =>
              (d.paths['/pets'].post.requestBody.content['application/json'].schema = {
                $ref: '#/components/schemas/Nope',
              }),
            '/paths/~1pets/post/requestBody/content/application~1json/schema/$ref: #/components/schemas/Nope points to nothing',
          ],
          [
            'schemas whose references expand past the budget only all together (each operation under it)',
            (d) => {
              // Big13 expands to ~57,000 nodes: one operation is fine, two pass the 100,000 of the document.
              d.components.schemas.Big0 = { type: 'string' };
              for (let i = 1; i <= 13; i++)
                d.components.schemas[`Big${i}`] = {
                  type: 'object',
                  properties: {
                    a: { $ref: `#/components/schemas/Big${i - 1}` },
                    b: { $ref: `#/components/schemas/Big${i - 1}` },
                  },
                };
              // mocked from the examples: the responses are copied with their references followed (and not compiled, which would be slow)
              for (const name of ['big1', 'big2']) {
                d.paths[`/${name}`] = {
                  get: {
                    operationId: name,
                    responses: {
                      '200': {
                        description: 'ok',
                        content: {
                          'application/json': { example: { ok: true }, schema: { $ref: '#/components/schemas/Big13' } },
                        },
                      },
                    },
                  },
                };
                d['x-gw-api-gateway'].middleware.operations[name] = {
                  mockResponse: { enabled: true, fromOASExamples: { enabled: true } },
                };
              }
            },
            '/paths/~1big2/get/responses',
          ],
          [
            'a duplicate operationId',
            (d) => (d.paths['/pets/mine'].get.operationId = 'listPets'),
            '/paths/~1pets~1mine/get/operationId: operationId "listPets" is already used at /paths/~1pets/get/operationId',
          ],
        ];
        for (const [what, breakIt, expected] of cases) {
          it(`refuses ${what} with 400 naming ${expected.split(':')[0]}, and stores nothing`, async () => {
            const document = petstore('/broken/');
            breakIt(document);
            const res = await api(acme, '/apis/oas', { method: 'POST', body: document });
            assert.equal(res.status, 400, res.text);
            assert.equal(res.json.Status, 'Error');
            assert.equal(res.json.Meta, null);
            assert.ok(res.json.Message.startsWith('Invalid OAS API definition: '), res.json.Message);
            assert.ok(
              res.json.Errors.some((e: string) => e.startsWith(expected)),
              JSON.stringify(res.json.Errors),
            );
            assert.equal((await api(acme, '/apis/oas')).json.apis.length, 1);
          });
        }

        it('refuses a document nested deeper than the body limit', async () => {
          let deep = 'x: 1';
          for (let i = 0; i < 120; i++) deep = `a:\n${deep.replace(/^/gm, '  ')}`;
          const res = await api(acme, '/apis/oas', { method: 'POST', body: deep, headers: YAML });
          assert.equal(res.status, 400);
          assert.match(res.json.Message, /nests objects or arrays more than 100 levels deep/);
        });

        it('refuses text that is neither JSON nor YAML', async () => {
          const res = await api(acme, '/apis/oas', {
            method: 'POST',
            body: 'openapi: [3.0.3\n  paths: {',
            headers: YAML,
          });
          assert.equal(res.status, 400);
          assert.match(res.json.Message, /^The OpenAPI document could not be read as JSON or YAML/);
        });
      });

      describe('deleting', () => {
        it('deletes it: gone from the dashboard and from the gateway', async () => {
          const res = await api(acme, `/apis/oas/${apiId}`, { method: 'DELETE' });
          assert.deepEqual(res.json, { Status: 'OK', Message: 'API deleted', Meta: null });
          assert.equal((await api(acme, `/apis/oas/${apiId}`)).status, 404);
          await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/petstore/health`)).status, 404));
        });
      });
    });

    describe('classic → OAS → classic', () => {
      const classic = () =>
        keylessApi('Orders', '/orders/', upstream.url, {
          use_keyless: false,
          auth: { auth_header_name: 'X-Order-Key' },
          auth_configs: {
            authToken: { auth_header_name: 'X-Order-Key', use_param: true, param_name: 'key', use_cookie: false },
          },
          strip_auth_data: true,
          global_rate_limit: { rate: 100, per: 60 },
          enable_context_vars: true,
          version_data: {
            not_versioned: true,
            default_version: 'Default',
            versions: {
              Default: {
                name: 'Default',
                use_extended_paths: true,
                global_headers: { 'X-Team': 'orders' },
                global_headers_remove: ['X-Debug'],
                global_size_limit: 2048,
                extended_paths: {
                  ignored: [
                    {
                      path: '/orders/status$',
                      method: 'GET',
                      method_actions: { GET: { action: 'no_action', code: 200, data: '', headers: {} } },
                    },
                  ],
                  black_list: [
                    {
                      path: '/orders/{id}$',
                      method: 'DELETE',
                      method_actions: { DELETE: { action: 'no_action', code: 200, data: '', headers: {} } },
                    },
                  ],
                  rate_limit: [{ path: '/orders$', method: 'POST', enabled: true, rate: 5, per: 60 }],
                  hard_timeouts: [{ path: '/orders/{id}$', method: 'GET', timeout: 3 }],
                  size_limits: [{ path: '/orders$', method: 'POST', size_limit: 1024 }],
                  transform_headers: [
                    { path: '/orders$', method: 'POST', add_headers: { 'X-Write': '1' }, delete_headers: ['X-Trace'] },
                  ],
                  mock_response: [
                    { path: '/orders/status$', method: 'GET', code: 200, body: 'up', headers: { 'X-Mock': 'yes' } },
                  ],
                  track_endpoints: [{ path: '/orders/{id}$', method: 'GET' }],
                },
              },
            },
          },
        });

      it('exports a classic API as OAS and creates an equal API from the export', async () => {
        const created = await api(acme, '/apis', { method: 'POST', body: classic() });
        assert.equal(created.status, 200, created.text);
        const exported = await api(acme, `/apis/oas/${created.json.ID}/export`);
        assert.equal(exported.status, 200, exported.text);
        const document = exported.json;
        assert.equal(document.openapi, '3.0.3');
        assert.equal(document['x-gw-api-gateway'].info.id, created.json.ID);
        assert.deepEqual(document.components.securitySchemes, {
          authToken: { type: 'apiKey', in: 'header', name: 'X-Order-Key' },
        });
        assert.deepEqual(document['x-gw-api-gateway'].middleware.operations['orders/{id}GET'], {
          enforceTimeout: { enabled: true, value: 3 },
          trackEndpoint: { enabled: true },
        });

        document['x-gw-api-gateway'].server.listenPath.value = '/orders-again/';
        const again = await api(acme, '/apis/oas', { method: 'POST', body: document });
        assert.equal(again.status, 200, again.text);
        const original = (await api(acme, `/apis/${created.json.ID}`)).json.api_definition;
        const copy = (await api(acme, `/apis/${again.json.ID}`)).json.api_definition;
        for (const field of [
          'name',
          'use_keyless',
          'strip_auth_data',
          'global_rate_limit',
          'enable_context_vars',
          'active',
        ]) {
          assert.deepEqual(copy[field], original[field], field);
        }
        assert.equal(copy.auth_configs.authToken.auth_header_name, 'X-Order-Key');
        assert.equal(copy.auth_configs.authToken.param_name, 'key');
        assert.equal(copy.proxy.target_url, original.proxy.target_url);
        const [a, b] = [original, copy].map((d) => d.version_data.versions.Default);
        for (const field of ['global_headers', 'global_headers_remove', 'global_size_limit'])
          assert.deepEqual(b[field], a[field], field);
        for (const list of [
          'ignored',
          'black_list',
          'rate_limit',
          'hard_timeouts',
          'size_limits',
          'transform_headers',
          'mock_response',
          'track_endpoints',
        ]) {
          // The OAS form adds switched-off entries where an operation listed first must win over a later catch-all.
          const settings = (b.extended_paths[list] ?? []).filter(
            (entry: { disabled?: boolean }) => entry.disabled !== true,
          );
          assert.deepEqual(settings, a.extended_paths[list], list);
        }
        const secondExport = (await api(acme, `/apis/oas/${again.json.ID}/export`)).json;
        assert.deepEqual(secondExport.paths, document.paths);
        assert.deepEqual(secondExport['x-gw-api-gateway'].middleware, document['x-gw-api-gateway'].middleware);
      });

      it('exports a classic JWT API as an http bearer JWT scheme and creates an API with the same JWT fields', async () => {
        const jwt = {
          use_keyless: false,
          enable_jwt: true,
          jwt_signing_method: 'rsa',
          jwt_source: 'https://idp.example.test/jwks.json',
          jwt_jwks_uris: [{ url: 'https://idp.example.test/keys', cache_timeout: 90 }],
          jwt_identity_base_field: 'user_id',
          jwt_subject_claims: ['user_id', 'sub'],
          jwt_skip_kid: true,
          jwt_policy_field_name: 'pol',
          jwt_base_policy_claims: ['pol'],
          jwt_client_base_field: 'azp',
          scopes: { jwt: { scope_claim_name: 'scope', scope_to_policy: { read: 'p-read', write: 'p-write' } } },
          jwt_default_policies: ['p-default'],
          jwt_issued_at_validation_skew: 1,
          jwt_not_before_validation_skew: 2,
          jwt_expires_at_validation_skew: 3,
          jwt_allowed_issuers: ['https://idp.example.test/'],
          jwt_allowed_audiences: ['orders'],
          jwt_allowed_subjects: ['alice'],
          jwt_require_jti: true,
          idp_client_id_mapping_disabled: true,
          base_identity_provided_by: 'jwt_claim',
          auth_configs: {
            jwt: {
              auth_header_name: 'X-Token',
              use_param: true,
              param_name: 'token',
              use_cookie: true,
              cookie_name: 'jwt',
            },
          },
        };
        const created = await api(acme, '/apis', {
          method: 'POST',
          body: keylessApi('Tokens', '/tokens/', upstream.url, jwt),
        });
        assert.equal(created.status, 200, created.text);
        const exported = await api(acme, `/apis/oas/${created.json.ID}/export`);
        assert.equal(exported.status, 200, exported.text);
        const document = exported.json;
        assert.deepEqual(document.components.securitySchemes, {
          jwtAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        });
        document['x-gw-api-gateway'].server.listenPath.value = '/tokens-again/';
        const again = await api(acme, '/apis/oas', { method: 'POST', body: document });
        assert.equal(again.status, 200, again.text);
        const copy = (await api(acme, `/apis/${again.json.ID}`)).json.api_definition;
        for (const [field, value] of Object.entries(jwt)) assert.deepEqual(copy[field], value, field);
      });

      it('answers the same through the gateway for the classic API and its OAS copy', async () => {
        for (const listenPath of ['/orders', '/orders-again']) {
          const res = await eventually(async () => {
            const r = await http(`${node.gatewayUrl}${listenPath}/orders/status`);
            assert.equal(r.status, 200, `${listenPath}: ${r.text}`);
            return r;
          });
          assert.equal(res.text, 'up');
          assert.equal(res.headers.get('x-mock'), 'yes');
        }
      });
    });

    describe('on the gateway API (/gw/apis/oas)', () => {
      const gatewayDocument = (name = 'Gateway pets') => {
        const document = petstore('/gw-pets/');
        document['x-gw-api-gateway'].info = { name, id: 'gw-pets', state: { active: true } };
        document['x-gw-api-gateway'].server.authentication = { enabled: false };
        return document;
      };

      it('creates, reads, lists, updates and deletes an OAS API, answering as the reference gateway', async () => {
        const created = await gw('/apis/oas', { method: 'POST', body: gatewayDocument() });
        assert.deepEqual(created.json, { key: 'gw-pets', status: 'ok', action: 'added' });
        const served = await http(`${node.gatewayUrl}/gw-pets/pets/mine`);
        assert.equal(served.status, 200, served.text);
        assert.equal(upstream.received.at(-1)!.url, '/pets/mine');

        const read = await gw('/apis/oas/gw-pets');
        assert.equal(read.status, 200);
        assert.equal(read.json['x-gw-api-gateway'].info.id, 'gw-pets');
        assert.ok((await gw('/apis/oas')).json.some((doc: any) => doc['x-gw-api-gateway'].info.id === 'gw-pets'));

        const mismatch = await gw('/apis/oas/gw-pets', {
          method: 'PUT',
          body: {
            ...gatewayDocument(),
            'x-gw-api-gateway': { ...gatewayDocument()['x-gw-api-gateway'], info: { name: 'x', id: 'other-id' } },
          },
        });
        assert.equal(mismatch.status, 400);
        assert.equal(mismatch.json.status, 'error');

        const updated = await gw('/apis/oas/gw-pets', { method: 'PUT', body: gatewayDocument('Renamed pets') });
        assert.deepEqual(updated.json, { key: 'gw-pets', status: 'ok', action: 'modified' });
        assert.equal(
          (await gw('/apis/gw-pets')).json.name,
          'Renamed pets',
          'this node serves the new definition at once',
        );

        const removed = await gw('/apis/oas/gw-pets', { method: 'DELETE' });
        assert.deepEqual(removed.json, { key: 'gw-pets', status: 'ok', action: 'deleted' });
        assert.equal((await http(`${node.gatewayUrl}/gw-pets/pets/mine`)).status, 404);
      });

      it('serves OAS definition files (YAML) from GW_APPS_DIR after a reload, and reports bad ones', async () => {
        mkdirSync(node.config.appsDir, { recursive: true });
        const document = gatewayDocument('Pets from a file');
        document['x-gw-api-gateway'].info.id = 'file-pets';
        document['x-gw-api-gateway'].server.listenPath.value = '/file-pets/';
        writeFileSync(join(node.config.appsDir, 'pets.yaml'), stringify(document));
        const broken = gatewayDocument();
        delete broken['x-gw-api-gateway'].upstream;
        writeFileSync(join(node.config.appsDir, 'broken-oas.json'), JSON.stringify(broken));
        assert.deepEqual((await gw('/reload')).json, { status: 'ok', message: '' });
        const mocked = await http(`${node.gatewayUrl}/file-pets/health`);
        assert.equal(mocked.status, 200);
        assert.deepEqual(mocked.json, { status: 'pass' });
        assert.equal((await gw('/apis/file-pets')).json.name, 'Pets from a file');
        assert.equal((await gw('/apis/gw-pets')).status, 404, 'the broken file is skipped');
      });

      describe('PATCH and export (swagger.yml patchApiOAS, downloadApiOASPublic)', () => {
        const patchDocument = () => {
          const document = gatewayDocument('Patched pets');
          document['x-gw-api-gateway'].info.id = 'gw-patch';
          document['x-gw-api-gateway'].server.listenPath.value = '/gw-patch/';
          return document;
        };
        /** The OpenAPI part alone, as a team edits it: a new title, /health gone, /owners added. */
        const openApiPart = () => {
          const { 'x-gw-api-gateway': _extension, servers: _servers, ...document } = patchDocument();
          document.info = { ...document.info, title: 'Pets, patched' };
          delete document.paths['/health'];
          document.paths['/owners'] = {
            get: {
              operationId: 'listOwners',
              parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }],
              responses: { '200': { description: 'owners' } },
            },
          };
          return document;
        };
        before(async () => {
          const created = await gw('/apis/oas', { method: 'POST', body: patchDocument() });
          assert.equal(created.status, 200, created.text);
        });
        after(() => gw('/apis/oas/gw-patch', { method: 'DELETE' }));

        it('merges an OpenAPI document into the stored one and applies the query options', async () => {
          const res = await gw('/apis/oas/gw-patch?listenPath=/gw-patched/&validateRequest=true', {
            method: 'PATCH',
            body: openApiPart(),
          });
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(res.json, { key: 'gw-patch', status: 'ok', action: 'modified' });
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);

          const stored = (await gw('/apis/oas/gw-patch')).json;
          assert.equal(stored.info.title, 'Pets, patched');
          assert.deepEqual(stored.servers, patchDocument().servers, 'the stored servers stay when none are sent');
          const extension = stored['x-gw-api-gateway'];
          assert.equal(extension.info.name, 'Patched pets', 'the stored extension is kept');
          assert.equal(extension.server.listenPath.value, '/gw-patched/');
          const operations = extension.middleware.operations;
          assert.equal(operations.health, undefined, 'settings of an operation that is gone are dropped');
          assert.deepEqual(operations.listOwners, { validateRequest: { enabled: true, errorResponseCode: 422 } });
          assert.deepEqual(operations.getPet.validateRequest, { enabled: true, errorResponseCode: 422 });
          assert.deepEqual(operations.getPet.rateLimit, { enabled: true, rate: 2, per: '10s' });
          assert.equal(operations.myPets.validateRequest, undefined, 'an operation without input is not validated');

          const served = await eventually(async () => {
            const r = await http(`${node.gatewayUrl}/gw-patched/owners?page=1`);
            assert.equal(r.status, 200, r.text);
            return r;
          });
          assert.equal(served.status, 200);
          assert.equal(upstream.received.at(-1)!.url, '/owners?page=1');
          assert.equal((await http(`${node.gatewayUrl}/gw-patched/owners?page=x`)).status, 422);
        });

        it('takes a document with its own extension and no options as a whole, like PUT', async () => {
          const document = patchDocument();
          document['x-gw-api-gateway'].info.name = 'Whole pets';
          const res = await gw('/apis/oas/gw-patch', { method: 'PATCH', body: document });
          assert.deepEqual(res.json, { key: 'gw-patch', status: 'ok', action: 'modified' });
          const stored = (await gw('/apis/oas/gw-patch')).json;
          assert.equal(stored['x-gw-api-gateway'].info.name, 'Whole pets');
          assert.equal(stored['x-gw-api-gateway'].server.listenPath.value, '/gw-patch/');
          assert.ok(stored.paths['/health'], 'the document replaces the stored one');
        });

        it("refuses an upstreamURL that is not absolute with the reference gateway's text", async () => {
          const res = await gw('/apis/oas/gw-patch?upstreamURL=not-a-url', { method: 'PATCH', body: openApiPart() });
          assert.equal(res.status, 400);
          assert.deepEqual(res.json, {
            status: 'error',
            message:
              'The manually configured upstream URL is not valid. The URL must be absolute and properly formatted ' +
              '(e.g. https://example.com). Please check the URL format and try again.',
          });
          assert.equal((await gw('/apis/oas/no-such-api', { method: 'PATCH', body: openApiPart() })).status, 404);
        });

        it('exports a definition as a file to save: octet stream, attachment, JSON indented by two spaces', async () => {
          const res = await gw('/apis/oas/gw-patch/export');
          assert.equal(res.status, 200, res.text);
          assert.equal(res.headers.get('content-type'), 'application/octet-stream');
          assert.equal(res.headers.get('content-disposition'), 'attachment;filename="GwOasApiDef-gw-patch.json"');
          assert.deepEqual(res.json, (await gw('/apis/oas/gw-patch')).json);
          assert.equal(res.text, JSON.stringify(res.json, null, 2));

          const open = await gw('/apis/oas/gw-patch/export?mode=public');
          assert.equal(open.headers.get('content-disposition'), 'attachment;filename="oas-gw-patch.json"');
          assert.equal(open.json['x-gw-api-gateway'], undefined);

          const all = await gw('/apis/oas/export');
          assert.equal(all.status, 200, all.text);
          assert.equal(all.headers.get('content-type'), 'application/octet-stream');
          assert.equal(all.headers.get('content-disposition'), 'attachment;filename="GwOasApiDef.json"');
          assert.ok(all.json.some((doc: any) => doc['x-gw-api-gateway'].info.id === 'gw-patch'));
        });
      });

      it('refuses a bad document naming the JSON pointer', async () => {
        const document = gatewayDocument();
        document['x-gw-api-gateway'].upstream.rateLimit = { enabled: true, rate: 'lots', per: '1s' };
        const res = await gw('/apis/oas', { method: 'POST', body: document });
        assert.equal(res.status, 400);
        assert.match(res.json.message, /\/x-gw-api-gateway\/upstream\/rateLimit\/rate: must be integer/);
      });
    });
  });
