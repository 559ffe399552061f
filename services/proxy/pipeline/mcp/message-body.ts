import type { IncomingMessage } from 'node:http';

/**
 * Reads a POST body up to `max` bytes; undefined when it is larger. Past the limit the rest is
 * read and dropped, so the connection stays usable for the refusal.
 */
export function readBoundedBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = Number.isFinite(declared) && declared > max ? declared : 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.once('end', () => resolve(size > max ? undefined : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
