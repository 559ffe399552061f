import type { Problem } from './problem';

/**
 * A write the database refused because a value does not fit its column (MySQL/MariaDB
 * `ER_DATA_TOO_LONG`, strict mode). Services check lengths before writing; this is the net for
 * a column they missed, so the client learns which field to shorten instead of getting a 500.
 * The error may have crossed the bus, so only its code and message are relied on.
 */
export function dataTooLongProblem(err: unknown): Problem | undefined {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ER_DATA_TOO_LONG' && !(typeof message === 'string' && /Data too long for column/.test(message)))
    return undefined;
  const column = typeof message === 'string' ? /column '([^']+)'/.exec(message)?.[1] : undefined;
  return {
    status: 400,
    message: column ? `The value of '${column}' is too long` : 'A value is too long for the store',
  };
}
