/**
 * `npm run bench:recorder`: what the analytics recorder costs a gateway node per request, in
 * nanoseconds (median of BENCH_ROUNDS rounds of BENCH_REQUESTS requests), in this process with
 * no I/O: a request context is made, and handed to the recorder as it starts and once it has
 * finished, as the gateway's request watcher does.
 *
 * Rows: no recorder (the harness itself); analytics service present (batches accepted);
 * analytics service absent as a node that does not know it (every batch fails and is counted
 * as dropped); absent and known absent from the registry (`analyticsKnown`: no record is built).
 * With a GeoIP database (a small .mmdb written here) each record also looks its country up.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LoggerInstance } from 'moleculer';
import type { AnalyticsBatch } from '../../contracts/analytics/record-batch';
import { COUNTERS, valueOf } from '../../lib/observability/counters';
import { AnalyticsRecorder, MAX_BATCH } from '../../services/proxy/analytics/analytics-recorder';
import { openCountryLookup, type CountryLookup } from '../../services/proxy/analytics/geoip';
import type { RequestContext } from '../../services/proxy/pipeline/request-context';
import { countryMmdb } from '../../test/support/mmdb';
import { median } from '../support';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const definition = {
  api_id: 'a1',
  name: 'Orders',
  org_id: 'org1',
  proxy: { listen_path: '/orders', target_url: 'http://x' },
};
const session = { alias: 'alice', tags: [] };
const quiet = { warn: () => undefined } as unknown as LoggerInstance;

function request(i: number): { ctx: RequestContext; res: EventEmitter } {
  const res = Object.assign(new EventEmitter(), { statusCode: 200 });
  const ctx = {
    api: { definition },
    req: { method: 'GET', headers: { 'user-agent': 'bench' } },
    res,
    path: '/orders/items',
    relativePath: '/items',
    clientIp: i % 2 === 0 ? '81.2.69.160' : '2.125.160.216',
    session,
    keyHash: 'hash1',
    version: { name: 'Default' },
    upstreamMs: 1.5,
    startedAt: performance.now(),
  } as unknown as RequestContext;
  return { ctx, res };
}

/** ns per request of one round: `REQUESTS` requests, the recorder's flush every MAX_BATCH as its timer would. */
async function round(recorder: AnalyticsRecorder | undefined): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const { ctx, res } = request(i);
    recorder?.started(ctx);
    res.emit('finish');
    recorder?.finished(ctx);
    if (i % MAX_BATCH === MAX_BATCH - 1) {
      recorder?.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  recorder?.flush();
  await new Promise((resolve) => setImmediate(resolve));
  return ((performance.now() - started) * 1e6) / REQUESTS;
}

interface Row {
  label: string;
  recorder: AnalyticsRecorder | undefined;
  times: number[];
  /** records counted as dropped during the measured rounds */
  dropped: number;
}

/** Runs the rows' rounds interleaved (the machine's load then weighs on every row alike). */
async function measure(rows: Array<[string, () => AnalyticsRecorder | undefined]>): Promise<void> {
  const made: Row[] = rows.map(([label, make]) => ({ label, recorder: make(), times: [], dropped: 0 }));
  for (const row of made) await round(row.recorder); // warm-up
  for (let i = 0; i < ROUNDS; i++) {
    for (const row of made) {
      const before = valueOf(COUNTERS.analyticsRecordsDropped);
      row.times.push(await round(row.recorder));
      await row.recorder?.stop(); // waits for the batches in flight, so their drops are counted
      row.dropped += valueOf(COUNTERS.analyticsRecordsDropped) - before;
    }
  }
  for (const row of made) {
    process.stdout.write(
      `${row.label.padEnd(52)} median ${median(row.times).toFixed(0).padStart(5)}  min ${Math.min(...row.times)
        .toFixed(0)
        .padStart(5)} ns/request   dropped ${row.dropped} of ${ROUNDS * REQUESTS}\n`,
    );
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-recorder-'));
  try {
    const mmdb = join(dir, 'countries.mmdb');
    writeFileSync(mmdb, countryMmdb({ '81.2.69.0/24': 'GB', '2.125.160.0/20': 'FR' }));
    const geo = await openCountryLookup(mmdb);
    process.stdout.write(`analytics recorder, ${REQUESTS} requests x ${ROUNDS} rounds (median)\n`);
    for (const [suffix, country] of [
      ['', undefined],
      [', GeoIP', geo],
    ] as Array<[string, CountryLookup | undefined]>) {
      const recorder = (send: (batch: AnalyticsBatch) => Promise<unknown>, analyticsKnown?: () => boolean) =>
        new AnalyticsRecorder({
          send,
          logger: quiet,
          flushIntervalMs: 3_600_000,
          bufferSize: 10_000,
          country,
          analyticsKnown,
        });
      await measure([
        [`no recorder (the harness)${suffix}`, () => undefined],
        [`analytics service present${suffix}`, () => recorder(async () => ({ stored: 0 }))],
        [
          `analytics service absent, not known to be${suffix}`,
          () => recorder(() => Promise.reject(new Error('no analytics service'))),
        ],
        [
          `analytics service absent, known absent${suffix}`,
          () =>
            recorder(
              () => Promise.reject(new Error('no analytics service')),
              () => false,
            ),
        ],
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench:recorder failed: ${(err as Error).stack}\n`);
  process.exitCode = 1;
});
