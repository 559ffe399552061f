import Ajv, { type ErrorObject } from 'ajv';
import { GATEWAY_EXTENSION, pointer, type OasDocument } from './document';
import { gatewayExtensionSchema } from './gateway-extension-schema';
import { listOperations } from './operations';
import { ApisErrors } from '../../errors';

const checkExtension = new Ajv({ allErrors: true, strict: true }).compile(gatewayExtensionSchema);

/** Security scheme kinds gw can enforce, by the document's own `components.securitySchemes` entry. */
export type SchemeKind = 'token' | 'basic' | 'oauth' | 'certificate' | 'jwt';

export function schemeKind(
  scheme: { type?: unknown; scheme?: unknown; bearerFormat?: unknown } | undefined,
): SchemeKind | undefined {
  if (!scheme) return undefined;
  if (scheme.type === 'apiKey') return 'token';
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') return 'basic';
  // A bearer token declared as a JWT is validated as one (the reference's JWT scheme); any other bearer is a key.
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer')
    return String(scheme.bearerFormat).toUpperCase() === 'JWT' ? 'jwt' : 'token';
  if (scheme.type === 'oauth2') return 'oauth';
  // OpenAPI 3.1's name for client certificates; accepted in 3.0 documents too.
  if (scheme.type === 'mutualTLS') return 'certificate';
  return undefined;
}

/**
 * Checks an OpenAPI 3.0 document carrying `x-gw-api-gateway` and returns it typed; throws a 400
 * listing every problem, each led by the JSON pointer of the field at fault.
 */
export function validateDocument(raw: Record<string, unknown>): OasDocument {
  const problems = [...documentProblems(raw)];
  if (problems.length === 0) problems.push(...extensionProblems(raw[GATEWAY_EXTENSION]));
  if (problems.length === 0) problems.push(...crossReferenceProblems(raw as OasDocument));
  if (problems.length > 0) throw ApisErrors.invalidOas(problems);
  return raw as OasDocument;
}

function documentProblems(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof raw.openapi !== 'string' || !/^3\.0\.\d+$/.test(raw.openapi))
    problems.push(`/openapi: must be an OpenAPI 3.0 version such as "3.0.3"`);
  const info = raw.info as Record<string, unknown> | undefined;
  if (typeof info !== 'object' || info === null) problems.push('/info: must be an object with title and version');
  else {
    if (typeof info.title !== 'string') problems.push('/info/title: must be a string');
    if (typeof info.version !== 'string') problems.push('/info/version: must be a string');
  }
  const paths = raw.paths;
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) problems.push('/paths: must be an object');
  else
    for (const [path, item] of Object.entries(paths)) {
      if (!path.startsWith('/')) problems.push(`${pointer('paths', path)}: a path must start with '/'`);
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        problems.push(`${pointer('paths', path)}: must be an object`);
    }
  if (raw[GATEWAY_EXTENSION] === undefined)
    problems.push(`/${GATEWAY_EXTENSION}: is required (the gateway settings of the API)`);
  return problems;
}

function extensionProblems(extension: unknown): string[] {
  if (checkExtension(extension)) return [];
  return (checkExtension.errors ?? []).map(
    (error) => `/${GATEWAY_EXTENSION}${errorPointer(error)}: ${errorMessage(error)}`,
  );
}

function errorPointer(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties')
    return `${error.instancePath}/${String(error.params.additionalProperty).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  if (error.keyword === 'required') return `${error.instancePath}/${String(error.params.missingProperty)}`;
  return error.instancePath;
}

function errorMessage(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'is not a known field here';
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'enum')
    return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? 'is invalid';
}

/** Operation ids and scheme names the extension names must exist in the document. */
function crossReferenceProblems(document: OasDocument): string[] {
  const problems: string[] = [];
  const extension = document[GATEWAY_EXTENSION] as {
    server: { authentication?: { securitySchemes?: Record<string, unknown> } };
    middleware?: { operations?: Record<string, unknown> };
  };
  const seen = new Map<string, string>();
  for (const op of listOperations(document)) {
    if (op.operationId === undefined) continue;
    const at = pointer('paths', op.path, op.method.toLowerCase(), 'operationId');
    if (seen.has(op.operationId))
      problems.push(`${at}: operationId "${op.operationId}" is already used at ${seen.get(op.operationId)}`);
    else seen.set(op.operationId, at);
  }
  for (const id of Object.keys(extension.middleware?.operations ?? {})) {
    if (!seen.has(id))
      problems.push(
        `${pointer(GATEWAY_EXTENSION, 'middleware', 'operations', id)}: no operation in paths has the operationId "${id}"`,
      );
  }
  const declared = document.components?.securitySchemes ?? {};
  for (const name of Object.keys(extension.server.authentication?.securitySchemes ?? {})) {
    const at = pointer(GATEWAY_EXTENSION, 'server', 'authentication', 'securitySchemes', name);
    if (!Object.prototype.hasOwnProperty.call(declared, name))
      problems.push(`${at}: no security scheme "${name}" in components.securitySchemes`);
    else if (!schemeKind(declared[name])) {
      problems.push(
        `${pointer('components', 'securitySchemes', name)}: type ${JSON.stringify(declared[name].type)} is not supported; use apiKey, http (basic, or bearer with or without bearerFormat JWT), oauth2 or mutualTLS`,
      );
    }
  }
  return problems;
}
