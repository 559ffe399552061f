import type { ActionHandler, Context, Middleware } from 'moleculer';

/**
 * Errors of the database drivers carry the values of the failed query: knex prefixes the
 * message with the SQL, values inlined (`insert into users … values ('…')`), mysql2 adds `sql`
 * and `sqlMessage` (`Duplicate entry '<value>' …`). Logged or sent over the bus as they are,
 * they would put secrets (key hashes, e-mail addresses, documents) into logs. These helpers
 * keep what an operator needs, the driver code and the table and column, and drop the values.
 */
export function isStoreError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && /^(ER_|SQLITE_)/.test(code);
}

/** `Store error ER_DATA_TOO_LONG on table organisations: Data too long for column 'owner_name' at row 1` */
export function storeErrorMessage(err: Error & { code: string }): string {
  const { sql, sqlMessage } = err as { sql?: unknown; sqlMessage?: unknown };
  const separator = err.message.lastIndexOf(' - ');
  const query = typeof sql === 'string' ? sql : separator === -1 ? '' : err.message.slice(0, separator);
  const driverMessage =
    typeof sqlMessage === 'string' ? sqlMessage : separator === -1 ? err.message : err.message.slice(separator + 3);
  const table = /\b(?:into|update|from|join|table)\s+[`"[]?([\w.]+)/i.exec(query)?.[1];
  return `Store error ${err.code}${table ? ` on table ${table}` : ''}: ${withoutValues(driverMessage)}`;
}

/** A copy of a store error without values in it (code kept, so callers still branch on it); anything else unchanged. */
export function redactStoreError<T>(err: T): T | (Error & { code: string }) {
  if (!isStoreError(err)) return err;
  const safe = new Error(storeErrorMessage(err)) as Error & { code: string; errno?: unknown };
  safe.name = 'StoreError';
  safe.code = err.code;
  if ((err as { errno?: unknown }).errno !== undefined) safe.errno = (err as { errno?: unknown }).errno;
  return safe;
}

/** For log lines that print `err.message`: the safe form for a store error. */
export function errorMessage(err: unknown): string {
  if (isStoreError(err)) return storeErrorMessage(err);
  return err instanceof Error ? err.message : String(err);
}

/**
 * Quoted values in a driver message become `'…'`; quoted names of columns, keys, tables,
 * indexes and constraints stay (`Duplicate entry '…' for key 'users.email'`).
 */
function withoutValues(message: string): string {
  return message
    .replace(/(\b(?:column|key|table|index|constraint)\s+)?'(?:[^'\\]|\\.)*'/gi, (quoted, label: string | undefined) =>
      label ? quoted : "'…'",
    )
    .slice(0, 500);
}

/**
 * Every action and event handler of a node: a store error leaves it without values, so neither
 * the bus (NATS) nor the caller's log ever carries them.
 */
export const StoreErrorRedaction: Middleware = {
  localAction(handler: ActionHandler) {
    return (ctx: Context) =>
      Promise.resolve(handler(ctx)).catch((err: unknown) => Promise.reject(redactStoreError(err)));
  },
  localEvent(handler: ActionHandler) {
    return (ctx: Context) =>
      Promise.resolve(handler(ctx)).catch((err: unknown) => Promise.reject(redactStoreError(err)));
  },
};
