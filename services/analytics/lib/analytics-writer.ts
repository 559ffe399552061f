import type { Knex } from 'knex';
import type { AnalyticsBatch } from '../../../contracts/analytics/record-batch';
import { AnalyticsStore, type AnalyticsStoreOptions } from './analytics-store';
import { StoreThread } from './store-thread';

/** Where the analytics service stores batches and removes what expired. */
export interface AnalyticsWriter {
  ingest(batch: AnalyticsBatch): Promise<number>;
  sweep(): Promise<{ packs: number; hourly: number }>;
  /** answers once every batch given before it is stored (or has failed) */
  stop(): Promise<void>;
}

export interface WriterSettings extends AnalyticsStoreOptions {
  /** GW_DATABASE_URL, which the writer thread opens a connection of its own to */
  databaseUrl: string;
  /** GW_ANALYTICS_WRITER_THREAD */
  thread: boolean;
}

/**
 * The writer thread (store-thread.ts) unless GW_ANALYTICS_WRITER_THREAD is off, or the database
 * is `sqlite::memory:`, which a second connection would open empty: then the service's own
 * connection stores batches on its own thread.
 */
export async function openAnalyticsWriter(db: Knex, settings: WriterSettings): Promise<AnalyticsWriter> {
  const { databaseUrl, thread, ...options } = settings;
  if (thread && databaseUrl !== 'sqlite::memory:') {
    return threadWriter(await StoreThread.start({ databaseUrl, options }), () => new AnalyticsStore(db, options));
  }
  return inlineWriter(new AnalyticsStore(db, options));
}

/**
 * Moleculer stops a node's services all at once: the proxy's recorder sends its last batch while
 * this service is stopping. A batch that arrives once the thread is closing is stored on the
 * service's own connection (open until the node has stopped every service), so a graceful
 * shutdown loses none.
 */
function threadWriter(thread: StoreThread, storeOnThisThread: () => AnalyticsStore): AnalyticsWriter {
  let afterStop: AnalyticsStore | undefined;
  return {
    ingest: (batch) => (afterStop ? afterStop.ingest(batch) : thread.ingest(batch)),
    sweep: () => thread.sweep(),
    async stop() {
      afterStop ??= storeOnThisThread();
      await thread.stop();
    },
  };
}

function inlineWriter(store: AnalyticsStore): AnalyticsWriter {
  const storing = new Set<Promise<unknown>>();
  return {
    ingest(batch) {
      const stored = store.ingest(batch);
      const settled = stored.catch(() => undefined).finally(() => storing.delete(settled));
      storing.add(settled);
      return stored;
    },
    sweep: () => store.sweep(),
    stop: async () => {
      await Promise.all(storing);
    },
  };
}
