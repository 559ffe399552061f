import { parse as parseYaml } from 'yaml';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../../lib/http/json-depth';
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
  const json = /^\s*[{[]/.test(text);
  if (json && jsonDepthExceeds(text)) throw tooDeep();
  let parsed: unknown;
  try {
    parsed = json ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw ApisErrors.invalid(`The OpenAPI document could not be read as JSON or YAML: ${(err as Error).message}`);
  }
  // Everything after this (checks, $ref resolution, the bus) recurses into the document.
  if (!json && depthExceeds(parsed, MAX_JSON_DEPTH)) throw tooDeep();
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw ApisErrors.invalid('The OpenAPI document must be an object');
  return parsed as Record<string, unknown>;
}

function tooDeep() {
  return ApisErrors.invalid(`The OpenAPI document nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep`);
}

/** Whether parsed data nests deeper than `limit` (iterative: a hostile document can not exhaust the stack here). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
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
