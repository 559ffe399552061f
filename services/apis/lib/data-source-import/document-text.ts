import { parse as parseYaml } from 'yaml';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../../lib/http/json-depth';
import { ApisErrors } from '../../errors';

export type DocumentFormat = 'openapi' | 'asyncapi';

/** A document's text as an object: JSON when it looks like JSON, YAML otherwise (YAML is a superset). */
export function parseDocumentText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') throw ApisErrors.importMalformed('the document is empty');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    if (jsonDepthExceeds(trimmed))
      throw ApisErrors.importMalformed(`the document nests deeper than ${MAX_JSON_DEPTH} levels`);
    try {
      return JSON.parse(trimmed);
    } catch (err) {
      throw ApisErrors.importMalformed(`not valid JSON (${(err as Error).message})`);
    }
  }
  try {
    // YAML aliases are capped (the library's default, 100) so a small document cannot expand without bound.
    return parseYaml(trimmed, { maxAliasCount: 100, uniqueKeys: false });
  } catch (err) {
    throw ApisErrors.importMalformed(`neither JSON nor valid YAML (${firstLine((err as Error).message)})`);
  }
}

/** OpenAPI by its `openapi` field, AsyncAPI by its `asyncapi` field; anything else is undetectable. */
export function detectFormat(document: unknown): DocumentFormat {
  if (!isObject(document)) throw ApisErrors.importUndetectable();
  if (typeof document.openapi === 'string') return 'openapi';
  if (typeof document.asyncapi === 'string') return 'asyncapi';
  if (typeof document.swagger === 'string')
    throw ApisErrors.importInvalid(
      `OpenAPI ${document.swagger} (swagger) documents are not supported: convert it to OpenAPI 3.0`,
    );
  throw ApisErrors.importUndetectable();
}

/** Imported versions: OpenAPI 3.0.0 (3.0.x patch releases share its schema); AsyncAPI 2.0.0 to 2.4.0. */
export function assertSupportedVersion(format: DocumentFormat, document: Record<string, unknown>): void {
  if (format === 'openapi' && !/^3\.0\.\d+$/.test(String(document.openapi))) {
    throw ApisErrors.importInvalid(`OpenAPI version ${String(document.openapi)} is not supported: use OpenAPI 3.0.0`);
  }
  if (format === 'asyncapi' && !['2.0.0', '2.1.0', '2.2.0', '2.3.0', '2.4.0'].includes(String(document.asyncapi))) {
    throw ApisErrors.importInvalid(
      `AsyncAPI version ${String(document.asyncapi)} is not supported: use AsyncAPI 2.0.0, 2.1.0, 2.2.0, 2.3.0 or 2.4.0`,
    );
  }
}

/**
 * Refuses references to other files or URLs before any parser sees the document: the parsers
 * would fetch them from the management node (a way to reach internal addresses), and a graph is
 * generated from one self-contained document.
 */
export function assertLocalReferences(document: unknown): void {
  const stack: unknown[] = [document];
  const seen = new Set<unknown>(); // YAML aliases may share (or nest) a node
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) stack.push(...value);
    else if (isObject(value)) {
      const ref = value.$ref;
      if (ref !== undefined && (typeof ref !== 'string' || !ref.startsWith('#'))) {
        throw ApisErrors.importInvalid(
          `Only references inside the document are supported; '${String(ref)}' points outside it`,
        );
      }
      stack.push(...Object.values(value));
    }
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(message: string): string {
  return message.split('\n')[0];
}
