/**
 * `npm run bench:proxy-cost`: what one proxied request costs gw, in CPU time and in young-
 * generation garbage collections, per scenario. Throughput on these 2-core machines moves with
 * whatever else runs; the gateway process's own CPU time per request moves much less, so this is
 * the figure to compare before and after a change to the request path. Each scenario runs
 * BENCH_ROUNDS rounds of BENCH_SECONDS (wrk, 1 thread, 32 connections), alternated; the table
 * shows the median and the spread (min–max) of µs of CPU per request, and scavenges per 10,000
 * requests (the gw nodes run with --trace-gc), and KB allocated in V8's young generation per
 * request (young-gen.cjs; it barely moves with the machine's load, unlike CPU time).
 * BENCH_SCENARIOS picks scenarios by name; BENCH_PAUSE_SECONDS leaves every node idle that long
 * before each round, as the full bench:proxy does (about a minute) between a node's rounds.
 *
 * A/B in one run: BENCH_BASELINE_DIST names another build (a copy of an older dist/, inside a
 * folder where node_modules resolves) and/or BENCH_BASELINE_NODE_ARGS other node flags (e.g.
 * `--max-semi-space-size=32`); every scenario then also runs against that baseline, in the same
 * alternated rounds, as `<scenario> (baseline)`. BENCH_DIST names the build under test (default dist/) and
 * BENCH_NODE_ARGS adds node flags to it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, runBenchmark } from '../support';
import { createJwtApi } from './jwt';
import { children, cpuMicros, createTokenApi, startGw, startNode, wrk, wrkAsync, type System } from './systems';
import { startTraceSink } from './trace-sink';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** idle seconds before each scenario's round: the full bench:proxy leaves a node idle for about a minute between its rounds */
const PAUSE_SECONDS = Number(process.env.BENCH_PAUSE_SECONDS ?? 0);
const LIMITS = { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 3600 };

interface Scenario extends System {
  pid: number;
  scavenges: () => number;
  /** ms the node's main thread spent paused in GC so far (scavenges and mark-compacts, from --trace-gc) */
  gcPauseMs: () => number;
  /** bytes allocated in the young generation so far (asks the node) */
  allocated: () => Promise<number>;
}

