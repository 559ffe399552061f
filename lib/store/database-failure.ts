import type { Knex } from 'knex';
import { StartupError, type SystemError } from '../startup-error';

interface DriverError extends SystemError {
  sqlMessage?: string;
}

const SETTING = 'GW_DATABASE_URL';

/**
 * Why the database named by GW_DATABASE_URL can not be used, and what to do: a one-line
 * StartupError for what an operator fixes in the URL or the server, any other error unchanged.
 * Never the URL itself: it may hold a password.
 */
export function explainDatabaseFailure(err: unknown): unknown {
  if (err instanceof StartupError || !(err instanceof Error)) return err;
  const { code, address, port, hostname, sqlMessage } = err as DriverError;
  const at = address !== undefined ? `${address}${port !== undefined ? `:${port}` : ''}` : 'the host in the URL';
  switch (code) {
    case 'ECONNREFUSED':
      return new StartupError(`${SETTING}: nothing answers at ${at} (is the database server running? check the host and port)`, err);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new StartupError(`${SETTING}: no answer from ${at} (check the host, the port and any firewall)`, err);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`${SETTING}: unknown host ${hostname ?? ''} (check the host name in the URL)`, err);
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
      return new StartupError(`${SETTING}: ${sqlMessage ?? 'access denied'} (check the user and password in the URL)`, err);
    case 'ER_DBACCESS_DENIED_ERROR':
      return new StartupError(`${SETTING}: ${sqlMessage ?? 'access denied'} (grant the user access to that database)`, err);
    case 'ER_BAD_DB_ERROR':
      return new StartupError(
        `${SETTING}: ${sqlMessage?.replace(/^Unknown/, 'unknown') ?? 'unknown database'} ` +
          '(create it, or name an existing database in the URL)',
        err,
      );
    case 'ERR_INVALID_URL':
      return new StartupError(`${SETTING} is not a valid URL (mysql://user:password@host:3306/database)`, err);
    case 'SQLITE_CANTOPEN':
      return new StartupError(`${SETTING}: cannot open the SQLite file (check the path and the folder's permissions)`, err);
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return new StartupError(`${SETTING}: the SQLite file is read-only (gw writes to it: check its permissions)`, err);
    case 'SQLITE_NOTADB':
      return new StartupError(`${SETTING}: the file is not a SQLite database (name another file)`, err);
    default:
      return err;
  }
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
