import Ajv from 'ajv';
import addFormats from 'ajv-formats';

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
  });
  addFormats(ajv);
  for (const keyword of ['example', 'xml', 'externalDocs']) ajv.addKeyword(keyword);
  return ajv;
}
