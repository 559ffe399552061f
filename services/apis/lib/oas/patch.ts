import type { OasPatchOverrides } from '../../../../contracts/apis/actions';
import { ApisErrors } from '../../errors';
import { cloneJson, GATEWAY_EXTENSION } from './document';
import { defaultOperationId, listOperations, type OasOperation } from './operations';

type Json = Record<string, unknown>;

// The reference gateway's texts (apidef/oas/default.go) for overrides it can not apply.
const EMPTY_SERVERS =
  'The ‘servers’ object is empty in your OAS. You can either add a ‘servers’ section to your OpenAPI ' +
  'description or provide a Custom Upstream URL in the manual configuration options below.';
const EMPTY_SECURITY =
  'The ‘security’ object is empty in your OAS. When enabling authentication, your OpenAPI description ' +
  'must include a ‘security’ object that defines the authentication schemes. You can either add a ' +
  '‘security’ object or disable authentication in the API settings.';
const INVALID_UPSTREAM =
  'The manually configured upstream URL is not valid. The URL must be absolute and properly formatted ' +
  '(e.g. https://example.com). Please check the URL format and try again.';
const INVALID_SERVER =
  'The first entry in the ‘servers’ object of your OAS is not valid. The URL must be absolute and properly ' +
  'formatted (e.g. https://example.com).';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `parent[key]`, made an empty object first when it is not one. */
function objectAt(parent: Json, key: string): Json {
  if (!isObject(parent[key])) parent[key] = {};
  return parent[key] as Json;
}

/** A copy of `value` with `changes`, or `changes` alone when `value` is not an object. */
function withChanges(value: unknown, changes: Json): Json {
  return { ...(isObject(value) ? value : {}), ...changes };
}

function operationsOf(document: Json): OasOperation[] {
  const paths = (isObject(document.paths) ? document.paths : {}) as Record<string, Json>;
  return listOperations({ paths });
}

/**
 * The document a PATCH stores: the OpenAPI part is the one sent; the gateway extension is the
 * one sent, or else the stored one; the servers are the ones sent, or else the stored ones.
 * Overrides then change the extension as the reference gateway's import options do, and
 * operation settings of operations the document no longer has are dropped.
 */
export function patchDocument(stored: Json, sent: Json, overrides: OasPatchOverrides | undefined): Json {
  const patched = cloneJson(sent);
  const extension = isObject(sent[GATEWAY_EXTENSION]) ? sent[GATEWAY_EXTENSION] : stored[GATEWAY_EXTENSION];
  patched[GATEWAY_EXTENSION] = cloneJson(extension ?? {});
  const sentServers = Array.isArray(patched.servers) && patched.servers.length > 0;
  if (!sentServers && Array.isArray(stored.servers) && stored.servers.length > 0) {
    patched.servers = cloneJson(stored.servers);
  }
  if (overrides && Object.keys(overrides).length > 0) applyOverrides(patched, overrides);
  dropObsoleteOperations(patched);
  return patched;
}

/**
 * The document an import stores: a plain OpenAPI document given the gateway settings the
 * reference gateway's import builds (active, not internal, listen path stripped, context
 * variables on), then the overrides applied, which also fill the name, the listen path (`/`) and
 * the upstream (the first server). A document carrying its own extension is refused.
 */
export function importDocument(sent: Json, overrides: OasPatchOverrides = {}, apiId?: string): Json {
  if (sent[GATEWAY_EXTENSION] !== undefined)
    throw ApisErrors.invalid(`the import payload should not contain ${GATEWAY_EXTENSION}`);
  const imported = cloneJson(sent);
  imported[GATEWAY_EXTENSION] = {
    info: { ...(apiId ? { id: apiId } : {}), state: { active: true, internal: false } },
    upstream: {},
    server: { listenPath: { value: '/', strip: true } },
    middleware: { global: { contextVariables: { enabled: true } } },
  };
  applyOverrides(imported, overrides);
  return imported;
}

function applyOverrides(document: Json, overrides: OasPatchOverrides): void {
  const extension = document[GATEWAY_EXTENSION] as Json;
  const info = objectAt(extension, 'info');
  if (!info.name && isObject(document.info)) info.name = document.info.title;
  const server = objectAt(extension, 'server');
  const listenPath = objectAt(server, 'listenPath');
  if (overrides.listenPath) listenPath.value = overrides.listenPath;
  else if (!listenPath.value) listenPath.value = '/';
  if (overrides.customDomain) {
    const domain = objectAt(server, 'customDomain');
    server.customDomain = { enabled: true, ...domain, name: overrides.customDomain };
  }
  applyUpstream(document, objectAt(extension, 'upstream'), overrides.upstreamURL);
  if (overrides.authentication !== undefined) applyAuthentication(document, server, overrides.authentication);
  for (const operation of operationsOf(document)) applyOperationOverrides(extension, operation, overrides);
}

