import Ajv from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import addFormats from 'ajv-formats';
import { compileTenantPattern } from '../patterns/tenant-pattern';

/**
 * `pattern` keywords run on RE2 (lib/patterns/tenant-pattern.ts): schemas are tenants' (an API's
 * request bodies, the tools a REST API offers as MCP), and a backtracking `(a+)+$` checked on
 * every request would stall the gateway for everyone. A pattern RE2 does not take (lookarounds,
 * backreferences) makes the schema fail to compile, as tenants' other patterns do.
 */
const re2Patterns: RegExpEngine = Object.assign((pattern: string) => compileTenantPattern(pattern), {
  code: 'tenantPattern',
});

/**
 * A compiler for OpenAPI 3.0 schemas (request bodies and parameters): formats checked,
 * `nullable` understood, and the OpenAPI-only annotations (`example`, `xml`, `externalDocs`)
 * allowed. With `coerceTypes`, parameter strings are read as the numbers and booleans their
 * schema asks for. Shared by the `apis` service (which refuses schemas that do not compile) and
 * the gateway (which checks requests), so both read a schema the same way. One compiler per
 * definition: ajv keeps every schema it compiled.
 */
export function openApiAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    coerceTypes: coerceTypes ? 'array' : false,
    validateFormats: true,
    discriminator: true,
    code: { regExp: re2Patterns },
  });
  addFormats(ajv);
  for (const keyword of ['example', 'xml', 'externalDocs']) ajv.addKeyword(keyword);
  return ajv;
}
