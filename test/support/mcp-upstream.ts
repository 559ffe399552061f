import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { readText } from './http';

/** A tool that drops its connection before answering (the upstream failing mid-stream). */
export const DROP_TOOL = 'drop_stream';

export interface McpUpstream {
  /** the Streamable HTTP endpoint */
  url: string;
  /** the older HTTP+SSE transport's stream URL */
  sseUrl: string;
  /** the tool calls the server ran, by name */
  calls: string[];
  /** tool calls the client cancelled, seen by the server as an aborted signal */
  cancelled: string[];
  /** the Mcp-Session-Id of the DELETE requests the server got */
  deleted: string[];
  /** the sessions the server opened (one per initialize it got), by id */
  opened: string[];
  /** lets `hold` tool calls finish */
  release(): void;
  close(): Promise<void>;
}

/**
 * An SDK McpServer on port 0, over Streamable HTTP (at /mcp) and the older HTTP+SSE transport
 * (GET /sse, POST /messages). Tools: get_weather, delete_everything, admin_reset, limited,
 * progress (sends progress notifications), hold (waits for release or cancellation) and
 * drop_stream; resources file:///readme and file:///secret; prompts greet and hidden.
 * `jsonResponses`: Streamable HTTP answers POSTs with JSON instead of an event stream.
 */
export async function startMcpUpstream(options: { jsonResponses?: boolean } = {}): Promise<McpUpstream> {
  const calls: string[] = [];
  const cancelled: string[] = [];
  const deleted: string[] = [];
  const opened: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const legacy = new Map<string, SSEServerTransport>();
  const build = () => buildServer({ calls, cancelled, released });

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      legacy.set(transport.sessionId, transport);
      res.on('close', () => legacy.delete(transport.sessionId));
      return build().connect(transport);
    }
    const body = req.method === 'POST' ? JSON.parse(await readText(req)) : undefined;
    if (url.pathname === '/messages') {
      const transport = legacy.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return void res.writeHead(404).end();
      return transport.handlePostMessage(req, res, body);
    }
    if (body?.method === 'tools/call' && body.params?.name === DROP_TOOL) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return void res.socket?.destroy();
    }
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    if (req.method === 'DELETE' && sessionId) deleted.push(sessionId);
    let transport = sessionId ? streamable.get(sessionId) : undefined;
    if (!transport && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: options.jsonResponses === true,
        onsessioninitialized: (id) => {
          opened.push(id);
          streamable.set(id, created);
        },
      });
      created.onclose = () => created.sessionId && streamable.delete(created.sessionId);
      await build().connect(created);
      transport = created;
    }
    if (!transport) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    await transport.handleRequest(req, res, body);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    calls,
    cancelled,
    deleted,
    opened,
    release,
    async close() {
      release();
      for (const transport of [...streamable.values(), ...legacy.values()]) await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function buildServer(record: { calls: string[]; cancelled: string[]; released: Promise<void> }): McpServer {
  const server = new McpServer({ name: 'upstream', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  const simple = (name: string) =>
    server.registerTool(name, { description: name }, async () => {
      record.calls.push(name);
      return text(`${name} done`);
    });
  server.registerTool(
    'get_weather',
    { description: 'weather of a city', inputSchema: { city: z.string() } },
    async ({ city }) => {
      record.calls.push('get_weather');
      return text(`sunny in ${city}`);
    },
  );
  for (const name of ['delete_everything', 'admin_reset', 'limited', DROP_TOOL]) simple(name);
  server.registerTool('progress', { description: 'reports progress' }, async (extra) => {
    record.calls.push('progress');
    const token = extra._meta?.progressToken;
    if (token !== undefined)
      for (let step = 1; step <= 3; step++)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: 3 },
        });
    return text('progress done');
  });
  server.registerTool('hold', { description: 'waits' }, async (extra) => {
    record.calls.push('hold');
    const aborted = new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
    await Promise.race([aborted, record.released]);
    if (extra.signal.aborted) record.cancelled.push('hold');
    return text('hold done');
  });
  server.registerResource('readme', 'file:///readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'read me' }],
  }));
  server.registerResource('secret', 'file:///secret', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'secret' }],
  }));
  server.registerPrompt('greet', { description: 'greets' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
  }));
  server.registerPrompt('hidden', { description: 'hidden' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'psst' } }],
  }));
  return server;
}
