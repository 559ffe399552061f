import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayEvent } from '../../../contracts/events';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { createMcpApi, createMcpKey } from '../../support/mcp';
import { DROP_TOOL, startMcpUpstream, type McpUpstream } from '../../support/mcp-upstream';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { TEST_METRICS_TOKEN } from '../../support/prometheus';

/** The JSON-RPC error code a call was refused with (fails when it was not refused). */
async function refusalCode(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof McpError, `an McpError, got ${String(err)}`);
    return err.code;
  }
  assert.fail('the call was not refused');
}

describe('MCP proxy APIs: an SDK client through gw to an SDK server', function () {
  this.timeout(30_000);
  let node: TestNode;
  let upstream: McpUpstream;
  let jsonUpstream: McpUpstream;
  let key: string;
  const events: GatewayEvent[] = [];
  const clients: Client[] = [];

  const connect = async (path = '/weather/', authorization = key): Promise<Client> => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${node.gatewayUrl}${path}`), {
      requestInit: { headers: { authorization } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const post = (body: string, authorization = key) =>
    http(`${node.gatewayUrl}/weather/`, {
      method: 'POST',
      body,
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });

  before(async () => {
    upstream = await startMcpUpstream();
    jsonUpstream = await startMcpUpstream({ jsonResponses: true });
    node = await startTestNode({
      mcpToolCallTimeout: 1,
      gatewayMetrics: true,
      metricsToken: TEST_METRICS_TOKEN,
      analyticsFlushInterval: 0.05,
    });
    node.broker.createService({
      name: 'event-recorder',
      events: {
        'gw.event.*'(ctx: { params: GatewayEvent }) {
          events.push(ctx.params);
        },
      },
    });
    await node.broker.waitForServices('event-recorder', 5000);
    const primitives = {
      tools: { admin_reset: { block: true } },
      prompts: { greet: { allow: true } },
    };
    await createMcpApi(node, { apiId: 'mcp-weather', listenPath: '/weather/', targetUrl: upstream.url, primitives });
    await createMcpApi(node, { apiId: 'mcp-legacy', listenPath: '/legacy/', targetUrl: upstream.sseUrl, primitives });
    const rights = {
      mcp_access_rights: { tools: { blocked: ['delete_.*'] }, resources: { blocked: ['file:///secret'] } },
      mcp_primitives: [{ type: 'tool', name: 'limited', limit: { rate: 2, per: 60 } }],
    };
    await createMcpApi(node, {
      apiId: 'mcp-open',
      listenPath: '/open/',
      targetUrl: upstream.url,
      keyless: true,
      primitives: { tools: { get_weather: { rate_limit: { rate: 1, per: 60 } } } },
    });
    await createMcpApi(node, { apiId: 'mcp-json', listenPath: '/json/', targetUrl: jsonUpstream.url, primitives });
    jsonKeyRef.value = await createMcpKey(node, 'mcp-json', rights);
    key = await createMcpKey(node, 'mcp-weather', rights);
    const legacyKey = await createMcpKey(node, 'mcp-legacy', rights);
    legacyKeyRef.value = legacyKey;
  });
  const legacyKeyRef = { value: '' };
  const jsonKeyRef = { value: '' };
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await node?.stop();
    await upstream?.close();
    await jsonUpstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('lists only the tools, resources and prompts the API and the key allow', async () => {
    const client = await connect();
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    assert.deepEqual(tools, ['get_weather', 'hold', 'limited', 'progress', DROP_TOOL].sort());
    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    assert.deepEqual(resources, ['file:///readme']);
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    assert.deepEqual(prompts, ['greet']);
  });

  it('passes an allowed tool call, resource and prompt and refuses denied ones with -32002', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'sunny in Paris' }]);
    assert.deepEqual((await client.readResource({ uri: 'file:///readme' })).contents, [
      { uri: 'file:///readme', text: 'read me' },
    ]);
    assert.equal((await client.getPrompt({ name: 'greet' })).messages.length, 1);
    assert.equal(await refusalCode(client.callTool({ name: 'delete_everything' })), -32002, 'blocked by the key');
    assert.equal(await refusalCode(client.callTool({ name: 'admin_reset' })), -32002, 'blocked by the API');
    assert.equal(await refusalCode(client.readResource({ uri: 'file:///secret' })), -32002);
    assert.equal(await refusalCode(client.getPrompt({ name: 'hidden' })), -32002, 'not on the allow list');
    assert.ok(!upstream.calls.includes('delete_everything') && !upstream.calls.includes('admin_reset'));
    await eventually(() =>
      assert.ok(
        events.some((event) => event.event === 'MCPPrimitiveDenied' && event.message.includes('delete_everything')),
      ),
    );
  });

  it('refuses the third call of a tool the key may call twice a minute with -32003', async () => {
    const client = await connect();
    const before = upstream.calls.filter((name) => name === 'limited').length;
    await client.callTool({ name: 'limited' });
    await client.callTool({ name: 'limited' });
    assert.equal(await refusalCode(client.callTool({ name: 'limited' })), -32003);
    assert.equal(upstream.calls.filter((name) => name === 'limited').length - before, 2);
    // the key's limit for the tool, with the request's details
    const event = await eventually(() => {
      const found = events.find(
        (e) => e.event === 'RatelimitExceeded' && String(e.meta?.counter).endsWith(':mcp:tool:limited'),
      );
      assert.ok(found, 'RatelimitExceeded was published');
      return found;
    });
    assert.match(String(event.meta?.path), /^\/\S*/);
    assert.equal(event.meta?.client_ip, '127.0.0.1');
  });

  it("refuses a call over the API's own limit for a tool with -32003, for every caller", async () => {
    const client = await connect('/open/', '');
    await client.callTool({ name: 'get_weather', arguments: { city: 'Nice' } });
    assert.equal(await refusalCode(client.callTool({ name: 'get_weather', arguments: { city: 'Nice' } })), -32003);
    const other = await connect('/open/', '');
    assert.equal(await refusalCode(other.callTool({ name: 'get_weather', arguments: { city: 'Nice' } })), -32003);
    assert.deepEqual(await other.listTools().then((list) => list.tools.length > 0), true, 'other methods pass');
    await eventually(() =>
      assert.ok(
        events.some(
          (event) =>
            event.event === 'RatelimitExceeded' &&
            event.message.includes('tool:get_weather') &&
            event.api_id === 'mcp-open',
        ),
      ),
    );
  });

  it('drops a refused notification with 202, and answers a refused request of a batch by its id', async () => {
    const notification = await post(
      JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'delete_everything' } }),
    );
    assert.equal(notification.status, 202);
    assert.equal(notification.text, '');
    const batch = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'admin_reset' } },
        { jsonrpc: '2.0', id: 'b', method: 'prompts/get', params: { name: 'hidden' } },
      ]),
    );
    assert.equal(batch.status, 200);
    assert.deepEqual(
      batch.json.map((answer: { id: string; error: { code: number } }) => [answer.id, answer.error.code]),
      [
        ['a', -32002],
        ['b', -32002],
      ],
    );
    assert.ok(!upstream.calls.includes('delete_everything') && !upstream.calls.includes('admin_reset'));
  });

  it('forwards the allowed messages of a batch and answers the refused ones next to them', async () => {
    const client = await connect();
    const transport = client.transport as StreamableHTTPClientTransport;
    const res = await http(`${node.gatewayUrl}/weather/`, {
      method: 'POST',
      body: [
        {
          jsonrpc: '2.0',
          id: 'ok',
          method: 'tools/call',
          params: { name: 'get_weather', arguments: { city: 'Bern' } },
        },
        { jsonrpc: '2.0', id: 'no', method: 'tools/call', params: { name: 'admin_reset' } },
      ],
      headers: {
        authorization: key,
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18',
      },
    });
    assert.equal(res.status, 200, res.text);
    const answers = res.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map(
        (line) => JSON.parse(line.slice(6)) as { id: string; result?: { content: unknown }; error?: { code: number } },
      );
    assert.deepEqual(answers.map((answer) => [answer.id, answer.error?.code ?? answer.result?.content]).sort(), [
      ['no', -32002],
      ['ok', [{ type: 'text', text: 'sunny in Bern' }]],
    ]);
  });

  it('filters and refuses the same when the server answers with JSON instead of a stream', async () => {
    const client = await connect('/json/', jsonKeyRef.value);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes('get_weather') && !tools.includes('delete_everything') && !tools.includes('admin_reset'));
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Kyiv' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'sunny in Kyiv' }]);
    assert.equal(await refusalCode(client.callTool({ name: 'delete_everything' })), -32002);
    assert.deepEqual(jsonUpstream.calls, ['get_weather']);
  });

  it("refuses a call past the key's quota for a tool with -32005", async () => {
    const quotaKey = await createMcpKey(node, 'mcp-json', {
      mcp_primitives: [
        { type: 'tool', name: 'limited', limit: { rate: 0, per: 0, quota_max: 1, quota_renewal_rate: 3600 } },
      ],
    });
    const client = await connect('/json/', quotaKey);
    await client.callTool({ name: 'limited' });
    assert.equal(await refusalCode(client.callTool({ name: 'limited' })), -32005);
    assert.equal(jsonUpstream.calls.filter((name) => name === 'limited').length, 1);
    await eventually(() =>
      assert.ok(events.some((event) => event.event === 'QuotaExceeded' && event.api_id === 'mcp-json')),
    );
  });

  it('refuses a bad or missing key with a JSON-RPC error, keeping the HTTP status', async () => {
    await assert.rejects(connect('/weather/', 'not-a-key'), /Access to this API has been disallowed/);
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), 'not-a-key');
    assert.equal(unknown.status, 403);
    assert.deepEqual(unknown.json, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32002, message: 'Access to this API has been disallowed' },
    });
    const missing = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), '');
    assert.equal(missing.status, 401);
    assert.equal(missing.json.error.code, -32001);
  });

  it('answers a malformed JSON-RPC body with -32700 and an oversized one with 413', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, -32700);
    const big = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(1100_000) } }),
    );
    assert.equal(big.status, 413);
    assert.equal(big.json.error.code, -32600);
  });

  it('gives the client -32004 when the server drops the stream, and keeps serving', async () => {
    const client = await connect();
    assert.equal(await refusalCode(client.callTool({ name: DROP_TOOL })), -32004);
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'sunny in Oslo' }]);
  });

  it("refuses to relay to this node's own ports (an MCP server address is a tenant's choice)", async () => {
    const dashboardPort = new URL(node.dashboardUrl).port;
    await createMcpApi(node, {
      apiId: 'mcp-own-port',
      listenPath: '/own-port/',
      targetUrl: `http://127.0.0.1:${dashboardPort}/api/apis`,
      keyless: true,
    });
    const res = await http(`${node.gatewayUrl}/own-port/`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    assert.equal(res.json.id, 7, res.text);
    assert.equal(res.json.error.code, -32004, res.text);
    assert.ok(!JSON.stringify(res.json).includes('"apis"'), 'nothing of the dashboard came back');
  });

  it('passes progress notifications through', async () => {
    const client = await connect();
    const progress: number[] = [];
    const result = await client.callTool({ name: 'progress' }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    assert.deepEqual(progress, [1, 2, 3]);
    assert.deepEqual(result.content, [{ type: 'text', text: 'progress done' }]);
  });

  it('passes a cancellation to the server', async () => {
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'hold' }, undefined, { signal: controller.signal });
    await eventually(() => assert.ok(upstream.calls.includes('hold')), 5000);
    controller.abort('enough');
    await assert.rejects(call);
    await eventually(() => assert.deepEqual(upstream.cancelled, ['hold']), 5000);
  });

  it('bounds a tool call upstream (GW_MCP_TOOL_CALL_TIMEOUT) with -32004', async () => {
    const client = await connect();
    const started = Date.now();
    assert.equal(await refusalCode(client.callTool({ name: 'hold' })), -32004);
    assert.ok(Date.now() - started < 5000, 'answered at the bound, not at the server');
  });

  it('passes the end of a session (DELETE with Mcp-Session-Id) to the server', async () => {
    const client = await connect();
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId;
    assert.ok(sessionId, 'the server gave a session id through gw');
    await transport.terminateSession();
    assert.ok(upstream.deleted.includes(sessionId));
  });

  it('serves the older HTTP+SSE transport, its endpoint rewritten to the listen path', async () => {
    const client = new Client({ name: 'legacy-agent', version: '1.0.0' });
    const transport = new SSEClientTransport(new URL(`${node.gatewayUrl}/legacy/`), {
      requestInit: { headers: { authorization: legacyKeyRef.value } },
    });
    await client.connect(transport);
    clients.push(client);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes('get_weather') && !tools.includes('delete_everything') && !tools.includes('admin_reset'));
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Rome' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'sunny in Rome' }]);
    assert.equal(await refusalCode(client.callTool({ name: 'delete_everything' })), -32002);
  });

  it('counts calls by primitive in gw_mcp_calls_total', async () => {
    const res = await http(`${node.gatewayUrl}/metrics`, {
      headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
    });
    assert.equal(res.status, 200);
    assert.match(
      res.text,
      /gw_mcp_calls_total\{api_id="mcp-weather",mcp_primitive="tool:get_weather",outcome="allowed"\} \d+/,
    );
    assert.match(
      res.text,
      /gw_mcp_calls_total\{api_id="mcp-weather",mcp_primitive="tool:limited",outcome="rate_limited"\} 1/,
    );
  });

  it("tags a call's analytics record with its primitive (mcp_primitive:tool:get_weather)", async () => {
    const client = await connect();
    await client.callTool({ name: 'get_weather', arguments: { city: 'Lima' } });
    await eventually(
      async () => {
        const rows = await node.runtime
          .database()('analytics_records')
          .where({ api_id: 'mcp-weather' })
          .select('records');
        // packed rows hold each record's tags as a JSON array among the row's strings
        const tagLists = rows
          .flatMap((row: { records: string }) => (JSON.parse(row.records) as { strings: string[] }).strings)
          .filter((value: string) => value.startsWith('['))
          .map((value: string) => JSON.parse(value) as string[]);
        assert.ok(tagLists.some((tags: string[]) => tags.includes('mcp_primitive:tool:get_weather')));
      },
      5000,
      50,
    );
  });
});
