import type { McpDefinition, McpPrimitiveRule } from '../../../../contracts/apis/api-definition';
import { cloneJson, GATEWAY_EXTENSION, pointer, type OasDocument } from './document';
import { durationSeconds } from './duration';
import type { ClassicInput } from './to-classic';

/** The REST-as-MCP extension: which operations of the REST source become tools, and their names. */
export const MCP_SERVER_EXTENSION = 'x-gw-mcp-server';

/** `middleware.<member>` of `x-gw-api-gateway` → the primitive kind of the classic `mcp` block. */
const PRIMITIVE_MEMBERS = { mcpTools: 'tools', mcpResources: 'resources', mcpPrompts: 'prompts' } as const;

/** `gw://<api_id>/mcp`: the tools of that OAS API, served by this gateway (REST as MCP). */
const REST_SOURCE_TARGET = /^gw:\/\/([^\s/?#]+)\/mcp$/;

interface PrimitiveSettings {
  allow?: { enabled?: boolean };
  block?: { enabled?: boolean };
  rateLimit?: { enabled?: boolean; rate: number; per: string };
}

interface McpParts {
  upstream: { url: string };
  middleware?: Partial<Record<keyof typeof PRIMITIVE_MEMBERS, Record<string, PrimitiveSettings>>>;
}

/** The REST source named by a `gw://<api_id>/mcp` upstream, if the URL is one. */
export function restSourceOf(targetUrl: string | undefined): string | undefined {
  return REST_SOURCE_TARGET.exec(targetUrl ?? '')?.[1];
}

/**
 * What only an MCP API (one written through /gw/mcps) may carry, and what it must: refused on
 * any other API with the pointer of the field, so a document never half-works in the wrong place.
 */
export function mcpProblems(document: OasDocument, isMcp: boolean): string[] {
  const x = document[GATEWAY_EXTENSION] as McpParts;
  const url = x.upstream.url;
  const problems: string[] = [];
  const urlAt = pointer(GATEWAY_EXTENSION, 'upstream', 'url');
  if (!isMcp) {
    for (const member of Object.keys(PRIMITIVE_MEMBERS))
      if (x.middleware?.[member as keyof typeof PRIMITIVE_MEMBERS] !== undefined)
        problems.push(`${pointer(GATEWAY_EXTENSION, 'middleware', member)}: is for MCP APIs only (/gw/mcps)`);
    if (document[MCP_SERVER_EXTENSION] !== undefined)
      problems.push(`/${MCP_SERVER_EXTENSION}: is for MCP APIs only (/gw/mcps)`);
    if (url.startsWith('gw://')) problems.push(`${urlAt}: gw://<api_id>/mcp is for MCP APIs only (/gw/mcps)`);
    return problems;
  }
  if (!/^https?:\/\//.test(url) && restSourceOf(url) === undefined)
    problems.push(`${urlAt}: must be an http(s):// URL of an MCP server or gw://<api_id>/mcp (a REST API as MCP)`);
  problems.push(...rateLimitProblems(x));
  const server = document[MCP_SERVER_EXTENSION];
  if (server !== undefined) problems.push(...mcpServerProblems(server));
  return problems;
}

/** An enabled limit must let something through: a positive rate over a positive period. */
function rateLimitProblems(x: McpParts): string[] {
  const problems: string[] = [];
  for (const member of Object.keys(PRIMITIVE_MEMBERS) as Array<keyof typeof PRIMITIVE_MEMBERS>)
    for (const [name, primitive] of Object.entries(x.middleware?.[member] ?? {})) {
      const limit = primitive.rateLimit;
      if (limit?.enabled !== true) continue;
      const at = pointer(GATEWAY_EXTENSION, 'middleware', member, name, 'rateLimit');
      if (limit.rate <= 0) problems.push(`${at}/rate: must be greater than 0`);
      if (!((durationSeconds(limit.per) ?? 0) > 0)) problems.push(`${at}/per: must be a duration longer than 0s`);
    }
  return problems;
}

/** `x-gw-mcp-server` is stored as sent; only its outline is checked here (the tool derivation reads the rest). */
function mcpServerProblems(server: unknown): string[] {
  if (typeof server !== 'object' || server === null || Array.isArray(server))
    return [`/${MCP_SERVER_EXTENSION}: must be an object`];
  const primitives = (server as { primitives?: unknown }).primitives;
  if (primitives === undefined) return [];
  if (!Array.isArray(primitives)) return [`/${MCP_SERVER_EXTENSION}/primitives: must be an array`];
  return primitives.flatMap((entry, i) =>
    typeof entry === 'object' && entry !== null && !Array.isArray(entry)
      ? []
      : [`/${MCP_SERVER_EXTENSION}/primitives/${i}: must be an object`],
  );
}

/** The classic `mcp` block the gateways run: the API's rule per primitive, and the REST source. */
export function mcpToClassic(document: OasDocument, into: ClassicInput): ClassicInput {
  const x = document[GATEWAY_EXTENSION] as McpParts;
  const mcp: McpDefinition = { primitives: { tools: {}, resources: {}, prompts: {} } };
  for (const [member, kind] of Object.entries(PRIMITIVE_MEMBERS)) {
    const settings = x.middleware?.[member as keyof typeof PRIMITIVE_MEMBERS] ?? {};
    for (const [name, primitive] of Object.entries(settings)) mcp.primitives[kind][name] = primitiveRule(primitive);
  }
  const source = restSourceOf(x.upstream.url);
  if (source !== undefined) {
    mcp.rest_source = source;
    const primitives = (document[MCP_SERVER_EXTENSION] as { primitives?: unknown[] } | undefined)?.primitives;
    if (primitives !== undefined) mcp.rest_primitives = cloneJson(primitives);
  }
  return { ...into, mcp };
}

function primitiveRule(primitive: PrimitiveSettings): McpPrimitiveRule {
  const rule: McpPrimitiveRule = {};
  if (primitive.allow?.enabled === true) rule.allow = true;
  if (primitive.block?.enabled === true) rule.block = true;
  const limit = primitive.rateLimit;
  if (limit?.enabled === true) rule.rate_limit = { rate: limit.rate, per: durationSeconds(limit.per) ?? 0 };
  return rule;
}
