import { strict as assert } from 'node:assert';
import {
  exchangeInProcess,
  MAX_TOOL_ANSWER_BYTES,
} from '../../../services/proxy/pipeline/mcp/rest-as-mcp/in-process-exchange';

describe('REST as MCP: a request run in process', () => {
  it('hands the handler the method, URL, headers and body, and returns its status, headers and body', async () => {
    let seen: { method?: string; url?: string; key?: string; body: string } | undefined;
    const answer = await exchangeInProcess(
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen = {
            method: req.method,
            url: req.url,
            key: req.headers['x-api-key'] as string,
            body: Buffer.concat(chunks).toString(),
          };
          res.writeHead(201, { 'content-type': 'application/json', 'x-served-by': 'chain' });
          res.end('{"id":1}');
        });
      },
      {
        method: 'POST',
        url: '/pets/a%20b?limit=5',
        headers: { 'x-api-key': 'k1', 'content-type': 'application/json' },
        body: '{"name":"Rex"}',
      },
    );
    assert.deepEqual(seen, { method: 'POST', url: '/pets/a%20b?limit=5', key: 'k1', body: '{"name":"Rex"}' });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.headers['x-served-by'], 'chain');
    assert.equal(answer.body, '{"id":1}');
  });

  it('holds at most MAX_TOOL_ANSWER_BYTES of a streamed answer and says it was cut', async () => {
    const answer = await exchangeInProcess(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const piece = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 20; i++) res.write(piece);
        res.end();
      },
      { method: 'GET', url: '/big', headers: {} },
    );
    assert.ok(answer.body.startsWith('x'.repeat(MAX_TOOL_ANSWER_BYTES)));
    assert.match(
      answer.body.slice(MAX_TOOL_ANSWER_BYTES),
      /^\n\nThe upstream response was truncated after 1048576 bytes/,
    );
  });
});
