/**
 * The roster of a host's gateway workers, in shared memory: the supervisor (main thread) writes a
 * worker's state as it starts, serves, stops or is replaced; any worker reads all of it for
 * /gw/health and to know which siblings answer on the host channel. A row is a few numbers, so a
 * read is never stale by more than one store and costs no message.
 */
export const WORKER_STATES = ['starting', 'ready', 'stopping', 'exited'] as const;
export type WorkerState = (typeof WORKER_STATES)[number];

export interface WorkerRow {
  index: number;
  state: WorkerState;
  /** how many times this place was given a new thread after its worker exited unasked */
  restarts: number;
  /** epoch ms the current thread of this place started */
  startedAt: number;
  /** worker_threads.threadId of the current thread (0 before it started) */
  threadId: number;
}

// Per row: int32 state, restarts, threadId (one spare), then a float64 startedAt.
const INTS_PER_ROW = 4;
const STATE = 0;
const RESTARTS = 1;
const THREAD_ID = 2;

export class WorkerRoster {
  private static readonly bytesPerRow = INTS_PER_ROW * 4 + 8;
  private readonly ints: Int32Array;
  private readonly times: Float64Array;
  readonly count: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.count = buffer.byteLength / WorkerRoster.bytesPerRow;
    this.ints = new Int32Array(buffer, 0, this.count * INTS_PER_ROW);
    this.times = new Float64Array(buffer, this.count * INTS_PER_ROW * 4, this.count);
  }

  static create(count: number): WorkerRoster {
    return new WorkerRoster(new SharedArrayBuffer(count * WorkerRoster.bytesPerRow));
  }

  set(index: number, state: WorkerState, threadId?: number): void {
    const at = index * INTS_PER_ROW;
    if (threadId !== undefined) {
      Atomics.store(this.ints, at + THREAD_ID, threadId);
      this.times[index] = Date.now();
    }
    Atomics.store(this.ints, at + STATE, WORKER_STATES.indexOf(state));
  }

  countRestart(index: number): void {
    Atomics.add(this.ints, index * INTS_PER_ROW + RESTARTS, 1);
  }

  state(index: number): WorkerState {
    return WORKER_STATES[Atomics.load(this.ints, index * INTS_PER_ROW + STATE)];
  }

  rows(): WorkerRow[] {
    return Array.from({ length: this.count }, (_, index) => {
      const at = index * INTS_PER_ROW;
      return {
        index,
        state: this.state(index),
        restarts: Atomics.load(this.ints, at + RESTARTS),
        startedAt: this.times[index],
        threadId: Atomics.load(this.ints, at + THREAD_ID),
      };
    });
  }

  /** the places whose worker serves now */
  ready(): number[] {
    return this.rows()
      .filter((row) => row.state === 'ready')
      .map((row) => row.index);
  }
}
