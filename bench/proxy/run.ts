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
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, median, runBenchmark } from '../support';
import { createHmacApi } from './hmac';
import { cachedApi, children, createTokenApi, fixedRateP99, rssMb, startGw, startNginx, startNode, wrk, type System } from './systems';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);


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

runBenchmark('bench:proxy', main, children);
