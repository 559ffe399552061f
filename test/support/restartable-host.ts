import { createServer, type Server } from 'node:http';
import { listen } from '../../lib/http/listen';

/**
 * An upstream host that can go down (refusing connections on its port) and come back on the
 * same port. It answers `{"host": name, "url": …}`, the status set for a path, and records every
 * request path.
 */
export interface RestartableHost {
  name: string;
  url: string;
  port: number;
  /** paths requested, in order */
  hits: string[];
  /** the status answered for a path (200 when not set) */
  statusFor: Map<string, number>;
  /** JSON answered for a path instead of the default */
  bodyFor: Map<string, unknown>;
  /** requests to paths starting with this prefix */
  count(prefix: string): number;
  down(): Promise<void>;
  up(): Promise<void>;
}

export async function startRestartableHost(name: string): Promise<RestartableHost> {
  const hits: string[] = [];
  const statusFor = new Map<string, number>();
  const bodyFor = new Map<string, unknown>();
  const make = (): Server =>
    createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      hits.push(path);
      const body = bodyFor.has(path) ? bodyFor.get(path) : { host: name, url: req.url };
      res.writeHead(statusFor.get(path) ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  let server = make();
  const port = await listen(server, 0, '127.0.0.1');
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    statusFor,
    bodyFor,
    count: (prefix) => hits.filter((path) => path.startsWith(prefix)).length,
    async down() {
      // Keep-alive connections too: the gateway must see refused connections, not a quiet pool.
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closing;
    },
    async up() {
      server = make();
      await listen(server, port, '127.0.0.1');
    },
  };
}
