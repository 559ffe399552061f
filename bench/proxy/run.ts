/**
 * `npm run bench:proxy`: the proxy benchmark of docs/performance.md#proxy-rest. Runs the rows of
 * rows.ts (the upstream directly, nginx, a bare node:http + undici proxy, fast-gateway, then gw
 * with more and more features) with wrk, 1 thread and 32 connections, BENCH_SECONDS (5) s rounds
 * alternated between the rows, each round just after an unmeasured second of load on its row
 * (warmBurst), and prints per row the median req/s of BENCH_ROUNDS (3) rounds with its spread,
 * the p99 at peak, the CPU time the proxy process spent per request, and the ratios to the bare
 * proxy and to fast-gateway. Then the added p99 latency over direct at half of a row's peak rate
 * (keyless, and token + limits + analytics), the start-up time and resident memory of each gw
 * node, and 10 vs 1,000 vs 10,000 loaded APIs side by side.
 *
 * The -w2 rows run the keyless and limits rows on nodes with two gateway worker threads
 * (GW_WORKERS=2; every other node has one): their ratios to the 1-worker rows follow the table,
 * with gw's CPU per request in both and the ceiling the cores left to a second worker allow
 * (worker-scaling.ts, from the CPU per request of wrk, the upstream and gw in each round).
 *
 * The HTTP/2 rows (an HTTP/2 client on the keyless API; gRPC unary calls directly and through
 * gw to an h2c:// upstream) are measured with h2load instead of wrk: 1 thread, 4 connections ×
 * 8 streams (BENCH_H2_CLIENTS, BENCH_H2_STREAMS), the same 32 requests in flight; their ratios
 * (HTTP/2 to HTTP/1.1 keyless, gRPC through gw to direct) follow the table.
 *
 * BENCH_ROWS=<id,id,…> runs a subset (ids: see rows.ts or the table's first column);
 * BENCH_ROUNDS=1 BENCH_SECONDS=2 is a smoke run; BENCH_GRPC_SERVER=http2 serves the gRPC rows
 * with a minimal node:http2 server instead of grpc-js (grpc-upstream.js).
 * Needs wrk and nginx from Debian: apt-get install -y wrk nginx-light; and h2load for the
 * HTTP/2 rows: apt-get install -y nghttp2-client (without it they are skipped, with a note).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, median, runBenchmark } from '../support';
import { startRows, type GwNode, type Row } from './rows';
import { children, cpuMicros, fixedRateP99, load, rssMb, startNode, waitedChildrenCpuMicros } from './systems';
import { workerScalingLines, type RowFigures } from './worker-scaling';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WANTED = process.env.BENCH_ROWS?.split(',')
  .map((id) => id.trim())
  .filter((id) => id !== '');
/**
 * Rows whose added p99 at half of their own peak is measured against direct at the same rate:
 * the bare proxy's says what the platform and the machine add (three busy processes on two
 * cores), before anything gw does.
 */
const HALF_LOAD_ROWS = ['bare', 'keyless', 'keyless-w2', 'limits', 'analytics'];

interface Measured extends RowFigures {
  p99Ms: number[];
}

async function main(): Promise<void> {
  for (const tool of ['wrk', 'nginx'])
    if (!installed(tool)) throw new Error(`${tool} is not installed: apt-get install -y wrk nginx-light`);
  const hasH2load = installed('h2load');
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const upstreamPort = await freePort();
  const upstream = await startNode(join(__dirname, 'upstream.js'), { PORT: String(upstreamPort) });
  const { rows, nodes, skipped } = await startRows(WANTED, work, upstreamPort, upstream.pid!, hasH2load);

  for (const row of rows) load(row, 1); // warm-up: JIT, pools
  const measured = new Map<string, Measured>(
    rows.map((row) => [
      row.id,
      { rps: [], p99Ms: [], cpuMicrosPerRequest: [], upstreamCpuMicrosPerRequest: [], clientCpuMicrosPerRequest: [] },
    ]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
      warmBurst(row);
      const cpuBefore = row.pid === undefined ? 0 : cpuMicros(row.pid);
      const upstreamBefore = cpuMicros(upstream.pid!);
      const clientBefore = waitedChildrenCpuMicros();
      const result = load(row, SECONDS);
      const m = measured.get(row.id)!;
      m.rps.push(result.rps);
      m.p99Ms.push(result.p99Ms);
      if (row.pid !== undefined) m.cpuMicrosPerRequest.push((cpuMicros(row.pid) - cpuBefore) / result.requests);
      m.upstreamCpuMicrosPerRequest.push((cpuMicros(upstream.pid!) - upstreamBefore) / result.requests);
      m.clientCpuMicrosPerRequest.push((waitedChildrenCpuMicros() - clientBefore) / result.requests);
      process.stderr.write(`round ${round + 1}: ${row.id}: ${result.rps.toFixed(0)} req/s\n`);
    }
  }

  const peak = (id: string) => (measured.has(id) ? median(measured.get(id)!.rps) : undefined);
  const ratio = (rps: number, baseline: number | undefined) =>
    baseline === undefined ? '–' : (rps / baseline).toFixed(2);
  const lines = [
    '',
    `| id | system | req/s, median (min–max) of ${ROUNDS} × ${SECONDS} s | p99 at peak (ms) | proxy CPU µs/req | ratio to bare proxy | ratio to fast-gateway |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const m = measured.get(row.id)!;
    const rps = median(m.rps);
    const cpu = m.cpuMicrosPerRequest.length > 0 ? median(m.cpuMicrosPerRequest).toFixed(0) : '–';
    lines.push(
      `| ${row.id} | ${row.name} | ${spread(m.rps, 0)} | ${median(m.p99Ms).toFixed(2)} | ${cpu} | ${ratio(rps, peak('bare'))} | ${ratio(rps, peak('fast-gateway'))} |`,
    );
  }
  lines.push(
    '',
    ...workerScalingLines(measured),
    ...http2Lines(peak, skipped),
    ...addedP99(rows, peak, upstreamPort, work),
    '',
    ...apiCountLines(measured),
    ...nodeLines(nodes),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * The added p99 at half of a row's peak: wrk with a fixed delay per connection against the row
 * and against the upstream directly at the same rate, alternated, BENCH_ROUNDS times each.
 */
function addedP99(rows: Row[], peak: (id: string) => number | undefined, upstreamPort: number, work: string): string[] {
  const directRow: Row = { id: 'direct', name: 'direct', url: `http://127.0.0.1:${upstreamPort}/api/hello` };
  const lines: string[] = [];
  for (const row of rows.filter((r) => HALF_LOAD_ROWS.includes(r.id))) {
    const rate = Math.round(peak(row.id)! / 2);
    const viaGw: number[] = [];
    const viaDirect: number[] = [];
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pair = round % 2 === 0 ? [row, directRow] : [directRow, row];
      for (const system of pair) {
        warmBurst(system);
        const result = fixedRateP99(system, rate, 2 * SECONDS, work);
        (system === row ? viaGw : viaDirect).push(result.p99Ms);
        if (system === row) rates.push(result.rps);
      }
    }
    if (lines.length === 0)
      lines.push(
        `Added p99 at half of a row's peak (wrk, fixed jittered delay per connection, 32 connections, ${2 * SECONDS} s, median (min–max) of ${ROUNDS}):`,
      );
    lines.push(
      `  ${row.id}: ${rate} req/s asked (${median(rates).toFixed(0)} served): p99 ${spread(viaGw, 2)} ms, direct ${spread(viaDirect, 2)} ms → added ${(median(viaGw) - median(viaDirect)).toFixed(2)} ms`,
    );
  }
  return lines;
}

