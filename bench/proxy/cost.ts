/**
 * `npm run bench:proxy-cost`: what one proxied request costs gw, in CPU time and in young-
 * generation garbage collections, per scenario. Throughput on these 2-core machines moves with
 * whatever else runs; the gateway process's own CPU time per request moves much less, so this is
 * the figure to compare before and after a change to the request path. Each scenario runs
 * BENCH_ROUNDS rounds of BENCH_SECONDS (wrk, 1 thread, 32 connections), alternated; the table
 * shows the median and the spread (min–max) of µs of CPU per request, and scavenges per 10,000
 * requests (the gw nodes run with --trace-gc). BENCH_SCENARIOS picks scenarios by name.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, median, runBenchmark } from '../support';
import { children, cpuMicros, createTokenApi, startGw, startNode, wrk, wrkAsync, type System } from './systems';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LIMITS = { rate: 1_000_000, per: 1, quota_max: 1_000_000_000, quota_renewal_rate: 3600 };

interface Scenario extends System {
  pid: number;
  scavenges: () => number;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-cost-'));
  const upstreamPort = await freePort();
  await startNode(join(__dirname, 'upstream.js'), { PORT: String(upstreamPort) });
  const keyless = await traced(startGw(work, 'gw-keyless', upstreamPort, 10, 'gateway', {}, [], ['--trace-gc']));
  const chain = await traced(startGw(work, 'gw-chain', upstreamPort, 0, 'all', { GW_ANALYTICS: 'false' }, [], ['--trace-gc']));
  const analytics = await traced(startGw(work, 'gw-analytics', upstreamPort, 0, 'all', {}, [], ['--trace-gc']));
  const tokenKey = await createTokenApi(chain.url, upstreamPort, 'token-api', {});
  const limitedKey = await createTokenApi(chain.url, upstreamPort, 'limited-api', LIMITS);
  const analyticsKey = await createTokenApi(analytics.url, upstreamPort, 'limited-api', LIMITS);
  const all: Scenario[] = [
    { name: 'keyless', url: `${keyless.url}/api-9/hello`, pid: keyless.pid, scavenges: keyless.scavenges },
    { name: 'token', url: `${chain.url}/token-api/hello`, pid: chain.pid, scavenges: chain.scavenges, headers: { authorization: tokenKey } },
    { name: 'token+limits', url: `${chain.url}/limited-api/hello`, pid: chain.pid, scavenges: chain.scavenges, headers: { authorization: limitedKey } },
    { name: 'token+limits+analytics', url: `${analytics.url}/limited-api/hello`, pid: analytics.pid, scavenges: analytics.scavenges, headers: { authorization: analyticsKey } },
  ];
  const wanted = process.env.BENCH_SCENARIOS?.split(',');
  const scenarios = wanted ? all.filter((s) => wanted.includes(s.name)) : all;
  for (const scenario of scenarios) wrk(scenario, 2); // warm-up: JIT, pools
  const micros = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const gcs = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const rates = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of round % 2 === 0 ? scenarios : [...scenarios].reverse()) {
      const cpuBefore = cpuMicros(scenario.pid);
      const gcBefore = scenario.scavenges();
      const result = await wrkAsync(scenario, SECONDS);
      // The analytics node stores its batch up to a second after the load stops (and the last
      // GC lines are on their way): the next second is counted with this round.
      await new Promise((r) => setTimeout(r, 1100));
      micros.get(scenario.name)!.push((cpuMicros(scenario.pid) - cpuBefore) / result.requests);
      gcs.get(scenario.name)!.push(((scenario.scavenges() - gcBefore) * 10_000) / result.requests);
      rates.get(scenario.name)!.push(result.rps);
    }
  }
  const spread = (values: number[]) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
  const lines = ['', `| scenario | µs CPU per request, median (min–max) of ${ROUNDS} | scavenges per 10k requests | req/s |`, '|---|---|---|---|'];
  for (const s of scenarios) lines.push(`| ${s.name} | ${spread(micros.get(s.name)!)} | ${spread(gcs.get(s.name)!)} | ${median(rates.get(s.name)!).toFixed(0)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Counts the young-generation collections a gw node started with --trace-gc reports. */
async function traced(started: ReturnType<typeof startGw>): Promise<Awaited<ReturnType<typeof startGw>> & { scavenges: () => number }> {
  const node = await started;
  let count = 0;
  node.child.stdout!.on('data', (chunk: Buffer) => {
    count += chunk.toString().split('Scavenge').length - 1;
  });
  return { ...node, scavenges: () => count };
}

runBenchmark('bench:proxy-cost', main, children);
