import { followRef, isNode, type OasNode } from './oas-refs';
import { jsonMediaType, toolSchema, type JsonSchema } from './rest-tool-schema';

/** Where a tool argument goes in the REST request. */
export type ArgumentLocation = 'path' | 'query' | 'header' | 'body' | 'body-field';

/** One argument of a tool: its place in the request and how it is written there. */
export interface ToolArgument {
  location: ArgumentLocation;
  /** the REST parameter or body field name (the argument may be published under another) */
  sourceName: string;
  /** OAS serialisation of a path, query or header parameter */
  style?: string;
  explode?: boolean;
}

export interface DerivedArguments {
  arguments: Record<string, ToolArgument>;
  /** argument names in the order of the operation (query strings are written in it) */
  order: string[];
  inputSchema: JsonSchema;
  /** the request body's media type, when the operation has one the tool can send */
  bodyContentType?: string;
}

const FORM = 'application/x-www-form-urlencoded';
const PARAMETER_LOCATIONS = ['path', 'query', 'header'];

interface Candidate {
  argument: ToolArgument;
  schema: JsonSchema;
  required: boolean;
}

/**
 * The arguments of an operation: its path item's and its own path, query and header
 * parameters (the operation's replace the path item's of the same name and place), then its
 * JSON (or form) body, as one object's fields when the body is an object with properties,
 * else whole as `body`. A name that two places share is published as `<place>_<name>` for
 * the parameters (body fields keep theirs).
 */
export function deriveArguments(pathItem: OasNode, operation: OasNode, document: OasNode): DerivedArguments {
  const candidates: Candidate[] = [];
  const add = (candidate: Candidate) => {
    const { sourceName, location } = candidate.argument;
    const at = candidates.findIndex((c) => c.argument.sourceName === sourceName && c.argument.location === location);
    if (at === -1) candidates.push(candidate);
    else candidates[at] = candidate;
  };
  for (const list of [pathItem.parameters, operation.parameters])
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = followRef(raw, document);
      if (parameter) addParameter(parameter, document, add);
    }
  const bodyContentType = addBody(operation, document, add);
  return { ...publish(candidates), ...(bodyContentType ? { bodyContentType } : {}) };
}

function addParameter(parameter: OasNode, document: OasNode, add: (c: Candidate) => void): void {
  const { name, in: location } = parameter;
  if (typeof name !== 'string' || !name || typeof location !== 'string') return;
  if (!PARAMETER_LOCATIONS.includes(location)) return;
  const schema = parameter.schema === undefined ? { type: 'string' } : toolSchema(parameter.schema, document, 'string');
  if (typeof parameter.description === 'string' && parameter.description) schema.description = parameter.description;
  const style = typeof parameter.style === 'string' && parameter.style ? parameter.style : defaultStyle(location);
  const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
  add({
    argument: { location: location as ArgumentLocation, sourceName: name, style, explode },
    schema,
    required: parameter.required === true,
  });
}

export function defaultStyle(location: string): string {
  return location === 'query' ? 'form' : 'simple';
}

function addBody(operation: OasNode, document: OasNode, add: (c: Candidate) => void): string | undefined {
  const requestBody = followRef(operation.requestBody, document);
  if (!requestBody) return undefined;
  const chosen = jsonMediaType(requestBody.content) ?? formMediaType(requestBody.content);
  const body = chosen && followRef(chosen.media.schema, document);
  if (!chosen || !body) return undefined;
  const properties = isNode(body.properties) ? body.properties : {};
  if (body.type === 'object' && Object.keys(properties).length > 0) {
    const required = new Set(Array.isArray(body.required) ? body.required : []);
    for (const name of Object.keys(properties).sort())
      add({
        argument: { location: 'body-field', sourceName: name },
        schema: toolSchema(properties[name], document, 'string'),
        required: required.has(name),
      });
  } else {
    add({
      argument: { location: 'body', sourceName: 'body' },
      schema: toolSchema(chosen.media.schema, document, 'object'),
      required: requestBody.required === true,
    });
  }
  return chosen.type;
}

function formMediaType(content: unknown): { type: string; media: OasNode } | undefined {
  if (!isNode(content)) return undefined;
  const type = Object.keys(content).find((t) => {
    const lower = t.trim().toLowerCase();
    return lower === FORM || lower.startsWith(`${FORM};`);
  });
  const media = type === undefined ? undefined : content[type];
  return isNode(media) ? { type: FORM, media } : undefined;
}

function publish(candidates: Candidate[]): Omit<DerivedArguments, 'bodyContentType'> {
  const counts = new Map<string, number>();
  for (const { argument } of candidates) counts.set(argument.sourceName, (counts.get(argument.sourceName) ?? 0) + 1);
  const args: Record<string, ToolArgument> = {};
  const properties: Record<string, JsonSchema> = {};
  const order: string[] = [];
  const required: string[] = [];
  for (const { argument, schema, required: isRequired } of candidates) {
    const inBody = argument.location === 'body' || argument.location === 'body-field';
    const name =
      (counts.get(argument.sourceName) ?? 0) > 1 && !inBody
        ? `${argument.location}_${argument.sourceName}`
        : argument.sourceName;
    if (name in args) throw new RestToolsError(`duplicate exposed parameter name "${name}"`);
    args[name] = argument;
    properties[name] = schema;
    order.push(name);
    if (isRequired) required.push(name);
  }
  const inputSchema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) inputSchema.required = required.sort();
  return { arguments: args, order, inputSchema };
}

/** A document or a primitives list from which no tool catalogue can be made. */
export class RestToolsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestToolsError';
  }
}
