import type { ServerResponse } from 'node:http';

/**
 * Every error the gateway itself answers with is JSON `{"error": "<message>"}` with an
 * `X-Generator` header, as in the reference gateway.
 */
export function sendGatewayError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: message });
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-generator': 'gw',
  });
  res.end(body);
}

export const GatewayMessages = {
  notFound: 'Not Found',
  upstreamFailed: 'There was a problem proxying the request',
  authFieldMissing: 'Authorization field missing',
  accessDisallowed: 'Access to this API has been disallowed',
} as const;
