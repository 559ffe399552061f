/**
 * Retries an assertion until it passes or `withinMs` has passed, then throws its last error.
 * For "within a second" guarantees: the deadline is the assertion, not a sleep.
 */
export async function eventually<T>(assertion: () => Promise<T> | T, withinMs = 1000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await assertion();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
