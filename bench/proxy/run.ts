/**
 * `npm run bench:proxy`: the proxy benchmark of PERFORMANCE.md. Runs the upstream directly,
 * nginx, fast-gateway and gw (a keyless API among 10, and among 1,000; token auth; token auth
 * with a rate limit and a quota, without and with analytics; an HMAC-signed request, see hmac.ts) with wrk, 1 thread and 32
 * connections, 5 s rounds alternated between the systems, and prints the median of the rounds
 * with the ratio to fast-gateway. Then the added p99 latency of gw over direct at half of gw's
 * peak rate (wrk with a fixed delay between requests), and gw's resident memory with 1,000 APIs.
 *
 * Needs wrk and nginx from Debian: apt-get install -y wrk nginx-light.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, runBenchmark } from '../support';
import { createHmacApi } from './hmac';

const ROOT = resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const children: ChildProcess[] = [];

interface System {
  name: string;
  url: string;
  pid?: number;
  headers?: Record<string, string>;
}

async function main(): Promise<void> {
  for (const tool of ['wrk', 'nginx']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is not installed: apt-get install -y wrk nginx-light`);
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const upstreamPort = await freePort();
  await startNode(join(__dirname, 'upstream.js'), { PORT: String(upstreamPort) });
  const fastGatewayPort = await freePort();
  await startNode(join(__dirname, 'fast-gateway.js'), { PORT: String(fastGatewayPort), UPSTREAM_PORT: String(upstreamPort) });
  const nginxPort = await startNginx(work, upstreamPort);
  const gw = await startGw(work, 'gw-10', upstreamPort, 10, 'gateway', {}, [cachedApi(upstreamPort)]);
  const gwThousand = await startGw(work, 'gw-1000', upstreamPort, 1000);
  // Analytics off here, so these rows measure the chain alone; gw-analytics is the same node as shipped.
  const gwAuth = await startGw(work, 'gw-auth', upstreamPort, 0, 'all', { GW_ANALYTICS: 'false' });
  const gwAnalytics = await startGw(work, 'gw-analytics', upstreamPort, 0, 'all');
  const authKey = await createTokenApi(gwAuth.url, upstreamPort, 'token-api', {});
  const limitedKey = await createTokenApi(gwAuth.url, upstreamPort, 'limited-api', { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 3600 });
  const hmacHeaders = await createHmacApi(gwAuth.url, upstreamPort, 'hmac-api');
  const analyticsKey = await createTokenApi(gwAnalytics.url, upstreamPort, 'limited-api', { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 3600 });

  const systems: System[] = [
    { name: 'upstream, direct (the limit)', url: `http://127.0.0.1:${upstreamPort}/api/hello` },
    { name: 'nginx reverse proxy, keep-alive upstream', url: `http://127.0.0.1:${nginxPort}/api/hello` },
    { name: 'fast-gateway 3.4.7', url: `http://127.0.0.1:${fastGatewayPort}/api/hello` },
    { name: 'gw, keyless API (10 APIs loaded)', url: `${gw.url}/api-9/hello`, pid: gw.pid },
    { name: 'gw, keyless, 1,000 APIs loaded (last one)', url: `${gwThousand.url}/api-999/hello`, pid: gwThousand.pid },
    { name: 'gw, auth token', url: `${gwAuth.url}/token-api/hello`, pid: gwAuth.pid, headers: { authorization: authKey } },
    { name: 'gw, auth token + rate limit + quota', url: `${gwAuth.url}/limited-api/hello`, pid: gwAuth.pid, headers: { authorization: limitedKey } },
    {
      name: 'gw, auth token + rate limit + quota + analytics',
      url: `${gwAnalytics.url}/limited-api/hello`,
      pid: gwAnalytics.pid,
      headers: { authorization: analyticsKey },
    },
    { name: 'gw, HMAC signature (hmac-sha256, pre-signed)', url: `${gwAuth.url}/hmac-api/hello`, pid: gwAuth.pid, headers: hmacHeaders },
    // After the warm-up every request is a hit: the upstream is not called.
    { name: 'gw, keyless, response cache hit (in memory)', url: `${gw.url}/cached-api/hello`, pid: gw.pid },
  ];
  for (const system of systems) wrk(system, 1); // warm-up: JIT, pools
  const results = new Map<string, number[]>(systems.map((s) => [s.name, []]));
  const latencies = new Map<string, number[]>(systems.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? systems : [...systems].reverse();
    for (const system of order) {
      const result = wrk(system, SECONDS);
      results.get(system.name)!.push(result.rps);
      latencies.get(system.name)!.push(result.p99Ms);
      process.stderr.write(`round ${round + 1}: ${system.name}: ${result.rps.toFixed(0)} req/s\n`);
    }
  }
  const medians = new Map([...results].map(([name, values]) => [name, median(values)]));
  const baseline = medians.get('fast-gateway 3.4.7')!;
  const lines = ['', `| system | req/s (median of ${ROUNDS}) | p99 at peak (ms) | ratio to fast-gateway |`, '|---|---|---|---|'];
  for (const system of systems) {
    const rps = medians.get(system.name)!;
    lines.push(`| ${system.name} | ${rps.toFixed(0)} | ${median(latencies.get(system.name)!).toFixed(2)} | ${(rps / baseline).toFixed(2)} |`);
  }

  const halfRate = Math.round(medians.get(systems[3].name)! / 2);
  const direct = fixedRateP99(systems[0].url, halfRate, work);
  const viaGw = fixedRateP99(systems[3].url, halfRate, work);
  lines.push(
    '',
    `Added p99 at half of gw's peak (${halfRate} req/s asked; wrk with a fixed delay per connection, 32 connections, 10 s):`,
    `  gw ${viaGw.p99Ms.toFixed(2)} ms at ${viaGw.rps.toFixed(0)} req/s − direct ${direct.p99Ms.toFixed(2)} ms at ${direct.rps.toFixed(0)} req/s = ${(viaGw.p99Ms - direct.p99Ms).toFixed(2)} ms`,
  );
  lines.push(`Resident memory: gw with 10 APIs ${rssMb(gw.pid)} MB, with 1,000 APIs ${rssMb(gwThousand.pid)} MB`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function wrk({ url, headers }: System, seconds: number): { rps: number; p99Ms: number } {
  const headerArgs = Object.entries(headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '--latency', ...headerArgs, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99Ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN;
  if (/Non-2xx/.test(out) || !rps) throw new Error(`wrk against ${url} saw errors:\n${out}`);
  return { rps, p99Ms };
}

/**
 * p99 latency at a fixed request rate: wrk with a Lua `delay` that spaces each connection's
 * requests so that 32 connections together send about `rate` requests per second. The delay is
 * jittered (±50%) so the connections do not fire in lock-step bursts.
 */
