import type { Knex } from 'knex';
import { hashSecret } from '../../../lib/secret-hash';

/**
 * Migration 004: dashboard access keys were stored in plaintext in `users.access_key`; from now
 * on only their hash is kept, in `users.access_key_hash`, and callers are looked up by it. Every
 * existing key is hashed in place, so it keeps working. MySQL does not roll DDL back, so each
 * step checks whether an interrupted earlier run already did it.
 */
export async function hashAccessKeys(db: Knex): Promise<void> {
  if (!(await db.schema.hasColumn('users', 'access_key_hash'))) {
    await db.schema.alterTable('users', (t) => {
      t.string('access_key_hash', 64).nullable();
    });
  }
  if (await db.schema.hasColumn('users', 'access_key')) {
    const rows = await db<{ id: string; access_key: string }>('users')
      .select('id', 'access_key')
      .whereNull('access_key_hash');
    for (const row of rows) {
      await db('users')
        .where('id', row.id)
        .update({ access_key_hash: hashSecret(row.access_key) });
    }
    await db.schema.alterTable('users', (t) => {
      t.dropUnique(['access_key']);
      t.dropColumn('access_key');
    });
  }
  await db.schema.alterTable('users', (t) => {
    t.string('access_key_hash', 64).notNullable().alter();
    t.unique(['access_key_hash']);
  });
}
