import { followRef, isNode, type OasNode } from './oas-refs';

/** A JSON Schema as published in tools/list. */
export type JsonSchema = Record<string, unknown>;

const SCHEMA_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'];
/** Beyond this depth a schema is published as `{}` (any value): deep enough for real bodies. */
const MAX_DEPTH = 32;

/** The JSON type an OAS schema names, or inferred from its properties or items; '' when unknown. */
export function schemaType(schema: OasNode | undefined): string {
  if (!schema) return '';
  const declared = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (typeof declared === 'string' && SCHEMA_TYPES.includes(declared)) return declared;
  if (isNode(schema.properties) && Object.keys(schema.properties).length > 0) return 'object';
  if (schema.items !== undefined) return 'array';
  return '';
}

/**
 * The published form of an OAS schema: a small subset of JSON Schema (type, description, format,
 * enum, properties, required, items) that every MCP client reads the same way. References are
 * followed; one that recurs into itself becomes `{}`.
 */
export function toolSchema(
  source: unknown,
  document: OasNode,
  fallbackType: string,
  seen: readonly unknown[] = [],
): JsonSchema {
  const out: JsonSchema = fallbackType ? { type: fallbackType } : {};
  const schema = followRef(source, document);
  if (!schema || seen.includes(schema) || seen.length > MAX_DEPTH) return out;
  const inside = [...seen, schema];
  const type = schemaType(schema);
  if (type) out.type = type;
  if (typeof schema.description === 'string' && schema.description) out.description = schema.description;
  if (typeof schema.format === 'string' && schema.format) out.format = schema.format;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) out.enum = [...schema.enum];
  if (isNode(schema.properties) && Object.keys(schema.properties).length > 0) {
    const properties: Record<string, JsonSchema> = {};
    for (const name of Object.keys(schema.properties).sort())
      properties[name] = toolSchema(schema.properties[name], document, '', inside);
    out.properties = properties;
  }
  if (Array.isArray(schema.required) && schema.required.length > 0)
    out.required = schema.required.filter((n): n is string => typeof n === 'string').sort();
  if (schema.items !== undefined) out.items = toolSchema(schema.items, document, '', inside);
  return out;
}

/** The JSON media type of a content map: `application/json` first, then the first `*json*` by name. */
export function jsonMediaType(content: unknown): { type: string; media: OasNode } | undefined {
  if (!isNode(content)) return undefined;
  const types = Object.keys(content);
  const exact = types.find((t) => t.trim().toLowerCase() === 'application/json');
  const chosen = exact ?? types.filter((t) => t.toLowerCase().includes('json')).sort()[0];
  const media = chosen === undefined ? undefined : content[chosen];
  return chosen !== undefined && isNode(media) ? { type: chosen.trim(), media } : undefined;
}

/**
 * The schema of a successful tool result: the JSON answer of 200, else of the lowest other 2xx
 * (204 has none). A non-object answer is published under `result`, as structuredContent carries it.
 */
export function outputSchema(operation: OasNode, document: OasNode): JsonSchema | undefined {
  const responses = followRef(operation.responses, document);
  if (!responses) return undefined;
  const statuses = Object.keys(responses)
    .filter((s) => /^2\d\d$/.test(s) && s !== '200' && s !== '204')
    .sort();
  for (const status of ['200', ...statuses]) {
    const response = followRef(responses[status], document);
    const json = response && jsonMediaType(response.content);
    if (!json || followRef(json.media.schema, document) === undefined) continue;
    const schema = toolSchema(json.media.schema, document, '');
    if (schema.type === 'object') return schema;
    return { type: 'object', properties: { result: schema }, required: ['result'] };
  }
  return undefined;
}
