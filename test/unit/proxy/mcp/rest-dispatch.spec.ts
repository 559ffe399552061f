import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { CompiledApi } from '../../../../services/proxy/pipeline/compiled-api';
import { mcpStep } from '../../../../services/proxy/pipeline/mcp/mcp-step';
import type { RestAsMcpRequest, RestAsMcpResponder } from '../../../../services/proxy/pipeline/mcp/rest-dispatch';
import { RequestContext } from '../../../../services/proxy/pipeline/request-context';
import { http } from '../../../support/http';

describe('MCP step: the REST-as-MCP dispatch point', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; request: RestAsMcpRequest }> = [];
  const responder: RestAsMcpResponder = async (message, request) => {
    seen.push({ method: message.method, request });
    return message.id === undefined ? undefined : { jsonrpc: '2.0', id: message.id, result: { from: 'rest' } };
  };
  const definition = {
    api_id: 'pets-mcp',
    org_id: 'org1',
    proxy: { listen_path: '/pets-mcp/', target_url: 'gw://pets/mcp' },
    mcp: { primitives: { tools: { deletePet: { block: true } }, resources: {}, prompts: {} }, rest_source: 'pets' },
  } as unknown as ApiDefinition;
  const step = mcpStep(definition, {
    maxMessageBytes: 1024,
    toolCallTimeoutMs: 1000,
    check: () => ({ ok: true }),
    emitEvent: () => undefined,
    restAsMcp: responder,
    exchange: () => Promise.reject(new Error('no REST API behind this test')),
  })!;

  before(async () => {
    server = createServer((req, res) => {
      const ctx = new RequestContext(req, res, { definition } as CompiledApi, req.url!, '', '/pets-mcp'.length);
      void step(ctx);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pets-mcp`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('hands the messages that pass to the responder, with the REST API named, and refuses the rest itself', async () => {
    const res = await http(url, {
      method: 'POST',
      body: [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listPets' } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deletePet' } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, [
      { jsonrpc: '2.0', id: 2, error: { code: -32002, message: "tool 'deletePet' is not available" } },
      { jsonrpc: '2.0', id: 1, result: { from: 'rest' } },
    ]);
    assert.deepEqual(
      seen.map((call) => [call.method, call.request.sourceApiId]),
      [
        ['tools/call', 'pets'],
        ['notifications/initialized', 'pets'],
      ],
    );
  });

  it('answers GET on a REST-as-MCP API with 405 (it has no server stream)', async () => {
    const res = await http(url);
    assert.equal(res.status, 405);
    assert.equal(res.json.error.code, -32600);
  });
});
