/**
 * `npm run bench:graphql`: a validated proxy-only GraphQL query through gw against the same
 * query sent directly to the upstream (graphql-js over node:http), wrk with 1 thread and 32
 * connections, rounds alternated, median of the rounds. The goal (issue 7) is that gw keeps at
 * least 70% of direct throughput for a cached query. Second table (issue 14): a combined graph
 * over one local GraphQL and one local REST data source with a nested query, against a
 * hand-written graphql-js server calling the same sources; goal ≥ 0.8×. Needs wrk
 * (apt-get install -y wrk).
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
// eslint-disable-next-line @typescript-eslint/no-require-imports
const combined = require('./combined-graph.js') as { GRAPH_QUERY: string; combinedGraphApi(sourcesUrl: string): object };

/** Starts a benchmark child (a .js file of this folder) and waits until it listens. */
function startChild(file: string, env: Record<string, string>): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    const child = fork(join(__dirname, file), [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    child.once('message', () => resolvePromise());
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-graphql-'));
  const upstreamPort = await freePort();
  await startChild('upstream.js', { PORT: String(upstreamPort) });
  const sourcesUrl = `http://127.0.0.1:${await freePort()}`;
  await startChild('combined-graph.js', { ROLE: 'sources', PORT: new URL(sourcesUrl).port });
  const handWrittenPort = await freePort();
  await startChild('combined-graph.js', { ROLE: 'hand-written', PORT: String(handWrittenPort), SOURCES_URL: sourcesUrl });
  const apps = join(work, 'apps');
  mkdirSync(apps, { recursive: true });
  writeFileSync(
    join(apps, 'graph.json'),
    JSON.stringify({ api_id: 'graph', use_keyless: true, proxy: { listen_path: '/graph', target_url: `http://127.0.0.1:${upstreamPort}/graphql`, strip_listen_path: true }, graphql: { enabled: true, execution_mode: 'proxyOnly', schema: SDL } }),
  );
  writeFileSync(join(apps, 'udg.json'), JSON.stringify(combined.combinedGraphApi(sourcesUrl)));
  const gwPort = await freePort();
  const gw = spawn(process.execPath, [join(ROOT, 'dist/lib/main.js')], {
    cwd: work,
    env: { ...process.env, GW_SERVICES: 'gateway', GW_GATEWAY_PORT: String(gwPort), GW_APPS_DIR: apps, GW_LOG_LEVEL: 'warn', GW_SECRET: 'bench' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(gw);
  await new Promise<void>((resolvePromise) => gw.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Gateway:') && resolvePromise()));

  const proxyOnly = await compare(work, 'proxy-only', QUERY, [
    { name: 'upstream, direct', url: `http://127.0.0.1:${upstreamPort}/graphql` },
    { name: 'gw, proxy-only (validated, cached)', url: `http://127.0.0.1:${gwPort}/graph` },
  ]);
  const udg = await compare(work, 'combined-graph', combined.GRAPH_QUERY, [
    { name: 'hand-written graphql-js server, same sources', url: `http://127.0.0.1:${handWrittenPort}/graphql` },
    { name: 'gw, combined graph (1 GraphQL + 5 REST calls per query)', url: `http://127.0.0.1:${gwPort}/udg` },
  ]);
  process.stdout.write(['', table('share of direct', proxyOnly), '', table('share of hand-written', udg), '', 'Responses were identical.', ''].join('\n'));
}

interface Target {
  name: string;
  url: string;
}

/** Checks both targets answer the query identically, then runs alternated wrk rounds; medians in `targets` order. */
async function compare(work: string, label: string, query: string, targets: Target[]): Promise<Array<{ name: string; rps: number }>> {
  const script = join(work, `${label}.lua`);
  writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify({ query }))}\nwrk.headers["Content-Type"] = "application/json"\n`);
  const answers = await Promise.all(targets.map(async (t) => (await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).text()));
  if (answers.some((answer) => answer !== answers[0])) throw new Error(`${label}: the targets answered differently:\n${answers.join('\n')}`);
  for (const target of targets) wrk(target.url, script, 1);
  const results = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) results.get(target.name)!.push(wrk(target.url, script, SECONDS));
  }
  return targets.map((t) => ({ name: t.name, rps: median(results.get(t.name)!) }));
}

function table(shareOf: string, rows: Array<{ name: string; rps: number }>): string {
  return [`| system | req/s (median of ${ROUNDS}) | ${shareOf} |`, '|---|---|---|', ...rows.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${((r.rps / rows[0]!.rps) * 100).toFixed(0)}% |`)].join('\n');
}

function wrk(url: string, script: string, seconds: number): number {
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '-s', script, url], { encoding: 'utf8' });
  if (/Non-2xx/.test(out)) throw new Error(`wrk against ${url} saw errors:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
}

runBenchmark('bench:graphql', main, children);
