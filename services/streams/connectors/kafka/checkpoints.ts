/**
 * Bento's checkpointer for one partition: up to `limit` messages in flight at once, and the
 * offset to commit is one past the highest offset below which every message was accepted by
 * the output, so a restart never skips an unaccepted message (it may repeat accepted ones).
 */
export class PartitionCheckpoints {
  private readonly pending = new Set<bigint>();
  private readonly done = new Set<bigint>();
  private readonly waiters: Array<() => void> = [];
  private readonly dispatched: bigint[] = [];
  private committable: bigint | undefined;

  constructor(private readonly limit: number) {}

  get inFlight(): number {
    return this.pending.size;
  }

  /** waits until fewer than `limit` messages are in flight, or the signal aborts */
  async slot(signal: AbortSignal): Promise<void> {
    while (this.pending.size >= this.limit && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  track(offset: bigint): void {
    this.pending.add(offset);
    this.dispatched.push(offset);
  }

  /** marks an offset accepted; returns the new offset to commit when it moved */
  accept(offset: bigint): bigint | undefined {
    this.pending.delete(offset);
    this.done.add(offset);
    this.waiters.shift()?.();
    let moved = false;
    while (this.dispatched.length && this.done.has(this.dispatched[0])) {
      const first = this.dispatched.shift()!;
      this.done.delete(first);
      this.committable = first + 1n;
      moved = true;
    }
    return moved ? this.committable : undefined;
  }

  /** a message the output never accepted: nothing after it may be committed */
  fail(offset: bigint): void {
    this.pending.delete(offset);
    this.waiters.shift()?.();
  }
}
