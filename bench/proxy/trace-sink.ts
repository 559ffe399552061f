import { createServer } from 'node:http';

/**
 * A stand-in OpenTelemetry collector for the traced row: takes OTLP/HTTP exports and answers
 * 200 without decoding them, so the row measures what tracing costs the gateway (spans, context,
 * batching, serialising, sending), not a collector. Runs in the bench's own process.
 */
export async function startTraceSink(): Promise<{ url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}` };
}
