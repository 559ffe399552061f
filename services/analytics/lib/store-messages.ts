import type { AnalyticsStoreOptions } from './analytics-store';

/** What the analytics service gives its writer thread to start with. */
export interface StoreWorkerData {
  /** GW_DATABASE_URL: the thread opens a connection of its own to it */
  databaseUrl: string;
  options: AnalyticsStoreOptions;
}

/**
 * A batch as it crosses to the writer thread: its values in a Float64Array whose buffer is
 * transferred, not copied (a latency in µs or a request time in ms may pass 2^31, so not an
 * Int32Array). Converting the recorder's `number[]` and transferring it costs the sending thread
 * less than structured-cloning the array.
 */
export interface TransferredBatch {
  strings: string[];
  values: Float64Array;
  since: number;
}

/** main thread → writer thread */
export type StoreRequest =
  | { id: number; kind: 'ingest'; batch: TransferredBatch }
  | { id: number; kind: 'sweep'; now: number }
  /** store what was asked before, close the connection, then exit */
  | { id: number; kind: 'close' };

/** writer thread → main thread: `ready` once its connection answers, then one answer per request */
export type StoreReply =
  | { id: 0; kind: 'ready'; threadId: number }
  | { id: number; kind: 'done'; result: unknown }
  | { id: number; kind: 'failed'; message: string; code?: string };
