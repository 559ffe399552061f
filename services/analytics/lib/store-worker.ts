import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { AnalyticsBatch } from '../../../contracts/analytics/record-batch';
import { openDatabase } from '../../../lib/store/database';
import { AnalyticsStore } from './analytics-store';
import type { StoreReply, StoreRequest, StoreWorkerData, TransferredBatch } from './store-messages';

/**
 * The analytics writer thread (store-thread.ts starts it): folds, packs and writes the batches
 * the analytics service is given, on a database connection of its own, so that none of it runs
 * on the thread that serves requests. Requests are answered in any order, by id; `close` is
 * answered once every request before it has been, and the connection is closed.
 */
async function main(): Promise<void> {
  const port = parentPort!;
  const { databaseUrl, options } = workerData as StoreWorkerData;
  const db = openDatabase(databaseUrl);
  const store = new AnalyticsStore(db, options);
  const reply = (message: StoreReply) => port.postMessage(message);
  const working = new Set<Promise<void>>();

  const answer = (id: number, work: () => Promise<unknown>) => {
    const done: Promise<void> = work()
      .then(
        (result) => reply({ id, kind: 'done', result }),
        (err: unknown) =>
          reply({
            id,
            kind: 'failed',
            message: (err as Error)?.message ?? String(err),
            code: (err as { code?: string })?.code,
          }),
      )
      .finally(() => working.delete(done));
    working.add(done);
  };

  port.on('message', (request: StoreRequest) => {
    switch (request.kind) {
      case 'ingest':
        return answer(request.id, () => store.ingest(batchOf(request.batch)));
      case 'sweep':
        return answer(request.id, () => store.sweep(request.now));
      case 'close':
        return void close(request.id);
    }
  });

  const close = async (id: number) => {
    while (working.size > 0) await Promise.allSettled([...working]);
    await db.destroy();
    reply({ id, kind: 'done', result: undefined });
    port.close();
  };

  await db.raw('select 1');
  reply({ id: 0, kind: 'ready', threadId });
}

/** The batch as the store reads it: its values back in a plain array (here, off the sending thread). */
function batchOf(batch: TransferredBatch): AnalyticsBatch {
  return { strings: batch.strings, since: batch.since, values: Array.from(batch.values) };
}

main().catch((err: unknown) => {
  // Thrown outside the promise: the thread ends, and its Worker emits this error to the service.
  setImmediate(() => {
    throw err;
  });
});
