import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knex, { type Knex } from 'knex';
import { StartupError } from '../startup-error';

export interface OpenOptions {
  /** folders gw owns (GW_DATA_DIR): created when a SQLite file is to live in one of them */
  ownFolders?: string[];
}

/**
 * Opens the knex connection named by GW_DATABASE_URL: `sqlite:<file>` (better-sqlite3, the
 * embedded default) or `mysql://…` (mysql2, MySQL or MariaDB).
 */
export function openDatabase(url: string, options: OpenOptions = {}): Knex {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options.ownFolders ?? []);
  const mysqlUrl = url.replace(/^mariadb:/, 'mysql:');
  return knex({
    client: 'mysql2',
    connection: { uri: mysqlUrl, supportBigNumbers: true, charset: 'utf8mb4' } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: 10 },
    // An error message carries the SQL with placeholders, not the values (store-errors.ts).
    compileSqlOnError: false,
    log: { warn: warnUnlessAcquireError },
  });
}

/**
 * knex warns, with the stack, about every connection it could not open, and then rejects the
 * query with the same error: the caller reports it (a failed start names GW_DATABASE_URL).
 */
function warnUnlessAcquireError(message: string): void {
  if (!message.startsWith('Acquire connection error')) console.warn(message);
}

function openSqlite(path: string, ownFolders: string[]): Knex {
  const filename = path === ':memory:' ? path : resolve(path);
  if (filename !== ':memory:') checkSqliteFolder(dirname(filename), ownFolders);
  return knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    compileSqlOnError: false,
    log: { warn: warnUnlessAcquireError },
    pool: {
      // One connection: SQLite serialises writers anyway, and one connection keeps
      // transactions from waiting on each other's locks.
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        // NORMAL is what better-sqlite3 is built to use in WAL mode (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1)
        // and what gw has always run with; set here so it does not rest on a build option. A commit
        // waits for no fsync, on this event loop: the WAL is synced at checkpoints. A crash of the
        // process loses nothing committed; a power cut can lose the commits since the last
        // checkpoint, and never corrupts the file.
        conn.pragma('synchronous = NORMAL');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
}

/**
 * A SQLite file lives in a folder that exists and gw may write (the file and its WAL files are
 * created beside it). Only gw's own folders are created: a misspelt path is an error, not a new,
 * empty database somewhere else.
 */
function checkSqliteFolder(folder: string, ownFolders: string[]): void {
  if (ownFolders.some((own) => resolve(own) === folder)) {
    try {
      mkdirSync(folder, { recursive: true });
    } catch (err) {
      throw new StartupError(`GW_DATABASE_URL: cannot create folder ${folder} (${(err as Error).message})`);
    }
    return;
  }
  const elsewhere = 'name a file in an existing folder';
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new StartupError(`GW_DATABASE_URL: folder ${folder} does not exist (create it, or ${elsewhere})`);
  }
  if (!isFolder) throw new StartupError(`GW_DATABASE_URL: ${folder} is not a folder (${elsewhere})`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    const what = `folder ${folder} is not writable by gw`;
    throw new StartupError(`GW_DATABASE_URL: ${what} (change its permissions, or ${elsewhere})`);
  }
}

/** True when a knex error is a unique-index violation, whatever the database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'ER_DUP_ENTRY' || code.startsWith('SQLITE_CONSTRAINT'));
}
