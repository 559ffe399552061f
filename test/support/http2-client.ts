import {
  connect,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type SecureClientSessionOptions,
} from 'node:http2';
import { jsonOrUndefined } from './http';

export interface Http2Result {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

export interface Http2RequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** sent in these pieces, each written as it comes (no content-length unless the headers state one) */
  body?: string | string[];
}

/** An HTTP/2 client session (TLS with ALPN h2, or cleartext with prior knowledge), connected. */
export async function connectHttp2(url: string, tls: SecureClientSessionOptions = {}): Promise<ClientHttp2Session> {
  const session = connect(url, tls);
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  // later failures end the requests that see them
  session.on('error', () => undefined);
  return session;
}

/** One request on `session`, its answer read whole. */
export function http2Request(session: ClientHttp2Session, options: Http2RequestOptions): Promise<Http2Result> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': options.method ?? 'GET', ':path': options.path, ...options.headers });
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on('response', (received) => (headers = received));
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(headers[':status']), headers, text, json: jsonOrUndefined(text) });
    });
    req.on('error', reject);
    const pieces = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

/** One request on a session of its own, closed after the answer. */
export async function http2Once(
  url: string,
  options: Http2RequestOptions,
  tls: SecureClientSessionOptions = {},
): Promise<Http2Result> {
  const session = await connectHttp2(url, tls);
  try {
    return await http2Request(session, options);
  } finally {
    session.close();
  }
}
