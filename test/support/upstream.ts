import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { close, listen } from '../../lib/http/listen';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Upstream {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** replaces how the upstream answers (after the request body has been read) */
  respondWith(handler: (req: ReceivedRequest, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

/**
 * A real HTTP upstream on port 0 that records every request it receives. By default it answers
 * 200 with JSON describing the request it got.
 */
export async function startUpstream(): Promise<Upstream> {
  const received: ReceivedRequest[] = [];
  let handler = (req: ReceivedRequest, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
    res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body }));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      handler(request, res);
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    respondWith(next) {
      handler = next;
    },
    close: () => close(server),
  };
}
