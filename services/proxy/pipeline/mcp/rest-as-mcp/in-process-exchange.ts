import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { duplexPair } from 'node:stream';
import type { RestAnswer } from './rest-call';

/** The most of a REST answer a tool result carries; past it the text ends with a notice. */
export const MAX_TOOL_ANSWER_BYTES = 1024 * 1024;

export interface InProcessRequest {
  method: string;
  /** path and query, as on a request line */
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
  /** aborting it ends the exchange (and the chain's work for it) with an error */
  signal?: AbortSignal;
}

/**
 * Runs `handle` (a gateway's request handler, or one API's chain) for a request made in
 * process: a real HTTP/1.1 exchange over an in-memory socket pair, so every step reads a real
 * IncomingMessage and writes a real ServerResponse, and nothing listens on a port. The answer
 * is held whole (up to MAX_TOOL_ANSWER_BYTES) to become a tool result.
 */
export function exchangeInProcess(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  request: InProcessRequest,
): Promise<RestAnswer> {
  const [clientSide, serverSide] = duplexPair();
  const server = createServer(handle);
  server.emit('connection', serverSide);
  return new Promise<RestAnswer>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        method: request.method,
        path: request.url,
        headers: request.headers,
        createConnection: () => clientSide,
        ...(request.signal ? { signal: request.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_TOOL_ANSWER_BYTES) return void (truncated = true);
          const room = MAX_TOOL_ANSWER_BYTES - size;
          if (chunk.length > room) truncated = true;
          chunks.push(chunk.subarray(0, room));
          size += Math.min(chunk.length, room);
        });
        res.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (truncated)
            body += `\n\nThe upstream response was truncated after ${MAX_TOOL_ANSWER_BYTES} bytes. The content above is incomplete.`;
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body });
        });
        res.on('error', reject);
        // cut off before its end (the exchange aborted): never left pending
        res.on('close', () => {
          if (!res.complete) reject(new Error('the answer was cut off'));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.on('close', () => {
      serverSide.destroy();
      server.close();
    });
    outgoing.end(request.body);
  });
}