function applyUpstream(document: Json, upstream: Json, override: string | undefined): void {
  let url = override;
  if (!url && !upstream.url) {
    const first = Array.isArray(document.servers) ? (document.servers[0] as Json | undefined) : undefined;
    if (!first || typeof first.url !== 'string') throw ApisErrors.invalid(EMPTY_SERVERS);
    url = withVariableDefaults(first);
  }
  if (!url) return;
  if (!isAbsoluteUrl(url)) {
    const fromServers = `${INVALID_SERVER} Please update "${url}" to be a valid URL and try again.`;
    throw ApisErrors.invalid(override ? INVALID_UPSTREAM : fromServers);
  }
  upstream.url = url;
}

/** A server URL with `{name}` variables replaced by their defaults, as the reference does. */
function withVariableDefaults(server: Json): string {
  let url = server.url as string;
  const variables = isObject(server.variables) ? server.variables : {};
  for (const [name, variable] of Object.entries(variables)) {
    if (!url.includes(`{${name}}`)) continue;
    const fallback = isObject(variable) && typeof variable.default === 'string' ? variable.default : '';
    if (fallback === '') throw ApisErrors.invalid(`server variable ${name} does not have a default value`);
    url = url.split(`{${name}}`).join(fallback);
  }
  if (/\{[^}]*\}/.test(url)) throw ApisErrors.invalid('server URL contains undefined variables');
  return url;
}

function isAbsoluteUrl(text: string): boolean {
  try {
    return new URL(text).protocol !== '';
  } catch {
    return false;
  }
}

/** `authentication`: switch the schemes `security` names; without `security` there is nothing to switch. */
function applyAuthentication(document: Json, server: Json, enabled: boolean): void {
  const requirements = Array.isArray(document.security) ? document.security.filter(isObject) : [];
  if (requirements.length === 0) throw ApisErrors.invalid(EMPTY_SECURITY);
  const authentication = objectAt(server, 'authentication');
  authentication.enabled = enabled;
  const schemes = objectAt(authentication, 'securitySchemes');
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) schemes[name] = withChanges(schemes[name], { enabled });
  }
}

function operationId(operation: OasOperation): string {
  return operation.operationId ?? defaultOperationId(operation.path, operation.method);
}

function applyOperationOverrides(extension: Json, operation: OasOperation, overrides: OasPatchOverrides) {
  const id = operationId(operation);
  const existing = (extension.middleware as Json | undefined)?.operations as Json | undefined;
  const settings = withChanges(existing?.[id], {});
  const { allowList, validateRequest, mockResponse } = overrides;
  if (allowList !== undefined) {
    settings.allow = withChanges(settings.allow, { enabled: allowList });
    // allowing an operation switches off its block
    if (allowList && isObject(settings.block) && settings.block.enabled) {
      settings.block = { ...settings.block, enabled: false };
    }
  }
  if (validateRequest !== undefined && hasInput(operation)) {
    const changes = { enabled: validateRequest, errorResponseCode: 422 };
    settings.validateRequest = withChanges(settings.validateRequest, changes);
  }
  if (mockResponse !== undefined && hasExamples(operation.operation)) {
    const fromOASExamples = { enabled: mockResponse };
    settings.mockResponse = withChanges(settings.mockResponse, { enabled: mockResponse, fromOASExamples });
  }
  if (Object.keys(settings).length === 0) return;
  objectAt(objectAt(extension, 'middleware'), 'operations')[id] = settings;
}

/** Request validation has something to check: parameters (of the operation or its path) or a JSON body. */
function hasInput(operation: OasOperation): boolean {
  const own = operation.operation.parameters;
  if ((Array.isArray(own) && own.length > 0) || operation.pathParameters.length > 0) return true;
  const body = operation.operation.requestBody;
  if (!isObject(body)) return false;
  const content = isObject(body.content) ? body.content : {};
  return typeof body.$ref === 'string' || content['application/json'] !== undefined;
}

/** A response with an example a mock can answer with. */
function hasExamples(operation: Json): boolean {
  const responses = isObject(operation.responses) ? Object.values(operation.responses) : [];
  return responses.some((response) => {
    const content = isObject(response) && isObject(response.content) ? Object.values(response.content) : [];
    const usable = (media: Json) => media.example !== undefined || isObject(media.examples) || isObject(media.schema);
    return content.some((media) => isObject(media) && usable(media));
  });
}

/** Operation settings whose operation the document no longer has would never apply: they go. */
function dropObsoleteOperations(document: Json): void {
  const middleware = (document[GATEWAY_EXTENSION] as Json).middleware;
  if (!isObject(middleware) || !isObject(middleware.operations)) return;
  const current = new Set(operationsOf(document).map(operationId));
  for (const id of Object.keys(middleware.operations)) if (!current.has(id)) delete middleware.operations[id];
}
