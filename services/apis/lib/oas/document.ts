import { parse as parseYaml } from 'yaml';
import { ApisErrors } from '../../errors';

/** The name of the gateway extension in an OpenAPI document. */
export const GATEWAY_EXTENSION = 'x-gw-api-gateway';

/** An OpenAPI 3.0 document as sent; only the parts gw reads are typed. */
export interface OasDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components?: { securitySchemes?: Record<string, SecurityScheme>; [field: string]: unknown };
  [field: string]: unknown;
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: 'header' | 'query' | 'cookie';
  name?: string;
  flows?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * Reads a document sent as JSON or YAML (YAML 1.2 reads JSON too, but JSON's own parser gives
 * clearer errors for what looks like JSON). Throws a 400 naming what could not be read.
 */
export function parseDocumentText(text: string): Record<string, unknown> {
  if (text.trim() === '') throw ApisErrors.invalid('Request body is empty: send an OpenAPI document (JSON or YAML)');
  let parsed: unknown;
  try {
    parsed = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw ApisErrors.invalid(`The OpenAPI document could not be read as JSON or YAML: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw ApisErrors.invalid('The OpenAPI document must be an object');
  return parsed as Record<string, unknown>;
}

/** A JSON pointer segment (RFC 6901): `~` and `/` escaped. */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...segments: string[]): string {
  return segments.map((s) => `/${pointerSegment(s)}`).join('');
}

/** A deep copy of JSON data. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
