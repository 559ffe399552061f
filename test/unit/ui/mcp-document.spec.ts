import { strict as assert } from 'node:assert';
import {
  remoteToolsOf,
  restSourceOf,
  restToolsOf,
  withDeniedTool,
  withToolAllowed,
  withToolBlocked,
} from '../../../ui/src/mcp-document';

/** The documents as the tests look into them. */
const open = (document: unknown) => document as Record<string, any>;

function remote(): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'Weather MCP', version: '1.0.0' },
    paths: {},
    'x-gw-api-gateway': {
      info: { id: 'weather', name: 'Weather MCP' },
      upstream: { url: 'http://mcp.internal:7878/mcp' },
      middleware: {
        mcpTools: {
          get_forecast: { rateLimit: { enabled: true, rate: 10, per: '1m' } },
          admin_reset: { block: { enabled: true } },
        },
      },
    },
  };
}

function restAsMcp(): Record<string, any> {
  const document = remote();
  document['x-gw-api-gateway'].upstream.url = 'gw://petstore/mcp';
  delete document['x-gw-api-gateway'].middleware;
  document['x-gw-mcp-server'] = {
    primitives: [
      {
        source: { operationId: 'getPet' },
        name: 'fetch_pet',
        allow: true,
        parameters: [{ param: 'petId', name: 'id' }],
      },
    ],
  };
  return document;
}

/** The MCP pages' document edits: what the tool switches change in the document the page PUTs. */
describe('ui: MCP API tool switches', () => {
  it('tells REST as MCP from a remote MCP server by its upstream', () => {
    assert.equal(restSourceOf(restAsMcp()), 'petstore');
    assert.equal(restSourceOf(remote()), undefined);
  });

  it('lists the expanded catalogue of a REST-as-MCP API with each tool allowed or not', () => {
    const expanded = restAsMcp();
    expanded['x-gw-mcp-server'].primitives = [
      { source: { operationId: 'getPet' }, name: 'fetch_pet', allow: true, inputSchema: { type: 'object' } },
      { source: { path: '/pets', method: 'post' }, name: 'post_pets', description: 'Add a pet', allow: false },
    ];
    assert.deepEqual(restToolsOf(expanded), [
      { source: { operationId: 'getPet' }, name: 'fetch_pet', allow: true },
      { source: { path: '/pets', method: 'post' }, name: 'post_pets', description: 'Add a pet', allow: false },
    ]);
  });

  it("switches a stored primitive's allow and keeps its rename and parameter overrides and the rest of the document", () => {
    const stored = restAsMcp();
    const changed = open(withToolAllowed(stored, { operationId: 'getPet' }, false));
    const expected = restAsMcp();
    expected['x-gw-mcp-server'].primitives[0].allow = false;
    assert.deepEqual(changed, expected);
    assert.equal(stored['x-gw-mcp-server'].primitives[0].allow, true, 'the document read is not changed');
  });

  it('adds a primitive for a tool the stored document does not name yet, matched by method and path too', () => {
    const changed = open(withToolAllowed(restAsMcp(), { path: '/pets', method: 'post' }, true));
    assert.deepEqual(changed['x-gw-mcp-server'].primitives[1], {
      source: { path: '/pets', method: 'post' },
      allow: true,
    });
    const again = open(withToolAllowed(changed, { path: '/pets', method: 'POST' }, false));
    assert.equal(again['x-gw-mcp-server'].primitives.length, 2, 'the same source is not added twice');
    assert.equal(again['x-gw-mcp-server'].primitives[1].allow, false);
    const fresh = restAsMcp();
    delete fresh['x-gw-mcp-server'];
    assert.deepEqual(open(withToolAllowed(fresh, { operationId: 'listPets' }, true))['x-gw-mcp-server'], {
      primitives: [{ source: { operationId: 'listPets' }, allow: true }],
    });
  });

  it("lists a remote MCP API's named tools, denied when block is enabled", () => {
    assert.deepEqual(remoteToolsOf(remote()), [
      { name: 'get_forecast', denied: false },
      { name: 'admin_reset', denied: true },
    ]);
    assert.deepEqual(remoteToolsOf(restAsMcp()), []);
  });

  it("denies and allows a remote tool through block, keeping the tool's other rules", () => {
    const document = remote();
    const denied = open(withToolBlocked(document, 'get_forecast', true));
    assert.deepEqual(denied['x-gw-api-gateway'].middleware.mcpTools.get_forecast, {
      rateLimit: { enabled: true, rate: 10, per: '1m' },
      block: { enabled: true },
    });
    const allowed = open(withToolBlocked(denied, 'admin_reset', false));
    assert.deepEqual(allowed['x-gw-api-gateway'].middleware.mcpTools.admin_reset, { block: { enabled: false } });
    assert.deepEqual(document, remote(), 'the document read is not changed');
  });

  it('adds a denied tool by name, creating middleware.mcpTools when absent, and refuses a blank name', () => {
    const document = restAsMcp();
    assert.deepEqual(open(withDeniedTool(document, '  delete_all '))['x-gw-api-gateway'].middleware, {
      mcpTools: { delete_all: { block: { enabled: true } } },
    });
    assert.throws(() => withDeniedTool(document, '   '), /Enter the name of the tool to deny/);
  });
});
