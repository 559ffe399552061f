import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { close, listen } from '../../lib/http/listen';

export interface PortalApp {
  name: string;
  webhooks: Array<{ url: string; secret: string; events: string[] }>;
}

export interface Portal {
  url: string;
  /** Authorization headers of each apps listing */
  listings: Array<string | undefined>;
  close(): Promise<void>;
}

/**
 * A small developer portal: `GET /portal-api/apps` lists its apps and their webhook
 * subscriptions to whoever presents `secret`, as the portal_webhook output reads them, paged
 * as the reference portal's API pages (`page` from 1, `per_page` defaulting to 20).
 */
export async function startPortal(secret: string, apps: PortalApp[]): Promise<Portal> {
  const listings: Array<string | undefined> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://portal');
    if (req.method !== 'GET' || url.pathname !== '/portal-api/apps') return void res.writeHead(404).end();
    listings.push(req.headers.authorization);
    if (req.headers.authorization !== secret)
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorised"}');
    const perPage = Number(url.searchParams.get('per_page') ?? 20);
    const page = Number(url.searchParams.get('page') ?? 1);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(apps.slice((page - 1) * perPage, page * perPage)));
  });
  const port = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, listings, close: () => close(server) };
}

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver recording what it is sent; answers 200. */
export async function startReceiver(): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, deliveries, close: () => close(server) };
}
