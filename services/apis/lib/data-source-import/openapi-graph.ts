import { ApisErrors } from '../../errors';
import {
  descriptionLine,
  printGraphSchema,
  uniqueNames,
  type GeneratedGraph,
  type RestDataSource,
  type RootFields,
} from './generated-graph';
import { camelCase, fieldNameFromEndpoint, pascalCase, refName } from './graphql-names';
import { SchemaTypes, type JsonSchema, type ResolvedSchema } from './schema-types';

/* eslint-disable @typescript-eslint/no-explicit-any -- an OpenAPI document is read as plain JSON */
type Json = Record<string, any>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  content?: Record<string, { schema?: JsonSchema }>;
}

/** Queries for GET, mutations for the methods that change something (the reference's rule, with PATCH). */
const OPERATION_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Converts a validated OpenAPI 3.0 document into a combined graph, as the reference gateway's
 * importer does: a Query field per GET operation and a Mutation field per other operation, named
 * after the operationId (or method and path), arguments from parameters and the request body
 * (input types named `<Schema>Input`), result types from the success response's JSON schema,
 * and one REST data source per field calling the operation on the document's server with the
 * arguments templated into path, query, headers and body.
 */
export function openApiGraph(document: Json, baseUrl: string): GeneratedGraph & { dataSources: RestDataSource[] } {
  const types = new SchemaTypes((schema) => resolveSchema(document, schema));
  const roots: RootFields = { Query: [], Mutation: [], Subscription: [] };
  const dataSources: RestDataSource[] = [];
  const fieldNames = uniqueNames();
  for (const [path, rawItem] of Object.entries<Json>(document.paths ?? {})) {
    const item = deref(document, rawItem);
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const rootType = method === 'get' ? 'Query' : 'Mutation';
      const field = fieldNames(
        operation.operationId ? camelCase(operation.operationId) : fieldNameFromEndpoint(method, path),
      );
      const request = requestOf(
        document,
        types,
        field,
        path,
        [...(item.parameters ?? []), ...(operation.parameters ?? [])],
        operation.requestBody,
      );
      const result = resultType(document, types, operation, path, field);
      const args = request.args.length > 0 ? `(${request.args.join(', ')})` : '';
      roots[rootType].push(
        `${descriptionLine([operation.summary, operation.description])}  ${field}${args}: ${result}`,
      );
      dataSources.push({
        kind: 'REST',
        name: field,
        internal: false,
        root_fields: [{ type: rootType, fields: [field] }],
        config: {
          url: `${baseUrl}${request.path}`,
          method: method.toUpperCase(),
          headers: request.headers,
          query: request.query,
          body: request.body,
        },
      });
    }
  }
  const fieldConfigs = dataSources.map((source) => ({
    type_name: source.root_fields[0].type,
    field_name: source.root_fields[0].fields[0],
    disable_default_mapping: true,
    path: [''],
  }));
  return {
    title: String(document.info?.title ?? 'Imported data graph'),
    sdl: printGraphSchema(roots, types.sdl()),
    dataSources,
    fieldConfigs: [...fieldConfigs, ...types.fieldConfigs],
  };
}

interface RequestTemplate {
  args: string[];
  path: string;
  query: Array<{ name: string; value: string }>;
  headers: Record<string, string>;
  body: string;
}

/** Arguments of one operation and where each goes in the upstream request. */
function requestOf(
  document: Json,
  types: SchemaTypes,
  field: string,
  path: string,
  rawParameters: unknown[],
  rawBody: unknown,
): RequestTemplate {
  const request: RequestTemplate = { args: [], path, query: [], headers: {}, body: '' };
  const argNames = uniqueNames();
  for (const parameter of operationParameters(document, rawParameters)) {
    if (parameter.in === 'cookie') continue;
    const arg = argNames(camelCase(parameter.name));
    const schema = parameter.schema ?? parameter.content?.['application/json']?.schema ?? { type: 'string' };
    request.args.push(
      `${arg}: ${types.input(schema, `${field} ${parameter.name}`, parameter.in === 'path' || parameter.required === true)}`,
    );
    const value = `{{.arguments.${arg}}}`;
    if (parameter.in === 'path') request.path = request.path.split(`{${parameter.name}}`).join(value);
    else if (parameter.in === 'query') request.query.push({ name: parameter.name, value });
    else request.headers[parameter.name] = value;
  }
  const body = rawBody ? deref(document, rawBody) : undefined;
  const bodySchema = body ? jsonSchemaOf(body.content) : undefined;
  if (bodySchema) {
    const name = resolveSchema(document, bodySchema).name ?? field;
    const arg = argNames(camelCase(`${name} Input`));
    request.args.push(`${arg}: ${types.input(bodySchema, name, body!.required === true)}`);
    request.body = `{{.arguments.${arg}}}`;
    request.headers['Content-Type'] = 'application/json';
  }
  return request;
}

/** Path-level parameters overridden by the operation's own (same `in` and `name`). */
function operationParameters(document: Json, raw: unknown[]): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const entry of raw) {
    const parameter = deref(document, entry) as Parameter;
    if (typeof parameter?.name === 'string') byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

/** The type of the first success response's JSON body; `String` when it has none (as the reference). */
function resultType(document: Json, types: SchemaTypes, operation: Json, path: string, field: string): string {
  const responses = Object.entries<Json>(operation.responses ?? {})
    .filter(([status]) => /^2(\d\d|XX)$/i.test(status))
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [, raw] of responses) {
    const schema = jsonSchemaOf(deref(document, raw).content);
    if (schema) return types.output(schema, typeNameFromPath(path) ?? pascalCase(field));
  }
  return 'String';
}

/** The reference names an unnamed response object after the path's last segment (`/pets/{id}` → `Pets`). */
function typeNameFromPath(path: string): string | undefined {
  const segment = path
    .split('/')
    .filter((part) => part !== '' && !part.startsWith('{'))
    .pop();
  return segment ? pascalCase(segment) : undefined;
}

/** `application/json`, else any `+json` media type. */
function jsonSchemaOf(content: Record<string, { schema?: JsonSchema }> | undefined): JsonSchema | undefined {
  if (!content) return undefined;
  const type =
    Object.keys(content).find((media) => /^application\/json\b/i.test(media)) ??
    Object.keys(content).find((media) => /\+json\b/i.test(media));
  return type ? content[type].schema : undefined;
}

/** Follows a chain of local references; the name is the first component's. */
function resolveSchema(document: Json, schema: JsonSchema): ResolvedSchema {
  let current = schema;
  let name: string | undefined;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 32; hops++) {
    name ??= refName(current.$ref);
    current = pointer(document, current.$ref) as JsonSchema;
  }
  return { schema: current ?? {}, name };
}

function deref(document: Json, value: any): any {
  let current = value;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 32; hops++) current = pointer(document, current.$ref);
  return current ?? {};
}

function pointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/'))
    throw ApisErrors.importInvalid(`Only references inside the document are followed; '${ref}' points outside it`);
  let current: any = document;
  for (const segment of ref.slice(2).split('/')) current = current?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (current === undefined) throw ApisErrors.importInvalid(`Reference '${ref}' points at nothing in the document`);
  return current;
}
