/** Ends the span of an outbound call once the call settles: with its error when it failed. */
export function endWhenSettled<T>(pending: Promise<T>, end: (failure?: Error) => void): Promise<T> {
  return pending.then(
    (answer) => {
      end();
      return answer;
    },
    (err: unknown) => {
      end(err instanceof Error ? err : new Error(String(err)));
      throw err;
    },
  );
}
