/** A response body larger than the reader allows; the body has been destroyed. */
export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the response is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * Reads a body as UTF-8 text, counting bytes as they arrive, so a peer that sends no
 * content-length (or lies about it) can not make the node buffer more than `maxBytes`.
 */
export async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<string> {
  return (await readBoundedBytes(body, maxBytes)).toString('utf8');
}

/** `readBounded`, keeping the bytes. */
export async function readBoundedBytes(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
