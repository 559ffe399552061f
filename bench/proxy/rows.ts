/**
 * The rows of `bench:proxy`, in the order the table shows them: first the limits a gateway is
 * measured against (the upstream itself, nginx, a bare Node proxy, fast-gateway), then gw with
 * more and more features. Each row starts only what it needs, so `BENCH_ROWS=keyless,token`
 * starts two gw nodes, not five; a gw node serving several rows starts once.
 */
import { join } from 'node:path';
import { freePort } from '../support';
import {
  checkUnaryCall,
  GRPC_HEADERS,
  GRPC_METHOD,
  GRPC_SERVER,
  grpcApi,
  startGrpcUpstream,
  writeGrpcBody,
} from './grpc';
import { createHmacApi } from './hmac';
import { createJwtApi } from './jwt';
import { createOAuthApi } from './oauth';
import { createOasApi } from './oas';
import { cachedApi, createTokenApi, startGw, startNginx, startNode, type System } from './systems';
import { startTraceSink } from './trace-sink';

export interface Row extends System {
  id: string;
}

export interface GwNode {
  name: string;
  url: string;
  pid: number;
  /** from spawning the process to its gateway port serving every API of its apps folder */
  startupMs: number;
}

interface Setup {
  work: string;
  upstreamPort: number;
  upstreamPid: number;
  node(name: NodeName): Promise<GwNode>;
  /** the gRPC upstream, started by the first row that needs it */
  grpcUpstream(): Promise<{ port: number; pid: number }>;
}

type NodeName = keyof typeof NODES;

const LIMITS = { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 3600 };

/** The gw nodes rows run on: gateway-role nodes with keyless APIs from files, and full nodes for the rows that need keys. */
const NODES = {
  'gw-10': (s: Setup) => keylessNode(s, 'gw-10', 1),
  // The same two nodes with two gateway worker threads (GW_WORKERS, app/workers/): what a
  // second thread adds on the same two cores.
  'gw-10-w2': (s: Setup) => keylessNode(s, 'gw-10-w2', 2),
  // gw-10 with OpenTelemetry tracing on: every request sampled, exported over OTLP/HTTP
  // (protobuf) to a sink in the bench's process
  'gw-10-traced': async (s: Setup) =>
    keylessNode(s, 'gw-10-traced', 1, {
      GW_OTEL_ENDPOINT: (await startTraceSink()).url,
      GW_OTEL_SAMPLING_TYPE: 'AlwaysOn',
    }),
  'gw-1000': (s: Setup) => startGw(s.work, 'gw-1000', s.upstreamPort, 1000),
  'gw-10000': (s: Setup) => startGw(s.work, 'gw-10000', s.upstreamPort, 10_000),
  // Analytics off here, so these rows measure the chain alone; gw-analytics is the node as shipped.
  'gw-auth': (s: Setup) => startGw(s.work, 'gw-auth', s.upstreamPort, 0, 'all', { GW_ANALYTICS: 'false' }),
  'gw-analytics': (s: Setup) => startGw(s.work, 'gw-analytics', s.upstreamPort, 0, 'all'),
  'gw-analytics-w2': (s: Setup) => startGw(s.work, 'gw-analytics-w2', s.upstreamPort, 0, 'all', { GW_WORKERS: '2' }),
  // gw-10 with cleartext HTTP/2 on its plain port, and an API for the gRPC upstream (started
  // first when no row has yet: then about 0.1 s of its start-up counts in the node's).
  'gw-h2c': async (s: Setup) =>
    startGw(s.work, 'gw-h2c', s.upstreamPort, 10, 'gateway', { GW_GATEWAY_H2C: 'true' }, [
      grpcApi((await s.grpcUpstream()).port),
    ]),
};

