import { strict as assert } from 'node:assert';
import { buildRestRequest, InvalidToolArguments } from '../../../lib/mcp/rest-tool-request';
import { deriveRestToolView } from '../../../lib/mcp/rest-tool-view';
import { deriveSourceTools, pathMethodName, RestToolsError, type RestTool } from '../../../lib/mcp/rest-tools';
import { oasFixture } from '../../support/oas-fixtures';

const petstore = () => oasFixture('petstore.yaml', 'http://upstream.test');
const byName = (tools: RestTool[], name: string) => tools.find((t) => t.name === name)!;
const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths,
  ...extra,
});

describe('REST as MCP: the tools of an OAS document', () => {
  describe('the petstore', () => {
    const { tools, warnings } = deriveSourceTools(petstore());

    it('makes each operation a tool named by its operationId, sorted, leaving out the blocked one', () => {
      assert.deepEqual(
        tools.map((t) => t.name),
        ['createPet', 'getPet', 'health', 'listPets', 'myPets'],
      );
      assert.deepEqual(warnings, [{ operation: 'deletePet', reason: 'operation marked blocked - skipped' }]);
    });

    it('describes a read with its summary, query and header parameters, and read-only hints', () => {
      const list = byName(tools, 'listPets');
      assert.equal(list.description, 'List pets, a page at a time');
      assert.deepEqual(list.inputSchema, {
        type: 'object',
        properties: {
          limit: { type: 'integer' },
          'X-Request-Source': { type: 'string', enum: ['web', 'mobile'] },
        },
        required: ['X-Request-Source'],
      });
      assert.deepEqual(list.annotations, {
        title: 'List pets, a page at a time',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      assert.deepEqual(list.outputSchema, {
        type: 'object',
        properties: { result: { type: 'array', items: {} } },
        required: ['result'],
      });
    });

    it('spreads a $ref object body into its fields, required as the schema says, with write hints', () => {
      const create = byName(tools, 'createPet');
      assert.deepEqual(create.inputSchema, {
        type: 'object',
        properties: {
          age: { type: 'integer' },
          name: { type: 'string' },
          species: { type: 'string', enum: ['cat', 'dog', 'bird'] },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['name', 'species'],
      });
      assert.equal(create.bodyContentType, 'application/json');
      assert.deepEqual(create.annotations, {
        title: 'Add a pet',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
    });

    it('takes a path item’s $ref parameter, and titles a tool without summary by its name', () => {
      const get = byName(tools, 'getPet');
      assert.equal(get.description, undefined);
      assert.equal(get.annotations.title, 'getPet');
      assert.deepEqual(get.inputSchema, {
        type: 'object',
        properties: { petId: { type: 'integer', description: "A pet's number." } },
        required: ['petId'],
      });
    });
  });

  describe('edge cases', () => {
    it('names an operation without operationId by method and path, hashed when an operationId has that name', () => {
      const { tools } = deriveSourceTools(
        doc({
          '/orders/{id}/large-item': { get: {} },
          '/foo': { get: { operationId: 'get_orders' } },
          '/orders': { get: {} },
        }),
      );
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('get_orders_id_large_item'));
      assert.ok(names.includes('get_orders'));
      const hashed = names.find((n) => n.startsWith('get_orders_') && n !== 'get_orders_id_large_item')!;
      assert.match(hashed, /^get_orders_[0-9a-f]{8}$/);
      assert.equal(hashed, pathMethodName('GET', '/orders', true));
      assert.equal(byName(tools, hashed).sourceKey, 'http:GET /orders');
    });

    it('refuses two operations with one operationId, and an operationId MCP clients would refuse', () => {
      const same = doc({ '/a': { get: { operationId: 'x' } }, '/b': { get: { operationId: 'x' } } });
      assert.throws(
        () => deriveSourceTools(same),
        (err: Error) => err instanceof RestToolsError && /duplicate tool name "x"/.test(err.message),
      );
      assert.throws(
        () => deriveSourceTools(doc({ '/a': { get: { operationId: 'list pets' } } })),
        /invalid tool name "list pets"/,
      );
    });

    it('prefixes parameters whose name two places share with the place (body fields keep theirs)', () => {
      const { tools } = deriveSourceTools(
        doc({
          '/orders/{id}': {
            post: {
              operationId: 'touch',
              parameters: [
                { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
                { name: 'id', in: 'query', schema: { type: 'string' } },
                { name: 'id', in: 'header', schema: { type: 'string' } },
              ],
              requestBody: {
                content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
              },
            },
          },
        }),
      );
      assert.deepEqual(Object.keys(tools[0].arguments).sort(), ['header_id', 'id', 'path_id', 'query_id']);
      assert.equal(tools[0].arguments.id.location, 'body-field');
      const request = buildRestRequest(tools[0], { path_id: 'a b', query_id: 'q', header_id: 'h', id: 'b' });
      assert.deepEqual(request, {
        method: 'POST',
        path: '/orders/a%20b',
        search: '?id=q',
        headers: { id: 'h', 'content-type': 'application/json' },
        body: '{"id":"b"}',
      });
    });

    it('takes a non-object $ref body whole as "body", and a form body as a form', () => {
      const { tools } = deriveSourceTools(
        doc(
          {
            '/batch': { put: { operationId: 'batch', requestBody: { $ref: '#/components/requestBodies/Batch' } } },
            '/login': {
              post: {
                operationId: 'login',
                requestBody: {
                  content: {
                    'application/x-www-form-urlencoded': {
                      schema: { type: 'object', properties: { user: { type: 'string' } } },
                    },
                  },
                },
              },
            },
          },
          {
            components: {
              requestBodies: {
                Batch: {
                  required: true,
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Ids' } } },
                },
              },
              schemas: { Ids: { type: 'array', items: { type: 'integer' } } },
            },
          },
        ),
      );
      const batch = byName(tools, 'batch');
      assert.deepEqual(batch.inputSchema, {
        type: 'object',
        properties: { body: { type: 'array', items: { type: 'integer' } } },
        required: ['body'],
      });
      assert.equal(buildRestRequest(batch, { body: [1, 2] }).body, '[1,2]');
      const login = buildRestRequest(byName(tools, 'login'), { user: 'a b&c' });
      assert.equal(login.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.equal(login.body, 'user=a+b%26c');
    });

    it('writes array query parameters as their style says', () => {
      const param = (name: string, extra: Record<string, unknown>) => ({
        name,
        in: 'query',
        schema: { type: 'array', items: { type: 'string' } },
        ...extra,
      });
      const { tools } = deriveSourceTools(
        doc({
          '/search': {
            get: {
              operationId: 'search',
              parameters: [
                param('tag', {}),
                param('csv', { explode: false }),
                param('pipe', { style: 'pipeDelimited' }),
              ],
            },
          },
        }),
      );
      const request = buildRestRequest(tools[0], { pipe: ['x', 'y'], tag: ['a', 'b c'], csv: ['1', '2'] });
      assert.equal(request.search, '?tag=a&tag=b+c&csv=1%2C2&pipe=x%7Cy');
    });

    it('refuses unknown arguments, a missing path parameter, and objects where a parameter needs a value', () => {
      const getPet = byName(deriveSourceTools(petstore()).tools, 'getPet');
      assert.throws(
        () => buildRestRequest(getPet, { petId: 1, extra: 2 }),
        (e: Error) => e instanceof InvalidToolArguments && /unknown argument "extra"/.test(e.message),
      );
      assert.throws(() => buildRestRequest(getPet, {}), /missing required path parameter in "\/pets\/\{petId\}"/);
      assert.throws(() => buildRestRequest(getPet, { petId: { a: 1 } }), /cannot serialize argument "petId"/);
      assert.equal(buildRestRequest(getPet, { petId: 7 }).path, '/pets/7');
    });

    it('skips operations the document marks internal, and all without operationId under an allow-list', () => {
      const gateway = (operations: Record<string, unknown>) => ({ 'x-gw-api-gateway': { middleware: { operations } } });
      const paths = { '/a': { get: { operationId: 'a' }, post: {} }, '/b': { get: { operationId: 'b' } } };
      assert.deepEqual(
        deriveSourceTools(doc(paths, gateway({ a: { internal: { enabled: true } } }))).tools.map((t) => t.name),
        ['b', 'post_a'],
      );
      const allowList = deriveSourceTools(doc(paths, gateway({ b: { allow: { enabled: true } } })));
      assert.deepEqual(
        allowList.tools.map((t) => t.name),
        ['b'],
      );
      assert.deepEqual(
        allowList.warnings.map((w) => w.reason),
        [
          'operation not in source allow-list - skipped',
          'operation missing operationId while source allow-list enabled - skipped',
        ],
      );
    });
  });

  describe('x-gw-mcp-server primitives', () => {
    it('offers only the allowed operations when any is allowed, with renames and descriptions', () => {
      const { tools } = deriveRestToolView(petstore(), [
        {
          source: { operationId: 'getPet' },
          allow: true,
          name: 'fetch_pet',
          description: 'One pet by number',
          annotations: { openWorldHint: true },
          parameters: [{ param: 'petId', name: 'id', description: 'The pet number' }],
        },
        { source: { operationId: 'listPets' }, allow: true },
        { source: { operationId: 'createPet' }, name: 'ignored_not_allowed' },
      ]);
      assert.deepEqual(
        tools.map((t) => t.name),
        ['fetch_pet', 'listPets'],
      );
      const fetch = tools[0];
      assert.equal(fetch.description, 'One pet by number');
      assert.equal(fetch.annotations.title, 'fetch_pet');
      assert.equal(fetch.annotations.openWorldHint, true);
      assert.deepEqual(fetch.inputSchema, {
        type: 'object',
        properties: { id: { type: 'integer', description: 'The pet number' } },
        required: ['id'],
      });
      assert.equal(buildRestRequest(fetch, { id: 3 }).path, '/pets/3');
    });

    it('offers everything, renamed, when nothing is allowed; a stale source is a warning, or an error when strict', () => {
      const primitives = [
        { source: { operationId: 'createPet' }, name: 'add_pet' },
        { source: { operationId: 'gone' }, name: 'gone' },
      ];
      const { tools, warnings } = deriveRestToolView(petstore(), primitives);
      assert.deepEqual(
        tools.map((t) => t.name),
        ['add_pet', 'getPet', 'health', 'listPets', 'myPets'],
      );
      assert.ok(warnings.some((w) => w.operation === 'operationId:gone'));
      assert.throws(
        () => deriveRestToolView(petstore(), primitives, true),
        /references unknown or non-exposable source/,
      );
    });

    it('refuses a rename onto another tool’s name, an unknown parameter, and a path selector of an operation with an id', () => {
      assert.throws(
        () => deriveRestToolView(petstore(), [{ source: { operationId: 'getPet' }, name: 'listPets' }]),
        /duplicate exposed tool name "listPets"/,
      );
      assert.throws(
        () =>
          deriveRestToolView(petstore(), [
            { source: { operationId: 'getPet' }, parameters: [{ param: 'nope', name: 'x' }] },
          ]),
        /references unknown parameter "nope"/,
      );
      assert.throws(
        () => deriveRestToolView(petstore(), [{ source: { path: '/pets', method: 'get' } }]),
        /has operationId "listPets"; use source.operationId/,
      );
    });
  });
});
