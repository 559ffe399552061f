import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import type { Knex } from 'knex';
import { batchOf, type AnalyticsBatch } from '../../contracts/analytics/record-batch';
import { openDatabase } from '../../lib/store/database';
import { migrate } from '../../lib/store/migrate';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { ANALYTICS_MIGRATIONS } from '../../services/analytics/lib/migrations';
import { MAX_QUEUED_RECORDS, StoreThread } from '../../services/analytics/lib/store-thread';
import { analyticsRecord } from '../support/analytics-record';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { STORE_VARIANTS } from '../support/stores';

const HOUR = 3_600_000;
const at = Math.floor(Date.UTC(2026, 10, 22, 10) / HOUR) * HOUR + 60_000;
const BATCH = 1000;

/** A full batch of one organisation's records over 50 keys, 20 paths and two codes, as a busy gateway sends. */
function busyBatch(orgId: string): AnalyticsBatch {
  return batchOf(
    Array.from({ length: BATCH }, (_, i) =>
      analyticsRecord({
        org_id: orgId,
        key_hash: `k${i % 50}`,
        path: `/p${i % 20}`,
        raw_path: `/orders/p${i % 20}`,
        response_code: i % 7 === 0 ? 500 : 200,
        request_time: at + i * 10,
        latency: 1 + (i % 13),
        upstream_latency: i % 5,
      }),
    ),
  );
}

/** Milliseconds this thread's event loop was busy while `work` ran (its own share, whatever other threads did). */
async function busyMs(work: () => Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(before).active;
}

for (const variant of STORE_VARIANTS) {
  (variant.enabled ? describe : describe.skip)(`analytics writer thread (${variant.name})`, () => {
    let dir: string;
    let url: string;
    let db: Knex;
    let cleanup: () => Promise<void>;
    let thread: StoreThread | undefined;

    const storedRecords = async (orgId: string) =>
      Number((await db('analytics_records').where('org_id', orgId).sum({ n: 'count' }))[0].n ?? 0);
    const hourlyHits = async (orgId: string) =>
      Number((await db('analytics_hourly').where('org_id', orgId).sum({ n: 'hits' }))[0].n ?? 0);

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'gw-analytics-thread-'));
      const opened = await variant.open(dir);
      cleanup = opened.cleanup;
      url = opened.url;
      db = openDatabase(url);
      await migrate(db, 'analytics', ANALYTICS_MIGRATIONS);
    });

    afterEach(async () => {
      await thread?.stop();
      thread = undefined;
      await db.destroy();
      await cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it('folds, packs and writes off the calling thread, which reads the rows on its own connection', async () => {
      thread = await StoreThread.start({ databaseUrl: url, options: {} });
      assert.notEqual(thread.writerThreadId, threadId);
      const batches = 10;
      const inline = new AnalyticsStore(db);
      // Warmed up both ways first: the first batch of each pays for compiling and preparing.
      await inline.ingest(busyBatch('warm-inline'));
      await thread.ingest(busyBatch('warm-thread'));

      const inlineMs = await busyMs(async () => {
        for (let i = 0; i < batches; i++) await inline.ingest(busyBatch('inline'));
      });
      const threadBatches = Array.from({ length: batches }, () => busyBatch('thread'));
      let answers: number[] = [];
      const threadMs = await busyMs(async () => {
        answers = await Promise.all(threadBatches.map((batch) => thread!.ingest(batch)));
      });

      assert.deepEqual(answers, Array(batches).fill(BATCH));
      assert.equal(await storedRecords('thread'), batches * BATCH);
      assert.equal(await hourlyHits('thread'), batches * BATCH);
      assert.equal(await hourlyHits('inline'), batches * BATCH);
      // Both ways built the batches before measuring; the hand-off is what this thread still pays.
      assert.ok(
        threadMs < inlineMs / 2,
        `this thread was busy ${threadMs.toFixed(1)} ms handing over ${batches} batches, ${inlineMs.toFixed(1)} ms storing them itself`,
      );
    });

    it('stores every batch handed over before stop() answers, and refuses batches after it', async () => {
      thread = await StoreThread.start({ databaseUrl: url, options: {} });
      const handedOver = Array.from({ length: 8 }, () => thread!.ingest(busyBatch('stopping')));
      await thread.stop();

      assert.deepEqual(await Promise.all(handedOver), Array(8).fill(BATCH));
      assert.equal(await storedRecords('stopping'), 8 * BATCH);
      assert.equal(await hourlyHits('stopping'), 8 * BATCH);
      await assert.rejects(thread.ingest(busyBatch('late')), /stopping/);
      assert.equal(await storedRecords('late'), 0);
    });

    it('refuses a batch past the queue bound, stores the ones before it and takes batches again once they are', async () => {
      thread = await StoreThread.start({ databaseUrl: url, options: {} });
      const fitting = MAX_QUEUED_RECORDS / BATCH;
      // Handed over in one turn: the thread answers none of them before the last is offered.
      const accepted = Array.from({ length: fitting }, () => thread!.ingest(busyBatch('queued')));
      await assert.rejects(thread.ingest(busyBatch('overflow')), /behind/);

      assert.deepEqual(await Promise.all(accepted), Array(fitting).fill(BATCH));
      assert.equal(await thread.ingest(busyBatch('after')), BATCH);
      assert.equal(await storedRecords('queued'), MAX_QUEUED_RECORDS);
      assert.equal(await storedRecords('overflow'), 0);
      assert.equal(await storedRecords('after'), BATCH);
    });
  });
}

describe('analytics writer thread: a node stopped gracefully', () => {
  let gw: GatewayFixture | undefined;
  let db: Knex | undefined;

  afterEach(async () => {
    await db?.destroy();
    await gw?.upstream.close();
    if (gw) rmSync(gw.node.dataDir, { recursive: true, force: true });
  });

  it("stores the records of every request it answered, sent by the recorder's last flush", async () => {
    // No flush before the stop: every record leaves in the batch the recorder sends as it stops.
    gw = await startGatewayFixture({ analyticsFlushInterval: 3600 });
    await gw.addApi(apiDefinition('last-flush', '/last-flush', gw.upstream.url));
    const requests = 25;
    for (let i = 0; i < requests; i++) assert.equal((await gw.call('/last-flush/x')).status, 200);
    const databaseUrl = gw.node.config.databaseUrl;
    await gw.node.stop();

    db = openDatabase(databaseUrl);
    const stored = await db('analytics_records').where('api_id', 'last-flush').sum({ n: 'count' });
    assert.equal(Number(stored[0].n ?? 0), requests);
  });
});
