import type { Knex } from 'knex';

/**
 * A store revision: one counter row in a service's own table, incremented in the same
 * transaction as each change it numbers. On MySQL/MariaDB the increment locks the row until
 * commit, and SQLite has a single writer, so revisions follow commit order and every
 * management node sharing the database hands out the same sequence.
 */
export async function createRevisionTable(db: Knex, table: string): Promise<void> {
  await db.schema.createTable(table, (t) => {
    t.integer('id').primary();
    t.bigInteger('revision').notNullable();
  });
  await db(table).insert({ id: 1, revision: 0 });
}

/** Increments the revision inside `trx` and returns the new value (the change's revision). */
export async function bumpRevision(trx: Knex, table: string): Promise<number> {
  await trx(table).where('id', 1).increment('revision', 1);
  return currentRevision(trx, table);
}

export async function currentRevision(db: Knex, table: string): Promise<number> {
  const row = await db<{ revision: number | string }>(table).where('id', 1).first('revision');
  return Number(row?.revision ?? 0);
}
