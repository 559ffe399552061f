import { strict as assert } from 'node:assert';
import { http } from './http';
import type { TestNode } from './node';

/** An API's rule for one primitive, in the classic form (`allow`, `block`, `rate_limit` with `per` in seconds). */
interface PrimitiveRule {
  allow?: boolean;
  block?: boolean;
  rate_limit?: { rate: number; per: number };
}

export interface McpApiOptions {
  apiId: string;
  listenPath: string;
  /** the remote MCP server (Streamable HTTP endpoint, or the older transport's SSE URL) */
  targetUrl: string;
  /** the API's rules by kind and primitive, written into `middleware.mcpTools|mcpResources|mcpPrompts` */
  primitives?: {
    tools?: Record<string, PrimitiveRule>;
    resources?: Record<string, PrimitiveRule>;
    prompts?: Record<string, PrimitiveRule>;
  };
  /** keyed APIs take an Authorization key unless this is true */
  keyless?: boolean;
}

/**
 * Creates an MCP API on the node as a user does, an OAS document posted to /gw/mcps; served by
 * the node when this resolves.
 */
export async function createMcpApi(node: TestNode, options: McpApiOptions): Promise<void> {
  const keyed = options.keyless !== true;
  const document = {
    openapi: '3.0.3',
    info: { title: options.apiId, version: '1.0.0' },
    paths: {},
    ...(keyed
      ? {
          components: { securitySchemes: { authToken: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
          security: [{ authToken: [] }],
        }
      : {}),
    'x-gw-api-gateway': {
      info: { id: options.apiId, name: options.apiId, state: { active: true } },
      upstream: { url: options.targetUrl },
      server: {
        listenPath: { value: options.listenPath, strip: true },
        ...(keyed ? { authentication: { enabled: true, securitySchemes: { authToken: { enabled: true } } } } : {}),
      },
      middleware: {
        mcpTools: middlewareOf(options.primitives?.tools),
        mcpResources: middlewareOf(options.primitives?.resources),
        mcpPrompts: middlewareOf(options.primitives?.prompts),
      },
    },
  };
  const res = await http(`${node.gatewayUrl}/gw/mcps`, { method: 'POST', body: document, headers: node.gwHeaders });
  assert.equal(res.status, 200, res.text);
}

/** Classic primitive rules as the OAS form's `middleware.mcp*` writes them. */
function middlewareOf(rules: Record<string, PrimitiveRule> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [
      name,
      {
        ...(rule.allow ? { allow: { enabled: true } } : {}),
        ...(rule.block ? { block: { enabled: true } } : {}),
        ...(rule.rate_limit
          ? { rateLimit: { enabled: true, rate: rule.rate_limit.rate, per: `${rule.rate_limit.per}s` } }
          : {}),
      },
    ]),
  );
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
