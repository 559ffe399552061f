import type { Knex } from 'knex';
import type { Migration } from './migrate';

/**
 * Makes MySQL/MariaDB compare the text of `tables` as SQLite does, byte for byte: ids, hashes,
 * paths and names that differ only in case (`ABC`, `abc`) are different values. The default
 * utf8mb4 collations are case-insensitive, so there two organisations, APIs or policies whose
 * ids differ only in case collided, and a query by organisation id would match both.
 *
 * Existing rows keep their values; a unique index cannot break, since byte-wise equality is
 * stricter than the case-insensitive one. The table is rebuilt (time grows with its size). On
 * SQLite nothing changes. Emails are not affected: the users service stores them lower-cased.
 *
 * A table a later migration creates must be converted too (call this after creating it).
 */
export async function useBinaryCollation(db: Knex, tables: string[]): Promise<void> {
  if (String(db.client.config.client).includes('sqlite')) return;
  const collation = await binaryCollation(db);
  for (const table of tables)
    await db.raw(`ALTER TABLE ?? CONVERT TO CHARACTER SET utf8mb4 COLLATE ${collation}`, [table]);
}

/**
 * The server's byte-wise utf8mb4 collation that also keeps trailing spaces significant, as
 * SQLite does (MariaDB `utf8mb4_nopad_bin`, MySQL 8 `utf8mb4_0900_bin`); else `utf8mb4_bin`.
 */
async function binaryCollation(db: Knex): Promise<string> {
  const [rows] = (await db.raw(
    "SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin')",
  )) as [Array<{ name: string }>];
  return rows[0]?.name ?? 'utf8mb4_bin';
}

/**
 * The migration converting a service's tables. Not undone: going back to a case-insensitive
 * collation would fail on ids that differ only in case, which are then allowed.
 */
export function binaryCollationMigration(name: string, tables: string[]): Migration {
  return {
    name,
    up: (db) => useBinaryCollation(db, tables),
    down: async () => undefined,
  };
}
