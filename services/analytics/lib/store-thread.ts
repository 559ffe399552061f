import type { Worker, TransferListItem } from 'node:worker_threads';
import { startThread } from '../../../lib/workers/start-thread';
import { RECORD_WIDTH, type AnalyticsBatch } from '../../../contracts/analytics/record-batch';
import type { StoreReply, StoreRequest, StoreWorkerData } from './store-messages';

/**
 * Records queued for the writer thread (handed over, not yet stored) past which a batch is
 * refused, unless nothing is queued. A refused batch is dropped and counted by the node that sent
 * it, as one that failed to store always was; a recorder holds at most GW_ANALYTICS_BUFFER_SIZE
 * records in flight, so only many gateway nodes sending to one slow database reach this.
 */
export const MAX_QUEUED_RECORDS = 100_000;

type StoreCall = StoreRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(result: unknown): void;
  reject(err: Error): void;
  records: number;
}

/**
 * The analytics service's side of its writer thread (store-worker.ts): hands each batch over,
 * its values transferred rather than copied, and answers when the thread has stored it. Folding,
 * packing and writing a batch of 1,000 records costs a few milliseconds; in the embedded setup
 * this thread is the gateway's, so it only pays for the hand-off. The writer has a connection of
 * its own: on SQLite both are in WAL mode with a busy_timeout (lib/store/database.ts), so reads on
 * the service's connection (activity, dashboards) go on while it writes, and see each batch once
 * it has been answered.
 */
export class StoreThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** records handed to the thread and not yet answered */
  private queued = 0;
  private closing = false;
  private readied: (() => void) | undefined;
  /** why the last writer thread exited */
  private exitCause: Error | undefined;
  /** The writer's thread id (worker_threads.threadId), as it reported it when ready. */
  writerThreadId = 0;

  private constructor(private readonly data: StoreWorkerData) {}

  /** Starts the writer thread, once its connection answers. */
  static async start(data: StoreWorkerData): Promise<StoreThread> {
    const thread = new StoreThread(data);
    const ready = new Promise<void>((resolve) => (thread.readied = resolve));
    const exited = exitOf(thread.spawn());
    const started = await Promise.race([ready.then(() => true), exited.then(() => false)]);
    if (!started) throw new Error(`analytics: the writer thread did not start: ${thread.exitCause?.message}`);
    return thread;
  }

  /** Stores a batch in the writer thread; answers its record count once stored. */
  ingest(batch: AnalyticsBatch): Promise<number> {
    const records = batch.values.length / RECORD_WIDTH;
    if (records === 0) return Promise.resolve(0);
    if (this.closing) return Promise.reject(new Error('the analytics service is stopping'));
    if (this.queued > 0 && this.queued + records > MAX_QUEUED_RECORDS) {
      return Promise.reject(new Error(`the analytics writer is behind (${this.queued} records waiting)`));
    }
    const values = Float64Array.from(batch.values);
    const call: StoreCall = { kind: 'ingest', batch: { strings: batch.strings, since: batch.since, values } };
    return this.call(call, [values.buffer], records) as Promise<number>;
  }

  /** Removes what has expired (AnalyticsStore.sweep), in the writer thread. */
  sweep(now = Date.now()): Promise<{ packs: number; hourly: number }> {
    if (this.closing) return Promise.resolve({ packs: 0, hourly: 0 });
    return this.call({ kind: 'sweep', now }) as Promise<{ packs: number; hourly: number }>;
  }

  /**
   * Refuses further batches, waits until every batch handed over is stored (or has failed),
   * then closes the writer's connection and joins its thread.
   */
  async stop(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = exitOf(worker);
    await this.call({ kind: 'close' }).catch(() => undefined);
    await exited;
  }

  private call(call: StoreCall, transfer: TransferListItem[] = [], records = 0): Promise<unknown> {
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, records });
      this.queued += records;
      worker.postMessage({ ...call, id }, transfer);
    });
  }

  private spawn(): Worker {
    const worker = startWorker(this.data);
    // A gateway is never kept running by its writer alone: stop() joins it on shutdown.
    worker.unref();
    worker.on('message', (reply: StoreReply) => this.onReply(reply));
    // The error is also the exit's cause: what was pending fails with it below.
    let failure: Error | undefined;
    worker.on('error', (err) => (failure = err));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const why = failure ?? new Error(`the analytics writer thread exited (code ${code})`);
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        this.queued -= pending.records;
        pending.reject(why);
      }
      this.exitCause = why;
    });
    this.worker = worker;
    return worker;
  }

  private onReply(reply: StoreReply): void {
    if (reply.kind === 'ready') {
      this.writerThreadId = reply.threadId;
      this.readied?.();
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    this.queued -= pending.records;
    if (reply.kind === 'done') pending.resolve(reply.result);
    else pending.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
  }
}

/** Resolves when the thread has exited, whatever error it ended with (its 'exit' handler reports it). */
function exitOf(worker: Worker): Promise<number> {
  return new Promise((resolve) => worker.once('exit', resolve));
}

/** The writer thread runs store-worker beside this file. */
function startWorker(workerData: StoreWorkerData): Worker {
  return startThread(__dirname, 'store-worker', { workerData });
}
