/**
 * What gateway workers (GW_WORKERS=2) give on the benchmark's machine: each 2-worker row against
 * its 1-worker row, with gw's CPU per request in both, and the most a second worker could give
 * there. wrk, the upstream and gw share the machine's cores, so the ceiling is not 2×: it is the
 * cores the 1-worker row left idle, taken from the CPU each of the three spent per request.
 */
import { availableParallelism } from 'node:os';
import { median } from '../support';

/** One row's figures per round, as run.ts measured them. */
export interface RowFigures {
  rps: number[];
  /** the row's proxy process, all its threads */
  cpuMicrosPerRequest: number[];
  upstreamCpuMicrosPerRequest: number[];
  /** wrk (or h2load) */
  clientCpuMicrosPerRequest: number[];
}

const PAIRS = [
  ['keyless-w2', 'keyless'],
  ['limits-w2', 'limits'],
] as const;

export function workerScalingLines(measured: Map<string, RowFigures>, cores = availableParallelism()): string[] {
  const pairs = PAIRS.filter(([workers, single]) => measured.has(workers) && measured.has(single));
  if (pairs.length === 0) return [];
  return [
    `Gateway workers, 2 threads / 1 on the same node role (${cores} cores shared by wrk, the upstream and gw; the ceiling is ${cores} cores over those the 1-worker row kept busy):`,
    ...pairs.map(([workers, single]) => {
      const two = figures(measured.get(workers)!);
      const one = figures(measured.get(single)!);
      const ceiling = cores / one.busyCores;
      return (
        `  ${workers} / ${single}: ${(two.rps / one.rps).toFixed(2)}× (${two.rps.toFixed(0)} / ${one.rps.toFixed(0)} req/s); ` +
        `gw CPU ${one.gw.toFixed(1)} → ${two.gw.toFixed(1)} µs/req; ceiling ${ceiling.toFixed(2)}× ` +
        `(1 worker: gw ${one.gw.toFixed(1)} + upstream ${one.upstream.toFixed(1)} + wrk ${one.client.toFixed(1)} µs/req, ${one.busyCores.toFixed(2)} cores busy; ` +
        `2 workers: ${two.busyCores.toFixed(2)} cores busy)`
      );
    }),
    '',
  ];
}

/** Medians of a row's rounds, and the cores its three processes kept busy at that rate. */
function figures(row: RowFigures) {
  const rps = median(row.rps);
  const gw = median(row.cpuMicrosPerRequest);
  const upstream = median(row.upstreamCpuMicrosPerRequest);
  const client = median(row.clientCpuMicrosPerRequest);
  return { rps, gw, upstream, client, busyCores: (rps * (gw + upstream + client)) / 1_000_000 };
}
