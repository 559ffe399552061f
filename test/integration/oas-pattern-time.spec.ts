import { strict as assert } from 'node:assert';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * A tenant's schema `pattern` runs on RE2 (lib/openapi/schema-compiler.ts): checking a request
 * against `^(a+)+$` takes linear time, where a backtracking engine would hold the event loop for
 * minutes on 40 characters.
 */
describe('OAS request validation: a catastrophic schema pattern', function () {
  this.timeout(30_000);
  let node: TestNode;
  let upstream: Upstream;

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    const created = await http(`${node.gatewayUrl}/gw/apis/oas`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: {
        openapi: '3.0.3',
        info: { title: 'Names', version: '1.0.0' },
        paths: {
          '/names': {
            post: {
              operationId: 'addName',
              requestBody: {
                required: true,
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } },
                  },
                },
              },
              responses: { '200': { description: 'added' } },
            },
          },
        },
        'x-gw-api-gateway': {
          info: { id: 'names', name: 'Names', state: { active: true } },
          upstream: { url: upstream.url },
          server: { listenPath: { value: '/names-api/', strip: true } },
          middleware: { operations: { addName: { validateRequest: { enabled: true, errorResponseCode: 422 } } } },
        },
      },
    });
    assert.equal(created.status, 200, created.text);
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('refuses a document whose schema pattern RE2 cannot run, naming why', async () => {
    const created = await http(`${node.gatewayUrl}/gw/apis/oas`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: {
        openapi: '3.0.3',
        info: { title: 'Lookahead', version: '1.0.0' },
        paths: {
          '/x': {
            post: {
              operationId: 'addX',
              requestBody: {
                content: { 'application/json': { schema: { type: 'string', pattern: '^(?=a)a$' } } },
              },
              responses: { '200': { description: 'ok' } },
            },
          },
        },
        'x-gw-api-gateway': {
          info: { id: 'lookahead', name: 'Lookahead', state: { active: true } },
          upstream: { url: upstream.url },
          server: { listenPath: { value: '/lookahead/', strip: true } },
          middleware: { operations: { addX: { validateRequest: { enabled: true } } } },
        },
      },
    });
    assert.equal(created.status, 400, created.text);
    assert.match(created.text, /unsupported Perl syntax/);
  });

  const post = (name: string) => http(`${node.gatewayUrl}/names-api/names`, { method: 'POST', body: { name } });

  it('refuses a value built to backtrack at once, and still serves a matching one', async () => {
    const startedAt = Date.now();
    const refused = await post(`${'a'.repeat(40)}!`);
    assert.equal(refused.status, 422, refused.text);
    assert.ok(Date.now() - startedAt < 1000, `answered in ${Date.now() - startedAt} ms`);
    const accepted = await post('aaaa');
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(upstream.received.at(-1)?.url, '/names');
  });
});
