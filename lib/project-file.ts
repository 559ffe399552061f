import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A file shipped in the project (not compiled by tsc), found from the project root whether the
 * code runs from the sources or from `dist/`.
 */
export function projectFile(relativePath: string, from: string = __dirname): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, relativePath))) return join(dir, relativePath);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`project file ${relativePath} not found above ${from}`);
    dir = parent;
  }
}
