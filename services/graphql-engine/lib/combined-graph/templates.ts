/**
 * Data-source templates of the reference gateway: `{{.arguments.id}}` (the field's arguments),
 * `{{.object.id}}` (the parent object, as the data source returned it) and
 * `{{.request.headers.X}}` (the client request's header, any case). Each place a template is
 * used encodes the value its own way, so a value can never break out of where it is put: a URL
 * percent-encodes it, a JSON body escapes it, a header drops line breaks.
 */
export interface TemplateScope {
  arguments: Record<string, unknown>;
  object: unknown;
  /** the client request's headers, names in lower case */
  headers: Record<string, string | string[] | undefined>;
}

export type Encoder = (value: unknown) => string;

type Part = string | { root: 'arguments' | 'object' | 'headers'; path: string[] };

/** A template compiled once per data source. */
export interface Template {
  readonly dynamic: boolean;
  render(scope: TemplateScope, encode: Encoder): string;
  /** the raw value when the template is one placeholder and nothing else (so a list can become repeated query parameters) */
  value(scope: TemplateScope): unknown;
}

const PLACEHOLDER = /\{\{\s*\.([A-Za-z_][\w.-]*)\s*\}\}/g;

export function compileTemplate(text: string): Template {
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(placeholder(match[1]) ?? match[0]);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  const dynamic = parts.some((part) => typeof part !== 'string');
  const only = parts.length === 1 && typeof parts[0] !== 'string' ? parts[0] : undefined;
  return {
    dynamic,
    value: (scope) => (only ? lookup(scope, only) : undefined),
    render: (scope, encode) =>
      dynamic ? parts.map((part) => (typeof part === 'string' ? part : encode(lookup(scope, part)))).join('') : text,
  };
}

function placeholder(reference: string): Part | undefined {
  const [root, ...path] = reference.split('.');
  if (root === 'arguments' || root === 'object') return { root, path };
  if (root === 'request' && path[0] === 'headers' && path.length === 2)
    return { root: 'headers', path: [path[1].toLowerCase()] };
  return undefined;
}

function lookup(scope: TemplateScope, part: Exclude<Part, string>): unknown {
  if (part.root === 'headers') {
    const value = scope.headers[part.path[0]];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  let value: unknown = part.root === 'arguments' ? scope.arguments : scope.object;
  for (const step of part.path)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  return value;
}

/** Scalars as text, objects and lists as JSON, missing values as nothing. */
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export const encoders = {
  /** a URL's path or query: one percent-encoded component */
  url: ((value) => encodeURIComponent(text(value))) as Encoder,
  /** a query parameter or header value taken as is (URLSearchParams encodes query values itself) */
  plain: ((value) => text(value)) as Encoder,
  header: ((value) => text(value).replace(/[\r\n\0]/g, '')) as Encoder,
  /** inside a JSON body: a string's characters escaped (the template supplies its quotes), anything else as JSON */
  json: ((value) =>
    typeof value === 'string'
      ? JSON.stringify(value).slice(1, -1)
      : value === undefined
        ? 'null'
        : JSON.stringify(value)) as Encoder,
};
