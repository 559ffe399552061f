import type { OperationSink } from '../upstream-operations';

/**
 * An upstream subscription (pushed through a sink) as the async iterator graphql-js' `subscribe`
 * expects from a field. Events wait in a queue until the client takes them; the upstream's error
 * ends the iterator with that error; returning early stops the upstream.
 */
export function sinkIterator(start: (sink: OperationSink) => () => void): AsyncIterableIterator<unknown> {
  const queue: unknown[] = [];
  const takers: Array<{ resolve(result: IteratorResult<unknown>): void; reject(err: Error): void }> = [];
  let ended: { error?: Error } | undefined;
  const finish = (outcome: { error?: Error }) => {
    if (ended) return;
    ended = outcome;
    for (const taker of takers.splice(0))
      outcome.error ? taker.reject(outcome.error) : taker.resolve({ value: undefined, done: true });
  };
  const stop = start({
    next: (value) => {
      if (ended) return;
      const taker = takers.shift();
      if (taker) taker.resolve({ value, done: false });
      else queue.push(value);
    },
    error: (errors) => finish({ error: new Error(errors.map((e) => e.message).join('; ')) }),
    complete: () => finish({}),
  });
  const iterator: AsyncIterableIterator<unknown> = {
    next: () => {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
      if (ended) return ended.error ? Promise.reject(ended.error) : Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => takers.push({ resolve, reject }));
    },
    return: () => {
      stop();
      finish({});
      queue.length = 0;
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
