import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knex, { type Knex } from 'knex';

/**
 * Opens the knex connection named by GW_DATABASE_URL: `sqlite:<file>` (better-sqlite3, the
 * embedded default) or `mysql://…` (mysql2, MySQL or MariaDB).
 */
export function openDatabase(url: string): Knex {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  const mysqlUrl = url.replace(/^mariadb:/, 'mysql:');
  return knex({
    client: 'mysql2',
    connection: { uri: mysqlUrl, supportBigNumbers: true, charset: 'utf8mb4' } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: 10 },
    // An error message carries the SQL with placeholders, not the values (store-errors.ts).
    compileSqlOnError: false,
  });
}

function openSqlite(path: string): Knex {
  const filename = path === ':memory:' ? path : resolve(path);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    compileSqlOnError: false,
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

/** True when a knex error is a unique-index violation, whatever the database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'ER_DUP_ENTRY' || code.startsWith('SQLITE_CONSTRAINT'));
}
