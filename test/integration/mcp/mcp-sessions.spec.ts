import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { createMcpApi, createMcpKey } from '../../support/mcp';
import { startMcpUpstream, type McpUpstream } from '../../support/mcp-upstream';
import { removeDir, startTestNode, type TestNode } from '../../support/node';

const MAX_SESSIONS = 2;
const IDLE_SECONDS = 2;

describe('MCP sessions: a bound per key, an idle end, kept across reloads', function () {
  this.timeout(30_000);
  let node: TestNode;
  let upstream: McpUpstream;
  const clients: Client[] = [];

  const connect = async (authorization: string): Promise<Client> => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${node.gatewayUrl}/sessions/`), {
      requestInit: { headers: { authorization } },
    });
    clients.push(client);
    await client.connect(transport);
    return client;
  };
  const sessionOf = (client: Client): string => {
    const id = (client.transport as StreamableHTTPClientTransport).sessionId;
    assert.ok(id, 'the server gave a session id through gw');
    return id;
  };
  const end = (client: Client) => (client.transport as StreamableHTTPClientTransport).terminateSession();

  before(async () => {
    upstream = await startMcpUpstream();
    node = await startTestNode({ mcpMaxSessionsPerKey: MAX_SESSIONS, mcpSessionIdleTimeout: IDLE_SECONDS });
    await createMcpApi(node, { apiId: 'mcp-sessions', listenPath: '/sessions/', targetUrl: upstream.url });
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('refuses a key its third session with -32003, the server never asked, while another key connects', async () => {
    const key = await createMcpKey(node, 'mcp-sessions');
    const other = await createMcpKey(node, 'mcp-sessions');
    const held = [await connect(key), await connect(key)];
    const openedBefore = upstream.opened.length;
    try {
      await connect(key);
      assert.fail('the third session was opened');
    } catch (err) {
      assert.ok(err instanceof McpError, `an McpError, got ${String(err)}`);
      assert.equal(err.code, -32003);
      assert.match(err.message, /GW_MCP_MAX_SESSIONS_PER_KEY/);
    }
    assert.equal(upstream.opened.length, openedBefore, 'the refused initialize did not reach the server');
    const client = await connect(other);
    assert.deepEqual((await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } })).content, [
      { type: 'text', text: 'sunny in Oslo' },
    ]);

    // ending a session (DELETE) frees its place
    const ended = sessionOf(held[0]);
    await end(held[0]);
    assert.ok(upstream.deleted.includes(ended));
    await connect(key);
  });

  it('forgets a session idle past GW_MCP_SESSION_IDLE_TIMEOUT: 404, the server told, the client opens a new one', async () => {
    const key = await createMcpKey(node, 'mcp-sessions');
    const idle = await connect(key);
    const sessionId = sessionOf(idle);
    // the gateway ends the forgotten session upstream: waiting on that touches nothing of it
    await eventually(() => assert.ok(upstream.deleted.includes(sessionId)), (IDLE_SECONDS + 5) * 1000, 100);
    const res = await http(`${node.gatewayUrl}/sessions/`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      headers: {
        authorization: key,
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.json.jsonrpc, '2.0');
    assert.match(res.json.error.message, /Session not found/);
    await assert.rejects(idle.listTools());
    const again = await connect(key);
    assert.notEqual(sessionOf(again), sessionId);
    assert.ok((await again.listTools()).tools.some((tool) => tool.name === 'get_weather'));
  });

  it('keeps a live session across a /gw/reload that leaves its API as it was', async () => {
    const key = await createMcpKey(node, 'mcp-sessions');
    const client = await connect(key);
    await connect(key);
    const sessionId = sessionOf(client);
    const openedBefore = upstream.opened.length;
    assert.equal((await http(`${node.gatewayUrl}/gw/reload`, { headers: node.gwHeaders })).status, 200);
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Rome' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'sunny in Rome' }]);
    assert.equal(sessionOf(client), sessionId);
    assert.equal(upstream.opened.length, openedBefore, 'no new session was opened');
    assert.ok(!upstream.deleted.includes(sessionId));
    // the key still holds both its places: the reload forgot neither session
    await assert.rejects(connect(key), (err: unknown) => err instanceof McpError && err.code === -32003);
  });
});
