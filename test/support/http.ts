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
  return { status: response.status, headers: response.headers, text, json: jsonOrUndefined(text) };
}

/** A body parsed as JSON, or undefined when it is empty or not JSON. */
export function jsonOrUndefined(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The whole body of a node:http(s) response, as text. */
export function readText(res: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}
