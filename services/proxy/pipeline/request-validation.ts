import type { ErrorObject, ValidateFunction } from 'ajv';
import { openApiAjv } from '../../../lib/openapi/schema-compiler';
import { readCookie } from './credentials';
import type { RequestContext } from './request-context';

/**
 * Request validation against an operation's OpenAPI 3.0 schema (`validate_request`) or a JSON
 * schema of the body (`validate_json`), compiled once per definition with ajv. Failures answer
 * with the reference gateway's shape: `{"error": "request validation error: <what>"}`, 422
 * unless the entry names another `error_response_code`.
 */
export interface ValidationFailure {
  status: number;
  message: string;
}
export type RequestValidator = (
  ctx: RequestContext,
) => ValidationFailure | undefined | Promise<ValidationFailure | undefined>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface ParameterCheck {
  parameter: OpenApiParameter;
  validate: ValidateFunction | undefined;
  isArray: boolean;
}

const DEFAULT_STATUS = 422;
const PREFIX = 'request validation error: ';

export function compileRequestValidator(entry: Record<string, unknown>): RequestValidator | undefined {
  const parameters = Array.isArray(entry.parameters) ? (entry.parameters as OpenApiParameter[]) : [];
  const body = entry.request_body as
    { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } | undefined;
  if (parameters.length === 0 && !body) return undefined;
  const status = Number(entry.error_response_code) || DEFAULT_STATUS;
  const paramAjv = openApiAjv(true);
  const bodyAjv = openApiAjv(false);
  const template = typeof entry.path === 'string' ? entry.path.replace(/\$$/, '') : '/';
  const checks: ParameterCheck[] = parameters.map((parameter) => ({
    parameter,
    validate: parameter.schema ? paramAjv.compile(parameter.schema) : undefined,
    isArray: parameter.schema?.type === 'array',
  }));
  const bodySchemas = Object.entries(body?.content ?? {}).map(([mediaType, media]) => ({
    mediaType: mediaType.toLowerCase(),
    validate: media?.schema && isJsonMediaType(mediaType) ? bodyAjv.compile(media.schema) : undefined,
  }));
  return (ctx) => {
    const problem = checkParameters(ctx, checks, template);
    if (problem) return { status, message: PREFIX + problem };
    if (!body) return undefined;
    return checkBody(ctx, body.required === true, bodySchemas).then((bodyProblem) =>
      bodyProblem ? { status, message: PREFIX + bodyProblem } : undefined,
    );
  };
}

/** `validate_json`: the body must be JSON matching `schema` (an object, or JSON text of one). */
export function compileJsonBodyValidator(entry: Record<string, unknown>): RequestValidator | undefined {
  const schema =
    typeof entry.schema === 'string'
      ? (JSON.parse(entry.schema) as Record<string, unknown>)
      : (entry.schema as Record<string, unknown> | undefined);
  if (!schema || typeof schema !== 'object') return undefined;
  const status = Number(entry.error_response_code) || DEFAULT_STATUS;
  const validate = openApiAjv(false).compile(schema);
  return async (ctx) => {
    const problem = await checkBody(ctx, true, [{ mediaType: '*/*', validate }]);
    return problem ? { status, message: PREFIX + problem } : undefined;
  };
}

function checkParameters(ctx: RequestContext, checks: ParameterCheck[], template: string): string | undefined {
  if (checks.length === 0) return undefined;
  const query = ctx.search === '' ? undefined : new URLSearchParams(ctx.search);
  const pathValues = checks.some((c) => c.parameter.in === 'path') ? pathParameters(template, ctx.relativePath) : {};
  for (const { parameter, validate, isArray } of checks) {
    const raw = parameterValue(ctx, parameter, query, pathValues, isArray);
    const where = `parameter "${parameter.name}" in ${parameter.in} has an error: `;
    if (raw === undefined) {
      if (parameter.required || parameter.in === 'path') return `${where}value is required but missing`;
      continue;
    }
    // The schema sees numbers and booleans: ajv coerces the string it is given (coerceTypes).
    if (validate && !validate(raw)) return where + describe(validate.errors);
  }
  return undefined;
}

function parameterValue(
  ctx: RequestContext,
  parameter: OpenApiParameter,
  query: URLSearchParams | undefined,
  pathValues: Record<string, string>,
  isArray: boolean,
): unknown {
  switch (parameter.in) {
    case 'path':
      return pathValues[parameter.name];
    case 'query': {
      const values = query?.getAll(parameter.name) ?? [];
      if (values.length === 0) return undefined;
      return isArray ? values.flatMap((v) => v.split(',')) : values[0];
    }
    case 'header': {
      const value = ctx.req.headers[parameter.name.toLowerCase()];
      if (value === undefined) return undefined;
      return isArray
        ? String(value)
            .split(',')
            .map((v) => v.trim())
        : Array.isArray(value)
          ? value[0]
          : value;
    }
    case 'cookie':
      return readCookie(ctx.req.headers.cookie, parameter.name);
    default:
      return undefined;
  }
}

/** `/pets/{petId}` against `/pets/12` → `{petId: '12'}` (each placeholder is one segment). */
function pathParameters(template: string, relativePath: string): Record<string, string> {
  const names = template.split('/');
  const values = relativePath.split('/');
  const out: Record<string, string> = {};
  names.forEach((segment, i) => {
    const match = /^\{([^/{}]+)\}$/.exec(segment);
    if (match && values[i] !== undefined && values[i] !== '') out[match[1]] = safeDecode(values[i]);
  });
  return out;
}

async function checkBody(
  ctx: RequestContext,
  required: boolean,
  schemas: Array<{ mediaType: string; validate: ValidateFunction | undefined }>,
): Promise<string | undefined> {
  const body = await ctx.readBody();
  if (body.length === 0) return required ? 'request body has an error: value is required but missing' : undefined;
  const contentType = String(ctx.req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const media =
    schemas.find((s) => s.mediaType === contentType) ??
    schemas.find((s) => mediaRangeMatches(s.mediaType, contentType));
  if (!media) return `request body has an error: header Content-Type has unexpected value: "${contentType}"`;
  if (!media.validate) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return `request body has an error: failed to decode request body: ${(err as Error).message}`;
  }
  if (media.validate(parsed)) return undefined;
  return `request body has an error: doesn't match schema: ${describe(media.validate.errors)}`;
}

/** ajv's first error in the words kin-openapi (the reference gateway's validator) uses. */
function describe(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'invalid value';
  const at = first.instancePath === '' ? '' : first.instancePath;
  if (first.keyword === 'required')
    return `Error at "${at}/${String(first.params.missingProperty)}": property "${String(first.params.missingProperty)}" is missing`;
  if (first.keyword === 'additionalProperties')
    return `Error at "${at}": property "${String(first.params.additionalProperty)}" is unsupported`;
  return `Error at "${at}": ${first.message ?? 'invalid value'}`;
}

function isJsonMediaType(mediaType: string): boolean {
  const type = mediaType.toLowerCase();
  return type === 'application/json' || type.endsWith('+json') || type === '*/*' || type === 'application/*';
}

function mediaRangeMatches(range: string, contentType: string): boolean {
  if (range === '*/*') return true;
  if (range.endsWith('/*')) return contentType.startsWith(range.slice(0, -1));
  return false;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