function fixedRateP99(url: string, rate: number, work: string): { p99Ms: number; rps: number } {
  const script = join(work, `rate-${rate}.lua`);
  const meanMs = (32 * 1000) / rate;
  writeFileSync(script, `math.randomseed(os.time())\nfunction delay() return math.floor(${meanMs} * (0.5 + math.random())) end\n`);
  const out = execFileSync('wrk', ['-t1', '-c32', '-d10s', '--latency', '-s', script, url], { encoding: 'utf8' });
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  return {
    p99Ms: p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
  };
}

function startNode(script: string, env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    child.once('message', () => resolvePromise(child));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** An API with token authentication on a full gw node, and a key for it with these limits, through the /gw API. */
async function createTokenApi(gwUrl: string, upstreamPort: number, apiId: string, limits: Record<string, number>): Promise<string> {
  const headers = { 'x-gw-authorization': 'bench', 'content-type': 'application/json' };
  const definition = { api_id: apiId, name: apiId, use_keyless: false, proxy: { listen_path: `/${apiId}/`, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true } };
  const api = await fetch(`${gwUrl}/gw/apis`, { method: 'POST', headers, body: JSON.stringify(definition) });
  if (!api.ok) throw new Error(`creating the token API failed: ${await api.text()}`);
  const key = await fetch(`${gwUrl}/gw/keys`, { method: 'POST', headers, body: JSON.stringify({ ...limits, access_rights: { [apiId]: { api_id: apiId } } }) });
  if (!key.ok) throw new Error(`creating the key failed: ${await key.text()}`);
  return ((await key.json()) as { key: string }).key;
}

/** A keyless API whose GET answers are cached for an hour (cache_options). */
function cachedApi(upstreamPort: number): Record<string, unknown> {
  return {
    api_id: 'cached-api',
    name: 'cached api',
    use_keyless: true,
    active: true,
    cache_options: { enable_cache: true, cache_all_safe_requests: true, cache_timeout: 3600 },
    proxy: { listen_path: '/cached-api/', target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
  };
}

async function startGw(
  work: string,
  name: string,
  upstreamPort: number,
  apiCount: number,
  services = 'gateway',
  env: Record<string, string> = {},
  extraApps: Array<Record<string, unknown>> = [],
): Promise<{ url: string; pid: number }> {
  const dir = join(work, name);
  const apps = join(dir, 'apps');
  mkdirSync(apps, { recursive: true });
  for (const app of extraApps) writeFileSync(join(apps, `${String(app.api_id)}.json`), JSON.stringify(app));
  for (let i = 0; i < apiCount; i++) {
    const listenPath = `/api-${i}/`;
    writeFileSync(join(apps, `api-${i}.json`), JSON.stringify({ api_id: `api-${i}`, name: `api ${i}`, use_keyless: true, active: true, proxy: { listen_path: listenPath, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true } }));
  }
  const port = await freePort();
  const child = spawn(process.execPath, ['--no-node-snapshot', join(ROOT, 'dist/lib/main.js')], {
    cwd: dir,
    env: { ...process.env, GW_SERVICES: services, GW_GATEWAY_PORT: String(port), GW_DASHBOARD_PORT: '0', GW_APPS_DIR: apps, GW_LOG_LEVEL: 'warn', GW_SECRET: 'bench', GW_ADMIN_SECRET: 'bench', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolvePromise, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Gateway:')) resolvePromise();
    });
    child.once('exit', (code) => reject(new Error(`gw exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid! };
}

async function startNginx(work: string, upstreamPort: number): Promise<number> {
  const port = await freePort();
  const prefix = join(work, 'nginx');
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
error_log ${prefix}/logs/error.log;
pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  upstream backend { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location /api/ { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', conf], { stdio: 'ignore' });
  children.push(child);
  for (let i = 0; i < 50; i++) {
    try {
      execFileSync('curl', ['-sf', '-o', '/dev/null', `http://127.0.0.1:${port}/api/x`]);
      return port;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('nginx did not start');
}

function rssMb(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return (Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024).toFixed(0);
}

runBenchmark('bench:proxy', main, children);
