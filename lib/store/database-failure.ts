import type { Knex } from 'knex';
import { StartupError, type SystemError } from '../startup-error';

interface DriverError extends SystemError {
  sqlMessage?: string;
}

/** For each driver code: what went wrong (from the error) and what to do about it. */
const EXPLANATIONS: Record<string, (err: DriverError) => string> = {
  ECONNREFUSED: (err) => `nothing answers at ${where(err)} (is the database server running? check the host and port)`,
  ETIMEDOUT: (err) => `no answer from ${where(err)} (check the host, the port and any firewall)`,
  EHOSTUNREACH: (err) => `no route to ${where(err)} (check the host and any firewall)`,
  ENOTFOUND: (err) => `unknown host ${err.hostname ?? ''} (check the host name in the URL)`,
  ER_ACCESS_DENIED_ERROR: (err) => `${err.sqlMessage ?? 'access denied'} (check the user and password in the URL)`,
  ER_DBACCESS_DENIED_ERROR: (err) => `${err.sqlMessage ?? 'access denied'} (grant the user access to that database)`,
  ER_BAD_DB_ERROR: (err) =>
    `${err.sqlMessage?.replace(/^Unknown/, 'unknown') ?? 'unknown database'} ` +
    '(create it, or name an existing database in the URL)',
  ERR_INVALID_URL: () => 'not a valid URL (mysql://user:password@host:3306/database)',
  SQLITE_CANTOPEN: () => "cannot open the SQLite file (check the path and the folder's permissions)",
  SQLITE_READONLY: () => 'the SQLite file is read-only (gw writes to it: check its permissions)',
  SQLITE_NOTADB: () => 'the file is not a SQLite database (name another file)',
};
EXPLANATIONS.EAI_AGAIN = EXPLANATIONS.ENOTFOUND;
EXPLANATIONS.ENETUNREACH = EXPLANATIONS.EHOSTUNREACH;
EXPLANATIONS.ER_ACCESS_DENIED_NO_PASSWORD_ERROR = EXPLANATIONS.ER_ACCESS_DENIED_ERROR;
EXPLANATIONS.SQLITE_PERM = EXPLANATIONS.SQLITE_READONLY;

function where({ address, port }: DriverError): string {
  if (address === undefined) return 'the host in the URL';
  return port === undefined ? address : `${address}:${port}`;
}

/**
 * Why the database named by GW_DATABASE_URL can not be used, and what to do: a one-line
 * StartupError for what an operator fixes in the URL or the server, any other error unchanged.
 * Never the URL itself: it may hold a password.
 */
export function explainDatabaseFailure(err: unknown): unknown {
  if (err instanceof StartupError || !(err instanceof Error)) return err;
  const explain = EXPLANATIONS[(err as DriverError).code ?? ''];
  return explain ? new StartupError(`GW_DATABASE_URL: ${explain(err)}`, err) : err;
}

/**
 * Before any service starts: can the node open GW_DATABASE_URL and run a query? A database it
 * can not use fails the start at once, with one line, rather than in every service that has tables.
 */
export async function checkDatabase(open: () => Knex): Promise<void> {
  try {
    await open().raw('select 1');
  } catch (err) {
    throw explainDatabaseFailure(err);
  }
}