/** Which gw build runs, with which node flags. */
interface Build {
  label: string;
  dist?: string;
  nodeArgs: string[];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-cost-'));
  const upstreamPort = await freePort();
  await startNode(join(__dirname, 'upstream.js'), { PORT: String(upstreamPort) });
  const flags = (value: string | undefined) => (value ?? '').split(' ').filter((arg) => arg !== '');
  const builds: Build[] = [
    {
      label: '',
      dist: process.env.BENCH_DIST && resolve(process.env.BENCH_DIST),
      nodeArgs: flags(process.env.BENCH_NODE_ARGS),
    },
  ];
  if (process.env.BENCH_BASELINE_DIST || process.env.BENCH_BASELINE_NODE_ARGS) {
    builds.unshift({
      label: ' (baseline)',
      dist: process.env.BENCH_BASELINE_DIST && resolve(process.env.BENCH_BASELINE_DIST),
      nodeArgs: flags(process.env.BENCH_BASELINE_NODE_ARGS),
    });
  }
  const wanted = process.env.BENCH_SCENARIOS?.split(',');
  const perBuild: Scenario[][] = [];
  for (const build of builds)
    perBuild.push(await scenariosOf(build, work, upstreamPort, (name) => !wanted || wanted.includes(name)));
  // baseline and build under test side by side, so each pair runs back to back
  const scenarios = perBuild[0].flatMap((_, i) => perBuild.map((list) => list[i]));
  for (const scenario of scenarios) wrk(scenario, 2); // warm-up: JIT, pools
  const micros = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const gcs = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const rates = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const bytes = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const pauses = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of round % 2 === 0 ? scenarios : [...scenarios].reverse()) {
      if (PAUSE_SECONDS > 0) await new Promise((r) => setTimeout(r, PAUSE_SECONDS * 1000));
      const cpuBefore = cpuMicros(scenario.pid);
      const gcBefore = scenario.scavenges();
      const pauseBefore = scenario.gcPauseMs();
      const allocatedBefore = await scenario.allocated();
      const result = await wrkAsync(scenario, SECONDS);
      // The analytics node stores its batch up to a second after the load stops (and the last
      // GC lines are on their way): the next second is counted with this round.
      await new Promise((r) => setTimeout(r, 1100));
      micros.get(scenario.name)!.push((cpuMicros(scenario.pid) - cpuBefore) / result.requests);
      gcs.get(scenario.name)!.push(((scenario.scavenges() - gcBefore) * 10_000) / result.requests);
      pauses.get(scenario.name)!.push(((scenario.gcPauseMs() - pauseBefore) * 1000) / result.requests);
      rates.get(scenario.name)!.push(result.rps);
      bytes.get(scenario.name)!.push(((await scenario.allocated()) - allocatedBefore) / result.requests);
    }
  }
  const spread = (values: number[]) =>
    `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
  const lines = [
    '',
    `| scenario | µs CPU per request, median (min–max) of ${ROUNDS} | scavenges per 10k requests | µs GC pause per request | young-generation KB allocated per request | req/s |`,
    '|---|---|---|---|---|---|',
  ];
  const kb = (values: number[]) => spread(values.map((value) => value / 1024));
  const fine = (values: number[]) =>
    `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
  for (const s of scenarios)
    lines.push(
      `| ${s.name} | ${spread(micros.get(s.name)!)} | ${spread(gcs.get(s.name)!)} | ${fine(pauses.get(s.name)!)} | ${kb(bytes.get(s.name)!)} | ${median(rates.get(s.name)!).toFixed(0)} |`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Starts the gw nodes of one build and names what to load on them. */
async function scenariosOf(
  build: Build,
  work: string,
  upstreamPort: number,
  wanted: (name: string) => boolean,
): Promise<Scenario[]> {
  const nodeArgs = ['--trace-gc', '-r', join(__dirname, 'young-gen.cjs'), ...build.nodeArgs];
  const suffix = build.label === '' ? '' : '-baseline';
  const scenarios: Scenario[] = [];
  const add = (name: string, node: Traced, path: string, key?: string) => {
    scenarios.push({
      name: name + build.label,
      url: `${node.url}${path}`,
      pid: node.pid,
      scavenges: node.scavenges,
      gcPauseMs: node.gcPauseMs,
      allocated: node.allocated,
      headers: key === undefined ? undefined : { authorization: key },
    });
  };
  // Only the nodes a wanted scenario runs on are started.
  if (wanted('keyless'))
    add(
      'keyless',
      await traced(startGw(work, `gw-keyless${suffix}`, upstreamPort, 10, 'gateway', {}, [], nodeArgs, build.dist)),
      '/api-9/hello',
    );
  // the keyless node with OpenTelemetry tracing on, every request sampled, exported to a sink as
  // bench:proxy's keyless-traced row does: over OTLP/HTTP with protobuf, and (-json) with JSON
  for (const [name, exporter] of [
    ['keyless-traced', 'http/protobuf'],
    ['keyless-traced-json', 'http/json'],
  ] as const)
    if (wanted(name)) {
      const env = {
        GW_OTEL_ENDPOINT: (await startTraceSink()).url,
        GW_OTEL_SAMPLING_TYPE: 'AlwaysOn',
        GW_OTEL_EXPORTER: exporter,
      };
      const node = startGw(work, `gw-${name}${suffix}`, upstreamPort, 10, 'gateway', env, [], nodeArgs, build.dist);
      add(name, await traced(node), '/api-9/hello');
    }
  // the last of 10,000 loaded APIs: what a large routing table and heap cost a request
  if (wanted('keyless-10000'))
    add(
      'keyless-10000',
      await traced(
        startGw(work, `gw-keyless-10000${suffix}`, upstreamPort, 10_000, 'gateway', {}, [], nodeArgs, build.dist),
      ),
      '/api-9999/hello',
    );
  if (wanted('token') || wanted('token+limits') || wanted('jwt')) {
    const chain = await traced(
      startGw(work, `gw-chain${suffix}`, upstreamPort, 0, 'all', { GW_ANALYTICS: 'false' }, [], nodeArgs, build.dist),
    );
    if (wanted('token'))
      add('token', chain, '/token-api/hello', await createTokenApi(chain.url, upstreamPort, 'token-api', {}));
    // one RS256 token from a key set, reused: its verification is remembered after the first request
    if (wanted('jwt'))
      add('jwt', chain, '/jwt-api/hello', (await createJwtApi(chain.url, upstreamPort, 'jwt-api')).authorization);
    if (wanted('token+limits'))
      add(
        'token+limits',
        chain,
        '/limited-api/hello',
        await createTokenApi(chain.url, upstreamPort, 'limited-api', LIMITS),
      );
  }
  if (wanted('token+limits+analytics') || wanted('token+limits untracked')) {
    const analytics = await traced(
      startGw(work, `gw-analytics${suffix}`, upstreamPort, 0, 'all', {}, [], nodeArgs, build.dist),
    );
    // the same chain on the same node with the API not tracked: analytics' cost without the
    // difference between two processes
    if (wanted('token+limits untracked'))
      add(
        'token+limits untracked',
        analytics,
        '/untracked-api/hello',
        await createTokenApi(analytics.url, upstreamPort, 'untracked-api', LIMITS, { do_not_track: true }),
      );
    if (wanted('token+limits+analytics'))
      add(
        'token+limits+analytics',
        analytics,
        '/limited-api/hello',
        await createTokenApi(analytics.url, upstreamPort, 'limited-api', LIMITS),
      );
  }
  return scenarios;
}

type Traced = Awaited<ReturnType<typeof traced>>;

/**
 * Counts the young-generation collections a gw node started with --trace-gc reports, and adds up
 * the pauses of every collection it reports (`…MB, 0.52 / 0.00 ms …`: the first figure).
 */
async function traced(started: ReturnType<typeof startGw>): Promise<
  Awaited<ReturnType<typeof startGw>> & {
    scavenges: () => number;
    gcPauseMs: () => number;
    allocated: () => Promise<number>;
  }
> {
  const node = await started;
  let count = 0;
  let pauseMs = 0;
  const waiting: Array<(bytes: number) => void> = [];
  let partial = '';
  node.child.stdout!.on('data', (chunk: Buffer) => {
    // whole lines only: a GC line split between two chunks is read once it is complete
    const lines = partial + chunk.toString();
    const end = lines.lastIndexOf('\n') + 1;
    partial = lines.slice(end);
    const text = lines.slice(0, end);
    count += text.split('Scavenge').length - 1;
    for (const match of text.matchAll(/(?:Scavenge|Mark-Compact|Mark-Sweep)[^\n]*? MB, ([\d.]+) \/ [\d.]+ ms/g))
      pauseMs += Number(match[1]);
    for (const match of text.matchAll(/young-gen allocated: (\d+)/g)) waiting.shift()?.(Number(match[1]));
  });
  const allocated = () =>
    new Promise<number>((resolvePromise) => {
      waiting.push(resolvePromise);
      node.child.kill('SIGUSR2');
    });
  return { ...node, scavenges: () => count, gcPauseMs: () => pauseMs, allocated };
}

runBenchmark('bench:proxy-cost', main, children);
