/**
 * The systems `bench:proxy` and `bench:proxy-cost` start and the load they put on them: the
 * upstream, nginx, fast-gateway and gw nodes, wrk at full speed or at a fixed rate, and h2load
 * for the rows whose client speaks HTTP/2.
 */
import { execFile, execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support';

const ROOT = resolve(__dirname, '../..');

/** Every process started here; the benchmark stops them when it ends. */
export const children: ChildProcess[] = [];

export interface System {
  name: string;
  url: string;
  pid?: number;
  headers?: Record<string, string>;
  /** the client speaks HTTP/2 (h2load, cleartext with prior knowledge) instead of HTTP/1.1 (wrk) */
  h2?: { method: 'GET' } | { method: 'POST'; bodyFile: string };
}

/** A row at full speed with the client it is measured with: wrk, or h2load for an HTTP/2 row. */
export function load(system: System, seconds: number): WrkResult {
  return system.h2 ? h2load(system, seconds) : wrk(system, seconds);
}

/**
 * 4 connections with up to 8 streams each: 32 requests in flight, as wrk's 32 connections, but
 * multiplexed as an HTTP/2 client (a gRPC channel most of all) sends them.
 */
const H2_CLIENTS = Number(process.env.BENCH_H2_CLIENTS ?? 4);
const H2_STREAMS = Number(process.env.BENCH_H2_STREAMS ?? 8);

/**
 * h2load at full speed for `seconds`: one thread, as wrk. h2load gives no percentiles, so it logs
 * each request's time to a file and the p99 is read from there. Any answer that is not 2xx, or a
 * request that failed, fails the benchmark (h2load only sees HTTP statuses: a gRPC row's
 * grpc-status is checked once with a real gRPC client before the rounds, grpc.ts).
 */
export function h2load(system: System, seconds: number): WrkResult {
  const log = join(tmpdir(), `gw-bench-h2load-${process.pid}.log`);
  const headerArgs = Object.entries(system.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const bodyArgs = system.h2?.method === 'POST' ? ['-d', system.h2.bodyFile] : [];
  const args = ['-t1', `-c${H2_CLIENTS}`, `-m${H2_STREAMS}`, `-D${seconds}`, `--log-file=${log}`];
  try {
    const out = execFileSync('h2load', [...args, ...headerArgs, ...bodyArgs, system.url], { encoding: 'utf8' });
    return parseH2load(system.url, out, readFileSync(log, 'utf8'));
  } finally {
    rmSync(log, { force: true });
  }
}

function parseH2load(url: string, out: string, log: string): WrkResult {
  const rps = Number(/finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(out)?.[1]);
  const requests =
    /requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(
      out,
    );
  const statuses = /status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(out);
  const failures = [...(requests?.slice(3) ?? ['?']), ...(statuses?.slice(1) ?? ['?'])].some((n) => n !== '0');
  if (!rps || !requests || failures) throw new Error(`h2load against ${url} saw errors:\n${out}`);
  const micros = log
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => Number(line.split('\t')[2]))
    .sort((a, b) => a - b);
  const p99Ms = micros.length > 0 ? micros[Math.min(micros.length - 1, Math.floor(micros.length * 0.99))] / 1000 : NaN;
  return { rps, p99Ms, requests: Number(requests[1]) };
}

export function wrk(system: System, seconds: number): WrkResult {
  return parseWrk(system.url, execFileSync('wrk', wrkArgs(system, seconds), { encoding: 'utf8' }));
}

/** wrk without blocking this process, so that it can read what the measured process prints meanwhile. */
export function wrkAsync(system: System, seconds: number): Promise<WrkResult> {
  return new Promise((resolvePromise, reject) => {
    execFile('wrk', wrkArgs(system, seconds), { encoding: 'utf8' }, (err: Error | null, out) => {
      if (err) reject(err);
      else {
        try {
          resolvePromise(parseWrk(system.url, out));
        } catch (parseErr) {
          reject(parseErr);
        }
      }
    });
  });
}

export interface WrkResult {
  rps: number;
  p99Ms: number;
  requests: number;
}

function wrkArgs({ url, headers }: System, seconds: number): string[] {
  const headerArgs = Object.entries(headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return ['-t1', '-c32', `-d${seconds}s`, '--latency', ...headerArgs, url];
}

function parseWrk(url: string, out: string): WrkResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99Ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN;
  if (/Non-2xx/.test(out) || !rps) throw new Error(`wrk against ${url} saw errors:\n${out}`);
  return { rps, p99Ms, requests: Number(/(\d+) requests in/.exec(out)?.[1]) };
}

/**
 * p99 latency at a fixed request rate: wrk with a Lua `delay` that spaces each connection's
 * requests so that 32 connections together send about `rate` requests per second. The delay is
 * jittered (±50%) so the connections do not fire in lock-step bursts.
 */
export function fixedRateP99(
  system: System,
  rate: number,
  seconds: number,
  work: string,
): { p99Ms: number; rps: number } {
  const script = join(work, `rate-${rate}.lua`);
  const meanMs = (32 * 1000) / rate;
  writeFileSync(
    script,
    `math.randomseed(os.time())\nfunction delay() return math.floor(${meanMs} * (0.5 + math.random())) end\n`,
  );
  const args = wrkArgs(system, seconds);
  const out = execFileSync('wrk', [...args.slice(0, -1), '-s', script, system.url], { encoding: 'utf8' });
  const { p99Ms, rps } = parseWrk(system.url, out);
  return { p99Ms, rps };
}

export function startNode(script: string, env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    child.once('message', () => resolvePromise(child));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/**
 * An API with token authentication on a full gw node (with `extra` definition fields), and a key
 * for it with these limits, through the /gw API.
 */
export async function createTokenApi(
  gwUrl: string,
  upstreamPort: number,
  apiId: string,
  limits: Record<string, number>,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const headers = { 'x-gw-authorization': 'bench', 'content-type': 'application/json' };
  const definition = {
    ...extra,
    api_id: apiId,
    name: apiId,
    use_keyless: false,
    proxy: { listen_path: `/${apiId}/`, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
  };
  const api = await fetch(`${gwUrl}/gw/apis`, { method: 'POST', headers, body: JSON.stringify(definition) });
  if (!api.ok) throw new Error(`creating the token API failed: ${await api.text()}`);
  const key = await fetch(`${gwUrl}/gw/keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...limits, access_rights: { [apiId]: { api_id: apiId } } }),
  });
  if (!key.ok) throw new Error(`creating the key failed: ${await key.text()}`);
  return ((await key.json()) as { key: string }).key;
}

/** A keyless API whose GET answers are cached for an hour (cache_options). */
export function cachedApi(upstreamPort: number): Record<string, unknown> {
  return {
    api_id: 'cached-api',
    name: 'cached api',
    use_keyless: true,
    active: true,
    cache_options: { enable_cache: true, cache_all_safe_requests: true, cache_timeout: 3600 },
    proxy: { listen_path: '/cached-api/', target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
  };
}

export async function startGw(
  work: string,
  name: string,
  upstreamPort: number,
  apiCount: number,
  services = 'gateway',
  env: Record<string, string> = {},
  extraApps: Array<Record<string, unknown>> = [],
  nodeArgs: string[] = [],
  /** the build to run: another copy of dist/ (an older build, to compare with) */
  dist = join(ROOT, 'dist'),
): Promise<{ url: string; pid: number; child: ChildProcess }> {
  const dir = join(work, name);
  const apps = join(dir, 'apps');
  mkdirSync(apps, { recursive: true });
  for (const app of extraApps) writeFileSync(join(apps, `${String(app.api_id)}.json`), JSON.stringify(app));
  for (let i = 0; i < apiCount; i++) {
    const listenPath = `/api-${i}/`;
    writeFileSync(
      join(apps, `api-${i}.json`),
      JSON.stringify({
        api_id: `api-${i}`,
        name: `api ${i}`,
        use_keyless: true,
        active: true,
        proxy: { listen_path: listenPath, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
      }),
    );
  }
  const port = await freePort();
  // stdbuf: V8's --trace-gc lines go through C stdio, which holds them back in a pipe's buffer.
  const command = nodeArgs.length > 0 ? ['stdbuf', '-oL', process.execPath] : [process.execPath];
  const child = spawn(command[0], [...command.slice(1), '--no-node-snapshot', ...nodeArgs, join(dist, 'app/main.js')], {
    cwd: dir,
    env: {
      ...process.env,
      GW_SERVICES: services,
      GW_GATEWAY_PORT: String(port),
      GW_DASHBOARD_PORT: '0',
      GW_APPS_DIR: apps,
      GW_LOG_LEVEL: 'warn',
      GW_SECRET: 'bench',
      GW_ADMIN_SECRET: 'bench',
      NODE_ENV: 'production',
      // One gateway thread unless a row asks for more: GW_WORKERS=auto would give a gateway-role
      // node one per core, and the rows measured before workers existed are one-thread nodes.
      GW_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolvePromise, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Gateway:')) resolvePromise();
    });
    child.once('exit', (code) => reject(new Error(`gw exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, child };
}

export async function startNginx(work: string, upstreamPort: number): Promise<number> {
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

export function rssMb(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return (Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024).toFixed(0);
}

/**
 * CPU time (user + system) a process has used so far, in microseconds, from /proc: that of all
 * its threads, gateway workers included (the kernel sums a thread group's threads, exited ones
 * too, into the process's figures).
 */
export function cpuMicros(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name, which may hold spaces.
  return statMicros(`/proc/${pid}/stat`, 11);
}

/**
 * CPU time (user + system) of this process's children that have ended and been waited for, in
 * microseconds: each wrk or h2load run by execFileSync adds its own once it returns, so the
 * difference around one is the load generator's CPU.
 */
export function waitedChildrenCpuMicros(): number {
  // Fields 16 and 17 of /proc/self/stat (cutime, cstime).
  return statMicros('/proc/self/stat', 13);
}

function statMicros(file: string, userField: number): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100;
  return ((Number(fields[userField]) + Number(fields[userField + 1])) * 1_000_000) / ticksPerSecond;
}
