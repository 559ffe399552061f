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
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, runBenchmark } from '../support';

const ROOT = resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const children: ChildProcess[] = [];
const { SDL, QUERY } = require('./schema.js') as { SDL: string; QUERY: string };
const combined = require('./combined-graph.js') as {
  GRAPH_QUERY: string;
  combinedGraphApi(sourcesUrl: string): object;
};

/** Starts a benchmark child (a .js file of this folder) and waits until it listens. */
function startChild(file: string, env: Record<string, string>): Promise<number> {
  return new Promise<number>((resolvePromise, reject) => {
    const child = fork(join(__dirname, file), [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    child.once('message', () => resolvePromise(child.pid!));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-graphql-'));
  const upstreamPort = await freePort();
  const upstreamPid = await startChild('upstream.js', { PORT: String(upstreamPort) });
  const sourcesUrl = `http://127.0.0.1:${await freePort()}`;
  await startChild('combined-graph.js', { ROLE: 'sources', PORT: new URL(sourcesUrl).port });
  const handWrittenPort = await freePort();
  const handWrittenPid = await startChild('combined-graph.js', {
    ROLE: 'hand-written',
    PORT: String(handWrittenPort),
    SOURCES_URL: sourcesUrl,
  });
  const apps = join(work, 'apps');
  mkdirSync(apps, { recursive: true });
  writeFileSync(
    join(apps, 'graph.json'),
    JSON.stringify({
      api_id: 'graph',
      use_keyless: true,
      proxy: { listen_path: '/graph', target_url: `http://127.0.0.1:${upstreamPort}/graphql`, strip_listen_path: true },
      graphql: { enabled: true, execution_mode: 'proxyOnly', schema: SDL },
    }),
  );
  writeFileSync(join(apps, 'udg.json'), JSON.stringify(combined.combinedGraphApi(sourcesUrl)));
  const gwPort = await freePort();
  const gw = spawn(process.execPath, [join(ROOT, 'dist/app/main.js')], {
    cwd: work,
    env: {
      ...process.env,
      GW_SERVICES: 'gateway',
      GW_GATEWAY_PORT: String(gwPort),
      GW_APPS_DIR: apps,
      GW_LOG_LEVEL: 'warn',
      GW_SECRET: 'bench',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(gw);
  await new Promise<void>((resolvePromise) =>
    gw.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Gateway:') && resolvePromise()),
  );

  const proxyOnly = await compare(work, 'proxy-only', QUERY, [
    { name: 'upstream, direct', url: `http://127.0.0.1:${upstreamPort}/graphql`, pid: upstreamPid },
    { name: 'gw, proxy-only (validated, cached)', url: `http://127.0.0.1:${gwPort}/graph`, pid: gw.pid! },
  ]);
  const udg = await compare(work, 'combined-graph', combined.GRAPH_QUERY, [
    {
      name: 'hand-written graphql-js server, same sources',
      url: `http://127.0.0.1:${handWrittenPort}/graphql`,
      pid: handWrittenPid,
    },
    {
      name: 'gw, combined graph (1 GraphQL + 5 REST calls per query)',
      url: `http://127.0.0.1:${gwPort}/udg`,
      pid: gw.pid!,
    },
  ]);
  process.stdout.write(
    [
      '',
      table('share of direct', proxyOnly),
      '',
      table('share of hand-written', udg),
      '',
      'Responses were identical.',
      '',
    ].join('\n'),
  );
}

interface Target {
  name: string;
  url: string;
  /** the process serving it: its CPU time per request is measured too (steadier than req/s on a busy machine) */
  pid: number;
}

interface Measured {
  name: string;
  rps: number;
  /** CPU time of the serving process per request, in microseconds */
  cpuUs: number;
}

/** Checks both targets answer the query identically, then runs alternated wrk rounds; medians in `targets` order. */
async function compare(work: string, label: string, query: string, targets: Target[]): Promise<Measured[]> {
  const script = join(work, `${label}.lua`);
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify({ query }))}\nwrk.headers["Content-Type"] = "application/json"\n`,
  );
  const answers = await Promise.all(
    targets.map(async (t) =>
      (
        await fetch(t.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        })
      ).text(),
    ),
  );
  if (answers.some((answer) => answer !== answers[0]))
    throw new Error(`${label}: the targets answered differently:\n${answers.join('\n')}`);
  for (const target of targets) wrk(target.url, script, 1); // warm-up
  const results = new Map<string, Array<{ rps: number; cpuUs: number }>>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const cpuBefore = cpuMs(target.pid);
      const { rps, requests } = wrk(target.url, script, SECONDS);
      results.get(target.name)!.push({ rps, cpuUs: ((cpuMs(target.pid) - cpuBefore) * 1000) / requests });
    }
  }
  return targets.map((t) => ({
    name: t.name,
    rps: median(results.get(t.name)!.map((r) => r.rps)),
    cpuUs: median(results.get(t.name)!.map((r) => r.cpuUs)),
  }));
}

function table(shareOf: string, rows: Measured[]): string {
  return [
    `| system | req/s (median of ${ROUNDS}) | ${shareOf} | CPU µs per request (median) | CPU share |`,
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.rps.toFixed(0)} | ${((r.rps / rows[0].rps) * 100).toFixed(0)}% | ${r.cpuUs.toFixed(0)} | ${((r.cpuUs / rows[0].cpuUs) * 100).toFixed(0)}% |`,
    ),
  ].join('\n');
}

/** User plus system CPU time a process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function wrk(url: string, script: string, seconds: number): { rps: number; requests: number } {
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '-s', script, url], { encoding: 'utf8' });
  if (/Non-2xx/.test(out)) throw new Error(`wrk against ${url} saw errors:\n${out}`);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    requests: Number(/(\d+) requests in/.exec(out)?.[1]),
  };
}

runBenchmark('bench:graphql', main, children);
