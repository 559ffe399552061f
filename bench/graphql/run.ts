/**
 * `npm run bench:graphql`: a validated proxy-only GraphQL query through gw against the same
 * query sent directly to the upstream (graphql-js over node:http), wrk with 1 thread and 32
 * connections, rounds alternated, median of the rounds. The goal (issue 7) is that gw keeps at
 * least 70% of direct throughput for a cached query. Needs wrk (apt-get install -y wrk).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, runBenchmark } from '../support';

const ROOT = resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const children: ChildProcess[] = [];
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SDL, QUERY } = require('./schema.js') as { SDL: string; QUERY: string };

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-graphql-'));
  const upstreamPort = await freePort();
  await new Promise<void>((resolvePromise, reject) => {
    const child = fork(join(__dirname, 'upstream.js'), [], { env: { ...process.env, PORT: String(upstreamPort) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    child.once('message', () => resolvePromise());
    child.once('exit', (code) => reject(new Error(`upstream exited with ${code}`)));
  });
  const apps = join(work, 'apps');
  mkdirSync(apps, { recursive: true });
  writeFileSync(
    join(apps, 'graph.json'),
    JSON.stringify({ api_id: 'graph', use_keyless: true, proxy: { listen_path: '/graph', target_url: `http://127.0.0.1:${upstreamPort}/graphql`, strip_listen_path: true }, graphql: { enabled: true, execution_mode: 'proxyOnly', schema: SDL } }),
  );
  const gwPort = await freePort();
  const gw = spawn(process.execPath, [join(ROOT, 'dist/lib/main.js')], {
    cwd: work,
    env: { ...process.env, GW_SERVICES: 'gateway', GW_GATEWAY_PORT: String(gwPort), GW_APPS_DIR: apps, GW_LOG_LEVEL: 'warn', GW_SECRET: 'bench' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(gw);
  await new Promise<void>((resolvePromise) => gw.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Gateway:') && resolvePromise()));

  const script = join(work, 'post.lua');
  writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify({ query: QUERY }))}\nwrk.headers["Content-Type"] = "application/json"\n`);
  const targets = [
    { name: 'upstream, direct', url: `http://127.0.0.1:${upstreamPort}/graphql` },
    { name: 'gw, proxy-only (validated, cached)', url: `http://127.0.0.1:${gwPort}/graph` },
  ];
  const direct = await (await fetch(targets[0].url, { method: 'POST', body: JSON.stringify({ query: QUERY }) })).text();
  const viaGw = await (await fetch(targets[1].url, { method: 'POST', body: JSON.stringify({ query: QUERY }) })).text();
  if (direct !== viaGw) throw new Error('gw and the upstream answered differently');
  for (const target of targets) wrk(target.url, script, 1);
  const results = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) results.get(target.name)!.push(wrk(target.url, script, SECONDS));
  }
  const medians = targets.map((t) => median(results.get(t.name)!));
  process.stdout.write(
    [
      '',
      `| system | req/s (median of ${ROUNDS}) | share of direct |`,
      '|---|---|---|',
      ...targets.map((t, i) => `| ${t.name} | ${medians[i].toFixed(0)} | ${((medians[i] / medians[0]) * 100).toFixed(0)}% |`),
      '',
      'Responses were identical.',
      '',
    ].join('\n'),
  );
}

function wrk(url: string, script: string, seconds: number): number {
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '-s', script, url], { encoding: 'utf8' });
  if (/Non-2xx/.test(out)) throw new Error(`wrk against ${url} saw errors:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
}

runBenchmark('bench:graphql', main, children);
