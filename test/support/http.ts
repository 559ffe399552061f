export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** the body parsed as JSON, or undefined when it is not JSON */
  json: any;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  /** an object is sent as JSON; a string as is */
  body?: unknown;
}

/** A plain HTTP call as a client would make it (fetch), with the body read and parsed. */
export async function http(url: string, options: HttpOptions = {}): Promise<HttpResult> {
  const headers = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: options.method ?? 'GET', headers, body, redirect: 'manual' });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
