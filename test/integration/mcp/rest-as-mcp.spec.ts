import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PROTOCOL_VERSIONS } from '../../../lib/mcp/json-rpc';
import type { McpServerPrimitive } from '../../../lib/mcp/rest-tool-view';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { oasFixture } from '../../support/oas-fixtures';
import { startUpstream, type Upstream } from '../../support/upstream';

/**
 * The petstore offered as MCP tools, end to end as a user sets it up: an OAS API, an MCP API on
 * the dashboard whose upstream is `gw://<petstore>/mcp`, and the official SDK's client connected
 * to the MCP API's listen path with a gw key. Each tool call runs through the petstore's own
 * chain (its auth, validation, transforms) with that key.
 */
describe('REST as MCP: the petstore as MCP tools, with the official SDK client', () => {
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let apiId: string;
  let otherApiId: string;
  let document: Record<string, any>;
  let mcpApis = 0;
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });

  /**
   * An MCP API offering the petstore's operations (through `primitives`), and a client connected
   * to it with a new key that may use the MCP API and the REST APIs `restApis`.
   */
  const connect = async (restApis: string[], primitives: McpServerPrimitive[] = [], source = apiId) => {
    const listenPath = `/pets-mcp-${++mcpApis}/`;
    const mcp = {
      openapi: '3.0.3',
      info: { title: 'Petstore MCP', version: '1.2.0' },
      paths: {},
      components: { securitySchemes: document.components.securitySchemes },
      security: document.security,
      'x-gw-api-gateway': {
        info: { name: 'Petstore MCP', state: { active: true } },
        upstream: { url: `gw://${source}/mcp` },
        server: {
          listenPath: { value: listenPath, strip: true },
          authentication: document['x-gw-api-gateway'].server.authentication,
        },
      },
      ...(primitives.length > 0 ? { 'x-gw-mcp-server': { primitives } } : {}),
    };
    const created = await dashboard('/mcps', { method: 'POST', body: mcp });
    assert.equal(created.status, 200, created.text);
    const mcpId = created.json.ID as string;
    const access = Object.fromEntries([mcpId, ...restApis].map((id) => [id, { api_id: id }]));
    const keyRes = await dashboard('/keys', { method: 'POST', body: { access_rights: access } });
    assert.equal(keyRes.status, 200, keyRes.text);
    const key = keyRes.json.key_id as string;
    const url = new URL(`${node.gatewayUrl}${listenPath}`);
    await eventually(async () => assert.notEqual((await http(url.href, { method: 'POST', body: '{}' })).status, 404));
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': key } } }));
    return { client, key };
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'McpPets');
    document = oasFixture('petstore.yaml', upstream.url);
    // the upstream sees the caller's key: that is the identity these tests look for
    document['x-gw-api-gateway'].server.authentication.stripAuthorizationData = false;
    const created = await dashboard('/apis/oas', { method: 'POST', body: document });
    assert.equal(created.status, 200, created.text);
    apiId = created.json.ID;
    const other = oasFixture('petstore.yaml', upstream.url);
    other['x-gw-api-gateway'].info.name = 'Other';
    other['x-gw-api-gateway'].server.listenPath.value = '/other-pets/';
    const otherCreated = await dashboard('/apis/oas', { method: 'POST', body: other });
    assert.equal(otherCreated.status, 200, otherCreated.text);
    otherApiId = otherCreated.json.ID;
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('speaks the protocol revisions of the SDK', () => {
    assert.deepEqual(MCP_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS);
  });

  it('initializes with the server name and the tools capability, and lists the operations as tools', async () => {
    const { client } = await connect([apiId]);
    assert.equal(client.getServerVersion()?.name, 'Petstore MCP');
    assert.ok(client.getServerCapabilities()?.tools);
    await client.ping();
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['createPet', 'getPet', 'health', 'listPets', 'myPets'],
    );
    const list = tools.find((t) => t.name === 'listPets')!;
    assert.equal(list.description, 'List pets, a page at a time');
    assert.equal(list.annotations?.readOnlyHint, true);
    assert.deepEqual(list.inputSchema.required, ['X-Request-Source']);
    await client.close();
  });

  it('calls two tools: the upstream gets the REST requests with the caller’s key, the client the answers', async () => {
    const { client, key } = await connect([apiId]);
    const before = upstream.received.length;

    const listed = (await client.callTool({
      name: 'listPets',
      arguments: { limit: 5, 'X-Request-Source': 'mobile' },
    })) as CallToolResult;
    assert.equal(listed.isError, false);
    const listRequest = upstream.received[before];
    assert.equal(listRequest.method, 'GET');
    assert.equal(listRequest.url, '/pets?limit=5');
    assert.equal(listRequest.headers['x-api-key'], key);
    assert.equal(listRequest.headers['x-request-source'], 'mobile');
    assert.equal(listRequest.headers['x-gateway'], 'gw', 'the REST API’s own header transform ran');
    assert.deepEqual(listed.content, [
      { type: 'text', text: JSON.stringify({ method: 'GET', url: '/pets?limit=5', body: '' }) },
    ]);
    assert.deepEqual(listed.structuredContent, { method: 'GET', url: '/pets?limit=5', body: '' });

    const created = (await client.callTool({
      name: 'createPet',
      arguments: { name: 'Rex', species: 'dog', tags: ['good'] },
    })) as CallToolResult;
    assert.equal(created.isError, false);
    const createRequest = upstream.received[before + 1];
    assert.equal(createRequest.method, 'POST');
    assert.equal(createRequest.url, '/pets');
    assert.equal(createRequest.headers['x-api-key'], key);
    assert.equal(createRequest.headers['x-pet-write'], 'yes');
    assert.deepEqual(JSON.parse(createRequest.body), { name: 'Rex', species: 'dog', tags: ['good'] });
    assert.equal(upstream.received.length, before + 2);
    await client.close();
  });

  it('refuses arguments that do not match the tool’s input schema with -32602, before any request', async () => {
    const { client } = await connect([apiId]);
    const before = upstream.received.length;
    await assert.rejects(
      client.callTool({ name: 'getPet', arguments: { petId: 'seven' } }),
      (err: unknown) => err instanceof McpError && err.code === -32602 && /petId.*must be integer/.test(err.message),
    );
    await assert.rejects(
      client.callTool({ name: 'getPet', arguments: { petId: 7, owner: 'me' } }),
      (err: unknown) => err instanceof McpError && err.code === -32602 && /unknown argument "owner"/.test(err.message),
    );
    await assert.rejects(
      client.callTool({ name: 'createPet', arguments: { name: 'Rex' } }),
      (err: unknown) => err instanceof McpError && err.code === -32602 && /species/.test(err.message),
    );
    assert.equal(upstream.received.length, before);
    await client.close();
  });

  it('gives the REST API’s refusal as error content to a key without access to it', async () => {
    const { client } = await connect([otherApiId]);
    const before = upstream.received.length;
    const result = (await client.callTool({ name: 'getPet', arguments: { petId: 7 } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [
      { type: 'text', text: JSON.stringify({ error: 'Access to this API has been disallowed' }) },
    ]);
    assert.equal(result.structuredContent, undefined);
    assert.equal(upstream.received.length, before);
    await client.close();
  });

  it('gives the REST API’s own validation and limits as error content (its chain runs)', async () => {
    const { client } = await connect([apiId]);
    const invalid = (await client.callTool({
      name: 'listPets',
      arguments: { limit: 500, 'X-Request-Source': 'web' },
    })) as CallToolResult;
    assert.equal(invalid.isError, true);
    assert.match((invalid.content[0] as { text: string }).text, /parameter \\"limit\\" in query has an error/);
  });

  it("applies the REST API's IP rules to the caller's address, not the gateway's own", async () => {
    const blocked = oasFixture('petstore.yaml', upstream.url);
    blocked['x-gw-api-gateway'].info.name = 'Blocked pets';
    blocked['x-gw-api-gateway'].server.listenPath.value = '/blocked-pets/';
    blocked['x-gw-api-gateway'].server.ipAccessControl = {
      enabled: true,
      block: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
    };
    const created = await dashboard('/apis/oas', { method: 'POST', body: blocked });
    assert.equal(created.status, 200, created.text);
    const blockedId = created.json.ID as string;
    const { client } = await connect([blockedId], [], blockedId);
    const before = upstream.received.length;
    const result = (await client.callTool({ name: 'getPet', arguments: { petId: 7 } })) as CallToolResult;
    assert.equal(result.isError, true, JSON.stringify(result));
    assert.equal(upstream.received.length, before, 'the blocked caller reached nothing');
    await client.close();
  });

  it('offers only the allowed primitives, renamed, and calls the renamed tool', async () => {
    const { client, key } = await connect(
      [apiId],
      [
        {
          source: { operationId: 'getPet' },
          allow: true,
          name: 'fetch_pet',
          parameters: [{ param: 'petId', name: 'id' }],
        },
      ],
    );
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['fetch_pet'],
    );
    const before = upstream.received.length;
    const result = (await client.callTool({ name: 'fetch_pet', arguments: { id: 42 } })) as CallToolResult;
    assert.equal(result.isError, false);
    assert.equal(upstream.received[before].url, '/pets/42');
    assert.equal(upstream.received[before].headers['x-api-key'], key);
    await assert.rejects(
      client.callTool({ name: 'getPet', arguments: { petId: 1 } }),
      (err: unknown) => err instanceof McpError && err.code === -32602,
    );
    await client.close();
  });
});
