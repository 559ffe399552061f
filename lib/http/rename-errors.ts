import type { GwErrorCode } from '../../contracts/errors';
import { isGwError } from '../errors';
import { HttpProblem } from './problem';

/**
 * Runs a call and answers some of its service errors in another surface's words: a management
 * API that mirrors the reference gateway names the same failure differently from the dashboard.
 */
export async function renamingErrors<T>(
  work: Promise<T>,
  renames: Partial<Record<GwErrorCode, [status: number, message: string]>>,
): Promise<T> {
  try {
    return await work;
  } catch (err) {
    for (const [code, [status, message]] of Object.entries(renames) as Array<[GwErrorCode, [number, string]]>)
      if (isGwError(err, code)) throw new HttpProblem(status, message);
    throw err;
  }
}
