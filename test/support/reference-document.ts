import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The reference gateway's API document, renamed for gw (test/fixtures/reference-gateway-api). */
export const REFERENCE_DOCUMENT = join(__dirname, '..', 'fixtures', 'reference-gateway-api', 'gateway-api.yml');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const DOCUMENT_ID = 'gateway-api';

type Json = Record<string, any>;

/** One operation of the document: where it is, and what it may answer. */
export interface DocumentOperation {
  id: string;
  method: string;
  /** the path template, e.g. `/gw/apis/{apiID}` */
  path: string;
  /** status code -> media type -> schema (undefined when the status has no body) */
  responses: Record<string, Record<string, unknown> | undefined>;
  /** the examples of the JSON request body the document gives (`example`, then `examples`) */
  requestExamples: unknown[];
}

export interface ReferenceDocument {
  operations: Map<string, DocumentOperation>;
  /** Checks an answer's status and body against what the document lists for the operation. */
  check(operationId: string, status: number, contentType: string, body: string): string[];
}

/** Loads the document, compiles its components once, and returns a checker for answers. */
export function loadReferenceDocument(file = REFERENCE_DOCUMENT): ReferenceDocument {
  const document = parse(readFileSync(file, 'utf8')) as Json;
  const operations = operationsOf(document);
  // OpenAPI 3.0 schema objects carry annotations JSON Schema lacks (`example`, `x-*`), so
  // unknown keywords are ignored rather than refused; `nullable` is rewritten below.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: toJsonSchema(document.components.schemas, false) } });
  const compiled = new Map<unknown, ValidateFunction>();
  const validatorOf = (schema: unknown) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema, true) as Json);
      compiled.set(schema, validate);
    }
    return validate;
  };

  return {
    operations,
    check(operationId, status, contentType, body) {
      const operation = operations.get(operationId);
      if (!operation) return [`the document has no operation ${operationId}`];
      const listed = Object.keys(operation.responses);
      if (!(String(status) in operation.responses)) {
        return [`status ${status} is not one the document lists (${listed.join(', ')})`];
      }
      const media = operation.responses[String(status)];
      if (!media) return [];
      const type = contentType.split(';')[0].trim().toLowerCase();
      const schema = media[type];
      if (schema === undefined) {
        return [`content type '${type}' is not one the document lists (${Object.keys(media).join(', ')})`];
      }
      let value: unknown = body;
      if (type === 'application/json') {
        try {
          value = JSON.parse(body);
        } catch {
          return [`the body is not JSON: ${body.slice(0, 200)}`];
        }
      }
      const validate = validatorOf(schema);
      return validate(value) ? [] : (validate.errors ?? []).map(describeError);
    },
  };
}

function operationsOf(document: Json): Map<string, DocumentOperation> {
  const operations = new Map<string, DocumentOperation>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      const responses: DocumentOperation['responses'] = {};
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Json)) {
        const content = (response as Json).content as Json | undefined;
        responses[status] = content
          ? Object.fromEntries(Object.entries(content).map(([type, media]) => [type, (media as Json).schema ?? {}]))
          : undefined;
      }
      const body = operation.requestBody?.content?.['application/json'] as Json | undefined;
      const requestExamples = [
        ...(body?.example === undefined ? [] : [body.example]),
        ...Object.values((body?.examples ?? {}) as Json).map((example) => (example as Json).value),
      ];
      operations.set(operation.operationId as string, {
        id: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        responses,
        requestExamples,
      });
    }
  }
  return operations;
}

/**
 * An OpenAPI 3.0 schema as JSON Schema: `nullable: true` admits null; a reference to the
 * document's components points into the compiled document (`inResponse`: from outside it); a
 * reference outside the document (the OAS API schema on GitHub) is not fetched, and stands for
 * any object.
 */
function toJsonSchema(schema: unknown, inResponse: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, inResponse));
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Json;
  if (typeof source.$ref === 'string') {
    const ref = source.$ref;
    if (!ref.startsWith('#/')) return { type: 'object' };
    return { $ref: inResponse ? `${DOCUMENT_ID}${ref}` : ref };
  }
  const converted: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example') continue;
    // `properties` and `additionalProperties` maps hold schemas under names that are not keywords.
    converted[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value as Json).map(([name, sub]) => [name, toJsonSchema(sub, inResponse)]))
        : toJsonSchema(value, inResponse);
  }
  if (source.nullable !== true) return converted;
  if (typeof converted.type !== 'string') return { anyOf: [{ type: 'null' }, converted] };
  converted.type = [converted.type, 'null'];
  if (Array.isArray(converted.enum)) converted.enum = [...converted.enum, null];
  return converted;
}

function describeError(error: ErrorObject): string {
  return `${error.instancePath || '(body)'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;
}