const ROWS: Array<{
  id: string;
  name: string;
  /** measured with h2load (nghttp2-client); skipped when it is not installed */
  h2load?: true;
  start(s: Setup): Promise<Omit<Row, 'id' | 'name'>>;
}> = [
  {
    id: 'direct',
    name: 'upstream, direct (the limit)',
    start: async (s) => ({ url: `http://127.0.0.1:${s.upstreamPort}/api/hello`, pid: s.upstreamPid }),
  },
  // nginx's CPU is in its worker process, not the one started here: no CPU figure.
  {
    id: 'nginx',
    name: 'nginx reverse proxy, keep-alive upstream',
    start: async (s) => ({ url: `http://127.0.0.1:${await startNginx(s.work, s.upstreamPort)}/api/hello` }),
  },
  {
    id: 'bare',
    name: 'bare node:http + undici Pool (no features)',
    start: (s) => nodeProxy(join(__dirname, 'bare-proxy.js'), s.upstreamPort),
  },
  {
    id: 'fast-gateway',
    name: 'fast-gateway 3.4.7',
    start: (s) => nodeProxy(join(__dirname, 'fast-gateway.js'), s.upstreamPort),
  },
  {
    id: 'keyless',
    name: 'gw, keyless API (10 APIs loaded)',
    start: async (s) => on(await s.node('gw-10'), '/api-9/hello'),
  },
  {
    id: 'keyless-w2',
    name: 'gw, keyless API (10 APIs loaded), 2 gateway workers (GW_WORKERS=2)',
    start: async (s) => on(await s.node('gw-10-w2'), '/api-9/hello'),
  },
  // The keyless row with tracing on (a server and a client span per request, a traceparent
  // upstream, batches to a local sink): held against the keyless row of the same run.
  {
    id: 'keyless-traced',
    name: 'gw, keyless API (10 APIs loaded), OpenTelemetry tracing, every request sampled',
    start: async (s) => on(await s.node('gw-10-traced'), '/api-9/hello'),
  },
  // The keyless row's API on a node whose plain port also takes h2c: the HTTP/2 row beside it
  // runs on the same process, so their ratio holds no difference between two processes.
  {
    id: 'keyless-h2c',
    name: 'gw, keyless, HTTP/1.1 client, on the h2c node (GW_GATEWAY_H2C=true)',
    start: async (s) => on(await s.node('gw-h2c'), '/api-9/hello'),
  },
  {
    id: 'h2',
    name: 'gw, keyless, HTTP/2 client (h2c) → HTTP/1.1 upstream',
    h2load: true,
    start: async (s) => ({ ...on(await s.node('gw-h2c'), '/api-9/hello'), h2: { method: 'GET' } }),
  },
  {
    id: 'keyless-1000',
    name: 'gw, keyless, 1,000 APIs loaded (last one)',
    start: async (s) => on(await s.node('gw-1000'), '/api-999/hello'),
  },
  {
    id: 'keyless-10000',
    name: 'gw, keyless, 10,000 APIs loaded (last one)',
    start: async (s) => on(await s.node('gw-10000'), '/api-9999/hello'),
  },
  // After the warm-up every request is a hit: the upstream is not called.
  {
    id: 'cache',
    name: 'gw, keyless, response cache hit (in memory)',
    start: async (s) => on(await s.node('gw-10'), '/cached-api/hello'),
  },
  {
    id: 'token',
    name: 'gw, auth token',
    start: async (s) => {
      const node = await s.node('gw-auth');
      return on(node, '/token-api/hello', {
        authorization: await createTokenApi(node.url, s.upstreamPort, 'token-api', {}),
      });
    },
  },
  // One RS256 token sent again and again: verified once, then known (the "token cached").
  {
    id: 'jwt',
    name: 'gw, JWT RS256 via JWKS (token cached)',
    start: async (s) => {
      const node = await s.node('gw-auth');
      return on(node, '/jwt-api/hello', await createJwtApi(node.url, s.upstreamPort, 'jwt-api'));
    },
  },
  {
    id: 'oauth',
    name: 'gw, OAuth 2.0 bearer token (client_credentials)',
    start: async (s) => {
      const node = await s.node('gw-auth');
      return on(node, '/oauth-api/hello', await createOAuthApi(node.url, s.upstreamPort, 'oauth-api'));
    },
  },
  {
    id: 'hmac',
    name: 'gw, HMAC signature (hmac-sha256, pre-signed)',
    start: async (s) => {
      const node = await s.node('gw-auth');
      return on(node, '/hmac-api/hello', await createHmacApi(node.url, s.upstreamPort, 'hmac-api'));
    },
  },
  {
    id: 'oas',
    name: 'gw, OAS API, auth token + per-operation rate limit',
    start: async (s) => {
      const node = await s.node('gw-auth');
      return on(node, '/oas-api/hello', await createOasApi(node.url, s.upstreamPort, 'oas-api'));
    },
  },
  // The same chain with and without analytics on one node, rows side by side: two processes of
  // the same build differ by several per cent from each other (their heaps, the JIT's choices),
  // more than analytics is allowed to cost. `do_not_track` makes the recorder skip the API.
  {
    id: 'limits',
    name: 'gw, auth token + rate limit + quota',
    start: (s) => untrackedLimitsRow(s, 'gw-analytics'),
  },
  // LIMITS are far above what a round sends: a 429 is the limiter's mistake, and fails the run.
  // Each worker's distributed-rate-limiter share follows its load of the last seconds, and each
  // wrk run spreads its connections over the workers anew (reusePort).
  {
    id: 'limits-w2',
    name: 'gw, auth token + rate limit + quota, 2 gateway workers (GW_WORKERS=2)',
    start: (s) => untrackedLimitsRow(s, 'gw-analytics-w2'),
  },
  {
    id: 'analytics',
    name: 'gw, auth token + rate limit + quota + analytics',
    start: async (s) => {
      const node = await s.node('gw-analytics');
      return on(node, '/limited-api/hello', {
        authorization: await createTokenApi(node.url, s.upstreamPort, 'limited-api', LIMITS),
      });
    },
  },
  // Unary calls (HTTP/2 POST, a 5-byte-framed message, te: trailers) by h2load; one call with
  // grpc-js first must end with grpc-status 0, which h2load cannot see.
  {
    id: 'grpc-direct',
    name: `gRPC unary, direct (${GRPC_SERVER} server, the limit)`,
    h2load: true,
    start: async (s) => {
      const { port, pid } = await s.grpcUpstream();
      await checkUnaryCall(`http://127.0.0.1:${port}`);
      return grpcRow(`http://127.0.0.1:${port}`, pid, s.work);
    },
  },
  {
    id: 'grpc',
    name: 'gw, gRPC unary, keyless → h2c:// upstream',
    h2load: true,
    start: async (s) => {
      const node = await s.node('gw-h2c');
      await checkUnaryCall(node.url);
      return grpcRow(node.url, node.pid, s.work);
    },
  },
];

