/**
 * `npm run bench:analytics-store`: what the analytics service's store costs per record, in CPU
 * time (user + system of this process) and wall time, when it stores batches of MAX_BATCH
 * records as a gateway node sends them: one API, one key, one endpoint (the bench:proxy
 * scenario), in SQLite on a file (the embedded default) or in the database of GW_DATABASE_URL.
 * Median (min–max) of BENCH_ROUNDS rounds of BENCH_BATCHES batches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyticsRecordIn } from '../../contracts/analytics/actions';
import { batchOf } from '../../contracts/analytics/record-batch';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { ANALYTICS_MIGRATIONS } from '../../services/analytics/lib/migrations';
import { MAX_BATCH } from '../../services/proxy/analytics/analytics-recorder';
import { openDatabase } from '../../lib/store/database';
import { migrate } from '../../lib/store/migrate';
import { median } from '../support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 50);

function batch(start: number): AnalyticsRecordIn[] {
  const records: AnalyticsRecordIn[] = [];
  for (let i = 0; i < MAX_BATCH; i++) {
    records.push({
      api_id: 'limited-api',
      api_name: 'limited-api',
      org_id: '',
      path: '/hello',
      raw_path: '/limited-api/hello',
      method: 'GET',
      response_code: 200,
      key_hash: 'b5e0c1d2a3f4',
      alias: '',
      oauth_client_id: '',
      request_time: start + i,
      latency: 1.234 + (i % 7) / 1000,
      upstream_latency: 0.876 + (i % 5) / 1000,
      ip_address: '127.0.0.1',
      user_agent: '',
      iso_country: '',
      tags: [],
      track_path: true,
      expire_after: 0,
      refused_before_auth: false,
    });
  }
  return records;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-store-'));
  const db = openDatabase(process.env.GW_DATABASE_URL ?? `sqlite:${join(dir, 'gw.db')}`);
  try {
    await migrate(db, 'analytics', ANALYTICS_MIGRATIONS);
    const store = new AnalyticsStore(db);
    let now = Date.now();
    const batches = Array.from({ length: BATCHES }, () => batch((now += MAX_BATCH)));
    for (const records of batches.slice(0, 5)) await store.ingest(batchOf(records)); // warm-up
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // as a gateway node sends them: built outside the measured time
      const fresh = batches.map((records) => batchOf(records));
      const cpuBefore = process.cpuUsage();
      const wallBefore = performance.now();
      for (const batch of fresh) await store.ingest(batch);
      const used = process.cpuUsage(cpuBefore);
      wall.push(((performance.now() - wallBefore) * 1000) / (BATCHES * MAX_BATCH));
      cpu.push((used.user + used.system) / (BATCHES * MAX_BATCH));
    }
    const spread = (values: number[]) =>
      `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
    process.stdout.write(
      `analytics store, ${BATCHES} batches of ${MAX_BATCH} x ${ROUNDS} rounds: µs per record CPU ${spread(cpu)}, wall ${spread(wall)}\n`,
    );
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench:analytics-store failed: ${(err as Error).stack}\n`);
  process.exitCode = 1;
});
