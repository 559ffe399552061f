import type { OasDocument } from './document';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of a document, in document order (paths as listed, then methods as listed). */
export interface OasOperation {
  path: string;
  method: string;
  operationId: string | undefined;
  operation: Record<string, unknown>;
  /** the path item's own `parameters`, which the operation's override by name and location */
  pathParameters: unknown[];
}

export function listOperations(document: Pick<OasDocument, 'paths'>): OasOperation[] {
  const out: OasOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (typeof item !== 'object' || item === null) continue;
    const pathParameters = Array.isArray(item.parameters) ? item.parameters : [];
    for (const [method, operation] of Object.entries(item)) {
      if (!(HTTP_METHODS as readonly string[]).includes(method) || typeof operation !== 'object' || operation === null)
        continue;
      const op = operation as Record<string, unknown>;
      out.push({
        path,
        method: method.toUpperCase(),
        operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
        operation: op,
        pathParameters,
      });
    }
  }
  return out;
}

/**
 * The classic endpoint path of an OpenAPI path: anchored at its end, so `/pets` does not also
 * match `/pets/1` (classic paths match the start of the path below the listen path).
 */
export function classicPath(oasPath: string): string {
  return `${oasPath}$`;
}

/** Back from a classic endpoint path to an OpenAPI path (the end anchor dropped). */
export function oasPath(classic: string): string {
  const withSlash = classic.startsWith('/') ? classic : `/${classic}`;
  return withSlash.replace(/\$$/, '');
}

/** The operationId given to an operation that has none (`/pets/{id}` GET → `pets/{id}GET`, as the reference names them). */
export function defaultOperationId(path: string, method: string): string {
  return `${path.replace(/^\//, '')}${method.toUpperCase()}`;
}
