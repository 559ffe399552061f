import { extname, join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the thread whose script is `name` in `dir` (the caller's `__dirname`): compiled
 * JavaScript in dist/, or, when gw runs from its TypeScript sources (the tests), the .ts file
 * compiled by tsx as the caller's own is.
 */
export function startThread(dir: string, name: string, options: WorkerOptions): Worker {
  const script = join(dir, `${name}${extname(__filename)}`);
  if (script.endsWith('.ts')) {
    // resolved here: an eval'd worker resolves bare names from the process's working directory
    const tsx = require.resolve('tsx/cjs');
    return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(script)});`, {
      ...options,
      eval: true,
    });
  }
  return new Worker(script, options);
}
