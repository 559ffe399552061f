/**
 * An async iterable fed by callbacks: what a subscription's upstream pushes, read by a consumer
 * that pulls (the planner's `for await`). Values wait in order until they are read; `onReturn`
 * runs once when the consumer stops early or the stream ends.
 */
export interface PushStream<T> {
  push(value: T): void;
  end(): void;
  onReturn(stop: () => void): void;
  iterable: AsyncIterableIterator<T>;
}

export function pushStream<T>(): PushStream<T> {
  const queued: T[] = [];
  const waiting: Array<(result: IteratorResult<T>) => void> = [];
  let ended = false;
  let stop: (() => void) | undefined;
  const finish = () => {
    if (ended) return;
    ended = true;
    for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
    stop?.();
  };
  const iterable: AsyncIterableIterator<T> = {
    next() {
      if (queued.length > 0) return Promise.resolve({ value: queued.shift()!, done: false });
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return() {
      queued.length = 0;
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterable;
    },
  };
  return {
    push(value) {
      if (ended) return;
      const resolve = waiting.shift();
      if (resolve) resolve({ value, done: false });
      else queued.push(value);
    },
    // values already queued are still read after the end
    end: finish,
    onReturn(callback) {
      stop = callback;
    },
    iterable,
  };
}
