import { strict as assert } from 'node:assert';
import { compileApiRules, keyAllows } from '../../../../services/proxy/pipeline/mcp/access-rules';
import { codeForStatus, parseBody } from '../../../../services/proxy/pipeline/mcp/jsonrpc';
import { filterListAnswer, listRequests } from '../../../../services/proxy/pipeline/mcp/list-filter';
import { classify } from '../../../../services/proxy/pipeline/mcp/primitive';
import { SseEventSplitter } from '../../../../services/proxy/pipeline/mcp/sse-events';
import { endpointForClient, upstreamUrl } from '../../../../services/proxy/pipeline/mcp/upstream-exchange';

describe('MCP rules (services/proxy/pipeline/mcp)', () => {
  it('classifies the methods that use a primitive, and passes the others', () => {
    const message = (method: string, params?: Record<string, unknown>) => ({
      jsonrpc: '2.0' as const,
      id: 1,
      method,
      params,
    });
    assert.deepEqual(classify(message('tools/call', { name: 'get_weather' })), { kind: 'tool', name: 'get_weather' });
    for (const method of ['resources/read', 'resources/subscribe', 'resources/unsubscribe'])
      assert.deepEqual(classify(message(method, { uri: 'file:///a' })), { kind: 'resource', name: 'file:///a' });
    assert.deepEqual(classify(message('prompts/get', { name: 'greet' })), { kind: 'prompt', name: 'greet' });
    assert.equal(classify(message('tools/call', {})), 'invalid');
    for (const method of ['initialize', 'ping', 'tools/list', 'notifications/cancelled'])
      assert.equal(classify(message(method)), undefined);
  });

  it("applies the API's allow-list per kind and its blocks", () => {
    const rules = compileApiRules({
      primitives: { tools: { a: { allow: true }, b: { block: true } }, resources: { r: { block: true } }, prompts: {} },
    });
    assert.equal(rules('tool', 'a').allowed, true);
    assert.equal(rules('tool', 'b').allowed, false);
    assert.equal(rules('tool', 'c').allowed, false, 'not on the allow-list');
    assert.equal(rules('resource', 'r').allowed, false);
    assert.equal(rules('resource', 'other').allowed, true, 'no allow-list for resources');
    assert.equal(rules('prompt', 'any').allowed, true);
  });

  it("anchors the key's patterns, lets blocked win and treats a non-empty allowed list as an allow-list", () => {
    const rights = { tools: { allowed: ['get_.*', 'delete_one'], blocked: ['get_secret'] } };
    assert.equal(keyAllows(rights, 'tool', 'get_weather'), true);
    assert.equal(keyAllows(rights, 'tool', 'get_secret'), false);
    assert.equal(keyAllows(rights, 'tool', 'delete_one'), true);
    assert.equal(keyAllows(rights, 'tool', 'delete_one_more'), false, 'anchored at the end');
    assert.equal(keyAllows(rights, 'tool', 'xget_weather'), false, 'anchored at the start');
    assert.equal(keyAllows(rights, 'prompt', 'anything'), true);
    assert.equal(
      keyAllows({ tools: { blocked: ['(unclosed'] } }, 'tool', '(unclosed'),
      false,
      'a bad pattern matches itself',
    );
  });

  it('removes the primitives the caller may not use from list answers only', () => {
    const lists = listRequests([{ jsonrpc: '2.0', id: 7, method: 'tools/list' }]);
    const answer = { jsonrpc: '2.0', id: 7, result: { tools: [{ name: 'a' }, { name: 'b' }] } };
    assert.equal(
      filterListAnswer(answer, lists, (_kind, name) => name === 'a'),
      true,
    );
    assert.deepEqual(answer.result.tools, [{ name: 'a' }]);
    const other = { jsonrpc: '2.0', id: 8, result: { tools: [{ name: 'b' }] } };
    assert.equal(
      filterListAnswer(other, lists, () => false),
      false,
      'not the answer to a list request',
    );
  });

  it('parses single messages and batches, and refuses what is not JSON-RPC', () => {
    assert.deepEqual(parseBody(Buffer.from('{"jsonrpc":"2.0","method":"ping","id":1}')), {
      ok: true,
      batch: false,
      messages: [{ jsonrpc: '2.0', method: 'ping', id: 1 }],
    });
    assert.equal(
      (parseBody(Buffer.from('[{"jsonrpc":"2.0","method":"ping","id":1}]')) as { batch: boolean }).batch,
      true,
    );
    const bad = parseBody(Buffer.from('{nope'));
    assert.ok(!bad.ok && bad.error.error?.code === -32700);
    const empty = parseBody(Buffer.from('[]'));
    assert.ok(!empty.ok && empty.error.error?.code === -32600);
  });

  it("maps the gateway's HTTP refusals to the reference's JSON-RPC codes", () => {
    const table: Array<[number, boolean, number]> = [
      [400, false, -32600],
      [401, false, -32001],
      [403, false, -32002],
      [403, true, -32005],
      [404, false, -32601],
      [429, false, -32003],
      [500, false, -32603],
      [502, false, -32004],
      [504, false, -32004],
    ];
    for (const [status, quota, code] of table) assert.equal(codeForStatus(status, quota), code, `${status}`);
  });

  it('splits an event stream into whole events across chunks', () => {
    const splitter = new SseEventSplitter();
    assert.deepEqual(splitter.push(Buffer.from('event: message\r\ndata: {"a"')), []);
    assert.deepEqual(splitter.push(Buffer.from(':1}\r\n\r\ndata: x\n\n')), [
      'event: message\ndata: {"a":1}\n\n',
      'data: x\n\n',
    ]);
    assert.equal(splitter.rest(), '');
  });

  it("maps the older transport's endpoint below the listen path, and nothing on another origin", () => {
    const target = new URL('http://mcp.internal:8080/sse');
    assert.equal(endpointForClient('/messages?sessionId=1', target, '/weather'), '/weather/messages?sessionId=1');
    assert.equal(endpointForClient('http://mcp.internal:8080/m?s=2', target, '/weather/'), '/weather/m?s=2');
    assert.equal(endpointForClient('http://evil.example/m', target, '/weather'), undefined);
    assert.equal(upstreamUrl(target, '/', ''), 'http://mcp.internal:8080/sse');
    assert.equal(upstreamUrl(target, '/messages', '?sessionId=1'), 'http://mcp.internal:8080/messages?sessionId=1');
  });
});
