import { strict as assert } from 'node:assert';
import { http } from './http';
import type { TestNode } from './node';

export interface McpApiOptions {
  apiId: string;
  listenPath: string;
  /** the remote MCP server (Streamable HTTP endpoint, or the older transport's SSE URL) */
  targetUrl: string;
  /** the `mcp.primitives` rules by kind */
  primitives?: {
    tools?: Record<string, unknown>;
    resources?: Record<string, unknown>;
    prompts?: Record<string, unknown>;
  };
  /** keyed APIs take an Authorization key unless this is true */
  keyless?: boolean;
}

/**
 * Creates an MCP API on the node, served when this resolves. The one place tests create MCP
 * APIs: it posts the compiled classic definition (with its `mcp` block) to /gw/apis until
 * /gw/mcps takes the OAS form.
 */
export async function createMcpApi(node: TestNode, options: McpApiOptions): Promise<void> {
  const definition = {
    api_id: options.apiId,
    name: options.apiId,
    use_keyless: options.keyless === true,
    active: true,
    proxy: { listen_path: options.listenPath, target_url: options.targetUrl, strip_listen_path: true },
    mcp: {
      primitives: {
        tools: options.primitives?.tools ?? {},
        resources: options.primitives?.resources ?? {},
        prompts: options.primitives?.prompts ?? {},
      },
    },
  };
  const res = await http(`${node.gatewayUrl}/gw/apis`, { method: 'POST', body: definition, headers: node.gwHeaders });
  assert.equal(res.status, 200, res.text);
}

/** A key with the given MCP rights and primitive limits on one API; returns the key. */
export async function createMcpKey(
  node: TestNode,
  apiId: string,
  access: { mcp_access_rights?: unknown; mcp_primitives?: unknown } = {},
): Promise<string> {
  const session = {
    rate: 1000,
    per: 1,
    quota_max: -1,
    access_rights: { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], ...access } },
  };
  const res = await http(`${node.gatewayUrl}/gw/keys`, { method: 'POST', body: session, headers: node.gwHeaders });
  assert.equal(res.status, 200, res.text);
  return res.json.key as string;
}
