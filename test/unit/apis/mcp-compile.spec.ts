import { strict as assert } from 'node:assert';
import { compileOasDefinition } from '../../../services/apis/lib/oas';

function mcpDocument(url: string, middleware: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    openapi: '3.0.3',
    info: { title: 'MCP', version: '1' },
    paths: {},
    'x-gw-api-gateway': {
      info: { name: 'mcp', state: { active: true } },
      upstream: { url },
      server: { listenPath: { value: '/mcp/', strip: true } },
      middleware,
    },
    ...extra,
  };
}

const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (err) {
    return (err as { data: { errors: string[] } }).data.errors;
  }
  assert.fail('the document was accepted');
};

describe('apis: compiling an MCP API', () => {
  it('compiles each primitive rule; a rateLimit counts only when enabled; per is in seconds', () => {
    const { classic } = compileOasDefinition(
      mcpDocument('https://mcp.example/mcp', {
        mcpTools: {
          a: { rateLimit: { enabled: true, rate: 3, per: '1m30s' } },
          b: { rateLimit: { enabled: false, rate: 3, per: '1s' }, block: { enabled: false } },
        },
        mcpResources: { 'file:///x/*': { allow: { enabled: true } } },
      }),
      { mcp: true },
    );
    assert.deepEqual(classic.mcp, {
      primitives: {
        tools: { a: { rate_limit: { rate: 3, per: 90 } }, b: {} },
        resources: { 'file:///x/*': { allow: true } },
        prompts: {},
      },
    });
  });

  it('names the REST source of a gw:// upstream and keeps x-gw-mcp-server.primitives as sent', () => {
    const primitives = [{ source: { path: '/pets', method: 'GET' }, name: 'pets', parameters: [] }];
    const { classic, document } = compileOasDefinition(
      mcpDocument('gw://pets/mcp', {}, { 'x-gw-mcp-server': { primitives } }),
      { mcp: true },
    );
    assert.equal(classic.proxy.target_url, 'gw://pets/mcp');
    assert.equal((classic.mcp as { rest_source: string }).rest_source, 'pets');
    assert.deepEqual((classic.mcp as { rest_primitives: unknown }).rest_primitives, primitives);
    assert.deepEqual(document['x-gw-mcp-server'], { primitives });
  });

  it('refuses h2c:// upstreams on an MCP API, and every MCP part on any other API', () => {
    assert.match(
      problemsOf(() => compileOasDefinition(mcpDocument('h2c://mcp.example/', {}), { mcp: true }))[0],
      /^\/x-gw-api-gateway\/upstream\/url: must be an http\(s\):\/\/ URL of an MCP server or gw:\/\/<api_id>\/mcp/,
    );
    const problems = problemsOf(() =>
      compileOasDefinition(mcpDocument('gw://pets/mcp', { mcpPrompts: {} }, { 'x-gw-mcp-server': {} })),
    );
    assert.deepEqual(problems, [
      '/x-gw-api-gateway/middleware/mcpPrompts: is for MCP APIs only (/gw/mcps)',
      '/x-gw-mcp-server: is for MCP APIs only (/gw/mcps)',
      '/x-gw-api-gateway/upstream/url: gw://<api_id>/mcp is for MCP APIs only (/gw/mcps)',
    ]);
  });
});
