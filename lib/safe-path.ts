import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep, win32 } from 'node:path';

/**
 * Why `path` can not name a file inside an operator's folder, or undefined when it can: it must
 * be relative, hold no `..` segment, no control character (NUL included) and no backslash (so a
 * Windows-style `..\` can not sneak past). A tenant chooses these paths; the folder is the
 * operator's.
 */
export function relativePathProblem(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (/[\x00-\x1f\x7f]/.test(path)) return 'holds a control character';
  if (path.includes('\\')) return 'holds a backslash';
  if (isAbsolute(path) || win32.isAbsolute(path)) return 'is absolute';
  if (path.split('/').includes('..')) return "holds a '..' segment";
  return undefined;
}

/** Whether `real` (a real path) is `folder` (a real path) or below it. */
function isWithin(folder: string, real: string): boolean {
  const rel = relative(folder, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of `path` inside `folder`, after symlinks are followed; undefined when the path
 * is refused by `relativePathProblem` or really lies outside the folder (a symlink pointing
 * out). Throws what `realpath` throws when the file does not exist.
 */
export async function resolveInside(folder: string, path: string): Promise<string | undefined> {
  if (relativePathProblem(path) !== undefined) return undefined;
  const root = await realpath(folder);
  const real = await realpath(resolve(root, path));
  return isWithin(root, real) ? real : undefined;
}

/** `resolveInside` for an already resolved file (e.g. by `require.resolve`); synchronous. */
export function realPathWithin(folder: string, file: string): string | undefined {
  const root = realpathSync(folder);
  const real = realpathSync(file);
  return isWithin(root, real) ? real : undefined;
}
