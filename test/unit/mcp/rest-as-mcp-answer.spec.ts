import { strict as assert } from 'node:assert';
import { deriveSourceTools } from '../../../lib/mcp/rest-tools';
import { answerRestAsMcp } from '../../../services/proxy/pipeline/mcp/rest-as-mcp/answer';
import type { RestCall } from '../../../services/proxy/pipeline/mcp/rest-as-mcp/rest-call';
import { oasFixture } from '../../support/oas-fixtures';

describe('REST as MCP: the responder', () => {
  const sent: unknown[] = [];
  const call: RestCall = {
    serverInfo: { name: 'Pets', version: '1' },
    tools: deriveSourceTools(oasFixture('petstore.yaml', 'http://upstream.test')).tools,
    send(request) {
      sent.push(request);
      return Promise.resolve({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' });
    },
  };

  it('answers initialize with the asked protocol version when it is one it speaks, else its newest', async () => {
    const asked = await answerRestAsMcp(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26' } },
      call,
    );
    assert.deepEqual(asked, {
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-03-26',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'Pets', version: '1' },
      },
    });
    const unknown = await answerRestAsMcp(
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '1999-01-01' } },
      call,
    );
    assert.equal((unknown as unknown as { result: { protocolVersion: string } }).result.protocolVersion, '2025-11-25');
  });

  it('answers ping, leaves notifications unanswered, and refuses an unknown method with -32601', async () => {
    assert.deepEqual(await answerRestAsMcp({ jsonrpc: '2.0', id: 'p', method: 'ping' }, call), {
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
    assert.equal(await answerRestAsMcp({ jsonrpc: '2.0', method: 'notifications/initialized' }, call), undefined);
    assert.deepEqual(await answerRestAsMcp({ jsonrpc: '2.0', id: 3, method: 'resources/list' }, call), {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: resources/list' },
    });
  });

  it('gives a non-JSON answer as text only, and refuses an unknown tool with -32602 without a request', async () => {
    const result = await answerRestAsMcp(
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'myPets', arguments: {} } },
      call,
    );
    assert.deepEqual(result, {
      jsonrpc: '2.0',
      id: 4,
      result: {
        content: [{ type: 'text', text: 'ok' }],
        isError: false,
        _meta: { upstreamHttpStatus: 200, upstreamContentType: 'text/plain' },
      },
    });
    const before = sent.length;
    const unknown = await answerRestAsMcp(
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'deletePet', arguments: { petId: 1 } } },
      call,
    );
    assert.deepEqual(unknown, { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'unknown tool "deletePet"' } });
    assert.equal(sent.length, before);
  });
});
