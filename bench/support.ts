import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(port));
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs a benchmark's main, reports a failure in one line, and stops every process it started. */
export function runBenchmark(name: string, main: () => Promise<void>, children: ChildProcess[]): void {
  main()
    .catch((err) => {
      process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
      process.exitCode = 1;
    })
    .finally(() => {
      for (const child of children) child.kill('SIGTERM');
    });
}
