/** One request of a batch, as the reference gateway's RequestDefinition reads it. */
export interface BatchItem {
  method: string;
  headers: Record<string, string>;
  body: string;
  relative_url: string;
}

export interface BatchRequest {
  requests: BatchItem[];
  suppress_parallel_execution: boolean;
}

type Json = Record<string, unknown>;

/** Thrown for a body Go's encoding/json would refuse to decode into a batch request. */
class Malformed extends Error {}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** encoding/json matches a field name exactly, or else case-insensitively. */
function field(object: Json, name: string): unknown {
  if (name in object) return object[name];
  const key = Object.keys(object).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : object[key];
}

/** A Go string field: a JSON string, or null/absent for "". */
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new Malformed();
  return value;
}

function headers(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Malformed();
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, text(v)]));
}

function item(value: unknown): BatchItem {
  if (value === null) return { method: '', headers: {}, body: '', relative_url: '' };
  if (!isObject(value)) throw new Malformed();
  return {
    method: text(field(value, 'method')),
    headers: headers(field(value, 'headers')),
    body: text(field(value, 'body')),
    relative_url: text(field(value, 'relative_url')),
  };
}

/**
 * The body of `POST …/gw/batch/` decoded as Go's encoding/json decodes the reference gateway's
 * BatchRequestStructure: absent or null fields are empty, a value of another type is an error.
 * Undefined when the body is not such a document.
 */
export function decodeBatchRequest(body: Buffer): BatchRequest | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed === null) return { requests: [], suppress_parallel_execution: false };
    if (!isObject(parsed)) throw new Malformed();
    const requests = field(parsed, 'requests');
    if (requests !== undefined && requests !== null && !Array.isArray(requests)) throw new Malformed();
    const suppress = field(parsed, 'suppress_parallel_execution');
    if (suppress !== undefined && suppress !== null && typeof suppress !== 'boolean') throw new Malformed();
    return { requests: (requests ?? []).map(item), suppress_parallel_execution: suppress === true };
  } catch {
    return undefined;
  }
}
