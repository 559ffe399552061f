/** The dashboard REST API, as the browser calls it: same origin, the login session's cookie. */

/** A refused call: the envelope's Message, and its Errors mapped to the fields they name. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: string[] = [],
  ) {
    super(message);
  }

  /** `{ 'proxy.listen_path': 'must start with /' }` from "The 'api_definition.proxy.listen_path' field …" */
  fields(prefix = ''): Record<string, string> {
    const found: Record<string, string> = {};
    for (const error of this.errors.length > 0 ? this.errors : [this.message]) {
      const named = /The '([^']+)' field/.exec(error);
      if (!named) continue;
      const path = named[1].startsWith(prefix) ? named[1].slice(prefix.length) : named[1];
      // "The 'x.y' field must …" reads better under the field as "Must …".
      const rest = error.slice(named.index + named[0].length).trim();
      const text = rest ? rest[0].toUpperCase() + rest.slice(1) : error;
      found[path] = found[path] ? `${found[path]} ${text}` : text;
    }
    return found;
  }
}

export interface Envelope<Meta = unknown> {
  Status: 'OK' | 'Error';
  Message: string;
  Meta: Meta;
  Errors?: string[];
  [extra: string]: unknown;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  return send<T>(`/api${path}`, method, { credentials: 'same-origin' }, body);
}

/**
 * One call to the dashboard server: JSON in and out; a failure becomes an ApiError with the
 * envelope's message and field errors. `init` adds the credentials and headers of the caller.
 */
export async function send<T>(
  url: string,
  method: string,
  init: { credentials: 'same-origin' | 'omit'; headers?: Record<string, string> },
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: init.credentials,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The dashboard server could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) {
    const envelope = (json ?? {}) as Partial<Envelope>;
    throw new ApiError(
      res.status,
      envelope.Message ?? `The server answered ${res.status} ${res.statusText}`,
      envelope.Errors ?? [],
    );
  }
  return json as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T = Envelope>(path: string, body: unknown) => request<T>('POST', path, body);
export const put = <T = Envelope>(path: string, body: unknown) => request<T>('PUT', path, body);
export const del = <T = Envelope>(path: string) => request<T>('DELETE', path);

/** A query string of the set values only. */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A call whose body and answer are documents as text (OAS in JSON or YAML), not JSON values. */
export async function requestText(
  method: string,
  path: string,
  body?: string,
  contentType = 'application/json',
): Promise<string> {
  // JSON unless the path asks for YAML (`?format=yaml`): the server also negotiates on Accept.
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { accept: path.includes('format=yaml') ? 'application/x-yaml' : 'application/json' },
  };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': contentType };
    init.body = body;
  }
  let res: Response;
  try {
    res = await fetch(`/api${path}`, init);
  } catch {
    throw new ApiError(0, 'The dashboard server could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  if (res.ok) return text;
  let envelope: Partial<Envelope> = {};
  try {
    envelope = JSON.parse(text) as Partial<Envelope>;
  } catch {
    /* not JSON: the status says it */
  }
  throw new ApiError(
    res.status,
    envelope.Message ?? `The server answered ${res.status} ${res.statusText}`,
    envelope.Errors ?? [],
  );
}