function installed(tool: string): boolean {
  try {
    execFileSync('which', [tool], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The HTTP/2 rows against their HTTP/1.1 or direct counterparts, or why they were not run. */
function http2Lines(peak: (id: string) => number | undefined, skipped: string[]): string[] {
  if (skipped.length > 0)
    return [`Skipped ${skipped.join(', ')}: h2load is not installed (apt-get install -y nghttp2-client).`, ''];
  const pairs = [
    ['h2', 'keyless', 'HTTP/2 client / HTTP/1.1 client, keyless'],
    ['h2', 'keyless-h2c', 'HTTP/2 client / HTTP/1.1 client, keyless, same node'],
    ['keyless-h2c', 'keyless', 'HTTP/1.1 on the h2c node / on the HTTP/1.1-only node'],
    ['grpc', 'grpc-direct', 'gRPC unary through gw / direct'],
  ].filter(([row, baseline]) => peak(row) !== undefined && peak(baseline) !== undefined);
  if (pairs.length === 0) return [];
  return [
    `HTTP/2 (h2load: 1 thread, ${process.env.BENCH_H2_CLIENTS ?? 4} connections × ${process.env.BENCH_H2_STREAMS ?? 8} streams):`,
    ...pairs.map(
      ([row, baseline, what]) => `  ${what}: ${(peak(row)! / peak(baseline)!).toFixed(2)} (${row} / ${baseline})`,
    ),
    '',
  ];
}

/**
 * An unmeasured second of full load against a row just before it is measured. A process left
 * idle while the other rows ran (a minute in a full run, less in a partial one) spends its next
 * second at up to 2–3× the CPU per request (caches, the JIT, V8's idle-time heap shrinking, the
 * host's scheduling): without the burst, how long a row's process sat idle before its round
 * would weigh on its figure, and a node serving one row (gw-analytics) would be measured cold
 * while one serving five in a row (gw-auth) is measured warm.
 */
function warmBurst(row: Row): void {
  load(row, 1);
}

function apiCountLines(measured: Map<string, Measured>): string[] {
  const counts = [
    ['10', 'keyless', 'gw-10'],
    ['1,000', 'keyless-1000', 'gw-1000'],
    ['10,000', 'keyless-10000', 'gw-10000'],
  ].filter(([, id]) => measured.has(id));
  if (counts.length < 2) return [];
  const first = median(measured.get(counts[0][1])!.rps);
  const parts = counts.map(([count, id]) => {
    const m = measured.get(id)!;
    return `${count}: ${median(m.rps).toFixed(0)} req/s (×${(median(m.rps) / first).toFixed(2)}), ${median(m.cpuMicrosPerRequest).toFixed(0)} µs CPU/req`;
  });
  return [`Loaded APIs, keyless, last API: ${parts.join('; ')}`];
}

function nodeLines(nodes: GwNode[]): string[] {
  return [
    `gw start-up (spawn to serving every API): ${nodes.map((node) => `${node.name} ${(node.startupMs / 1000).toFixed(1)} s`).join(', ')}`,
    `gw resident memory after the rounds (VmRSS): ${nodes.map((node) => `${node.name} ${rssMb(node.pid)} MB`).join(', ')}`,
    "Nodes: gw-10/1000/10000 run the gateway role with keyless APIs from files; gw-auth (token, JWT, OAuth, HMAC, OAS) and gw-analytics (limits, analytics) run every service, gw-auth with analytics off; the limits row's API is `do_not_track`, so it is the analytics row's chain without analytics, on the same node. Every node has one gateway thread (GW_WORKERS=1) but gw-10-w2 and gw-analytics-w2, gw-10's and gw-analytics' twins with two (GW_WORKERS=2).",
  ];
}

function spread(values: number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

runBenchmark('bench:proxy', main, children);
