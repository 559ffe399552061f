/**
 * `npm run bench:memory`: shows that a gateway node's memory stays flat under traffic that
 * would grow an unbounded per-node map. gw runs in this process (embedded defaults, SQLite in a
 * temporary folder); the load comes from this process too, over a fixed number of connections.
 *
 * 1. BENCH_UNKNOWN_TOKENS (1,000,000) requests to a protected API, each with a new random token.
 * 2. BENCH_ORIGINS (10,000) distinct upstream origins: the API's target is moved to a new origin
 *    (127.1.x.y on a fresh port: loopback only) and called, one origin after the other. A few
 *    hundred upstream servers are open at a time.
 *
 * Prints resident memory and heap every so often (after a full GC when run with
 * --expose-gc, as the npm script does).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { loadConfig } from '../../lib/config/load-config';
import { ownPorts } from '../../lib/net/own-ports';
import { startNode } from '../../app/node';

const UNKNOWN_TOKENS = Number(process.env.BENCH_UNKNOWN_TOKENS ?? 1_000_000);
const ORIGINS = Number(process.env.BENCH_ORIGINS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const OPEN_UPSTREAMS = 200;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).padStart(7);

function report(label: string): void {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  process.stdout.write(
    `${label.padEnd(34)} rss ${mb(rss)} MB   heap ${mb(heapUsed)} MB   external ${mb(external)} MB\n`,
  );
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-memory-'));
  const config = loadConfig(
    {},
    {
      gatewayPort: 0,
      dashboardPort: 0,
      dataDir,
      databaseUrl: `sqlite:${join(dataDir, 'gw.sqlite')}`,
      appsDir: join(dataDir, 'apps'),
      logLevel: 'error',
    },
  );
  const node = await startNode(config);
  const gatewayUrl = `http://127.0.0.1:${node.portOf('proxy')}`;
  const gw = new Pool(gatewayUrl, { connections: CONCURRENCY });
  const manage = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const res = await gw.request({
      method,
      path: `/gw${path}`,
      headers: { 'x-gw-authorization': node.config.secret, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${method} /gw${path}: ${res.statusCode} ${text}`);
  };
  const first = await startUpstream('127.0.0.1');
  const definition = (id: string, listenPath: string, target: string, extra: object = {}) => ({
    api_id: id,
    name: id,
    active: true,
    use_keyless: true,
    proxy: { listen_path: listenPath, target_url: target, strip_listen_path: true },
    ...extra,
  });
  await manage(
    'POST',
    '/apis',
    definition('protected', '/protected', first.url, {
      use_keyless: false,
      auth: { auth_header_name: 'Authorization' },
    }),
  );
  await manage('POST', '/apis', definition('moving', '/moving', first.url));
  report('start');

  // 1. Random unknown tokens.
  let sent = 0;
  const statuses = new Map<number, number>();
  const step = Math.max(1, Math.floor(UNKNOWN_TOKENS / 10));
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < UNKNOWN_TOKENS) {
        const n = ++sent;
        const res = await gw.request({
          method: 'GET',
          path: '/protected/x',
          headers: { authorization: randomBytes(16).toString('hex') },
        });
        await res.body.dump();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (n % step === 0) report(`${n} unknown-token requests`);
      }
    }),
  );
  process.stdout.write(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}\n`);

  // 2. Distinct upstream origins, one after the other.
  const open: Array<{ close(): Promise<void> }> = [first];
  const originStep = Math.max(1, Math.floor(ORIGINS / 10));
  let reached = 0;
  for (let i = 0; i < ORIGINS; i++) {
    const upstream = await startUpstream(`127.1.${(i >> 8) & 255}.${i & 255 || 1}`);
    open.push(upstream);
    await manage('PUT', '/apis/moving', definition('moving', '/moving', upstream.url));
    const res = await gw.request({ method: 'GET', path: '/moving/ping' });
    if ((await res.body.text()) === upstream.url) reached++;
    while (open.length > OPEN_UPSTREAMS) await open.shift()!.close();
    if ((i + 1) % originStep === 0) report(`${i + 1} upstream origins`);
  }
  process.stdout.write(`origins reached: ${reached} of ${ORIGINS}\n`);

  await Promise.all(open.map((upstream) => upstream.close()));
  await gw.close();
  await node.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * An upstream that answers with its own origin. Not on a port number of the gw node in this
 * process: the gateway refuses a loopback address on its own ports, whatever the address.
 */
async function startUpstream(host: string): Promise<{ url: string; close(): Promise<void> }> {
  let url = '';
  const server: Server = createServer((_req, res) => res.end(url));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  if (ownPorts().has(port)) {
    await new Promise((resolve) => server.close(resolve));
    return startUpstream(host);
  }
  url = `http://${host}:${port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

main().catch((err) => {
  process.stderr.write(`bench:memory failed: ${(err as Error).stack}\n`);
  process.exitCode = 1;
});