export const ROW_IDS = ROWS.map((row) => row.id);

/**
 * Starts what the wanted rows need (all rows when `wanted` is undefined), in table order, and
 * returns the rows and the gw nodes started for them; without h2load, the rows measured with it
 * are left out and named in `skipped`.
 */
export async function startRows(
  wanted: string[] | undefined,
  work: string,
  upstreamPort: number,
  upstreamPid: number,
  hasH2load: boolean,
): Promise<{ rows: Row[]; nodes: GwNode[]; skipped: string[] }> {
  const unknown = (wanted ?? []).filter((id) => !ROW_IDS.includes(id));
  if (unknown.length > 0)
    throw new Error(`unknown BENCH_ROWS id(s) ${unknown.join(', ')}; known: ${ROW_IDS.join(', ')}`);
  const started = new Map<NodeName, Promise<GwNode>>();
  let grpcUpstream: Promise<{ port: number; pid: number }> | undefined;
  const setup: Setup = {
    work,
    upstreamPort,
    upstreamPid,
    node(name) {
      if (!started.has(name)) {
        const begin = Date.now();
        started.set(
          name,
          NODES[name](setup).then((gw) => ({ name, url: gw.url, pid: gw.pid, startupMs: Date.now() - begin })),
        );
      }
      return started.get(name)!;
    },
    grpcUpstream() {
      grpcUpstream ??= freePort().then(async (port) => ({ port, pid: await startGrpcUpstream(port) }));
      return grpcUpstream;
    },
  };
  const rows: Row[] = [];
  const skipped: string[] = [];
  // One after the other: start-up times are measured, and nodes would slow each other's.
  for (const row of ROWS) {
    if (wanted && !wanted.includes(row.id)) continue;
    if (row.h2load && !hasH2load) skipped.push(row.id);
    else rows.push({ id: row.id, name: row.name, ...(await row.start(setup)) });
  }
  return { rows, nodes: await Promise.all(started.values()), skipped };
}

/** A gateway-role node with the keyless APIs from files and the cached one, on `workers` threads. */
function keylessNode(s: Setup, name: string, workers: number, env: Record<string, string> = {}) {
  return startGw(s.work, name, s.upstreamPort, 10, 'gateway', { GW_WORKERS: String(workers), ...env }, [
    cachedApi(s.upstreamPort),
  ]);
}

/** The limits row's API (token, rate limit, quota; `do_not_track`) and a key for it, on `node`. */
async function untrackedLimitsRow(s: Setup, name: NodeName): Promise<Omit<Row, 'id' | 'name'>> {
  const node = await s.node(name);
  return on(node, '/untracked-api/hello', {
    authorization: await createTokenApi(node.url, s.upstreamPort, 'untracked-api', LIMITS, { do_not_track: true }),
  });
}

function on(node: GwNode, path: string, headers?: Record<string, string>): Omit<Row, 'id' | 'name'> {
  return { url: `${node.url}${path}`, pid: node.pid, headers };
}

function grpcRow(baseUrl: string, pid: number, work: string): Omit<Row, 'id' | 'name'> {
  return {
    url: `${baseUrl}${GRPC_METHOD}`,
    pid,
    headers: GRPC_HEADERS,
    h2: { method: 'POST', bodyFile: writeGrpcBody(work) },
  };
}

async function nodeProxy(script: string, upstreamPort: number): Promise<Omit<Row, 'id' | 'name'>> {
  const port = await freePort();
  const child = await startNode(script, { PORT: String(port), UPSTREAM_PORT: String(upstreamPort) });
  return { url: `http://127.0.0.1:${port}/api/hello`, pid: child.pid };
}
