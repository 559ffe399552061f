import { strict as assert } from 'node:assert';
import { restLoopRequest } from '../../../services/proxy/pipeline/mcp/rest-as-mcp/loop-request';

describe('REST as MCP: a tool call as a loop into the REST API', () => {
  it('carries the caller’s credentials, not the MCP exchange’s headers, and lets the tool’s headers win', () => {
    const loop = restLoopRequest(
      'api 1',
      {
        authorization: 'Bearer abc',
        'x-api-key': 'k1',
        cookie: 'sid=1',
        'content-type': 'application/json',
        'content-length': '120',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 's-1',
        'mcp-protocol-version': '2025-06-18',
        host: 'gw.example.com',
        'x-request-source': 'web',
      },
      {
        method: 'POST',
        path: '/pets/a%20b',
        search: '?limit=5',
        headers: { 'x-request-source': 'mobile', 'content-type': 'application/json' },
        body: '{"name":"Rex"}',
      },
    );
    assert.equal(loop.url.protocol, 'gw:');
    assert.equal(decodeURIComponent(loop.url.hostname), 'api 1');
    assert.equal(loop.url.pathname, '/pets/a%20b');
    assert.equal(loop.url.search, '?limit=5');
    assert.equal(loop.method, 'POST');
    assert.deepEqual(loop.headers, {
      authorization: 'Bearer abc',
      'x-api-key': 'k1',
      cookie: 'sid=1',
      accept: 'application/json, */*',
      'x-request-source': 'mobile',
      'content-type': 'application/json',
    });
    assert.equal(loop.body, '{"name":"Rex"}');
  });

  it('sends no body and no content type for a tool call without one', () => {
    const loop = restLoopRequest(
      'a',
      { 'content-type': 'application/json' },
      {
        method: 'GET',
        path: '/pets',
        search: '',
        headers: {},
      },
    );
    assert.equal(loop.body, undefined);
    assert.equal(loop.headers['content-type'], undefined);
    assert.equal(loop.url.href, 'gw://a/pets');
  });
});
