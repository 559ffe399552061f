import type { Knex } from 'knex';
import { parseJson } from '../../../lib/store/migrate';

/**
 * Migration 006: empty permissions no longer make an administrator (lib/permissions.ts). Every
 * user who was one that way (no permissions, no group) gets `IsAdmin: admin` stored, so they
 * keep their rights; and a single sign-on nonce records whether the user it makes is one.
 */
export async function explicitAdmins(db: Knex): Promise<void> {
  const rows = await db<{ id: string; user_permissions: string }>('users')
    .select('id', 'user_permissions')
    .where('group_id', '');
  for (const row of rows) {
    if (Object.keys(parseJson<Record<string, unknown>>(row.user_permissions, {})).length > 0) continue;
    await db('users')
      .where('id', row.id)
      .update({ user_permissions: JSON.stringify({ IsAdmin: 'admin' }) });
  }
  if (!(await db.schema.hasColumn('sso_nonces', 'makes_admin'))) {
    await db.schema.alterTable('sso_nonces', (t) => {
      t.boolean('makes_admin').notNullable().defaultTo(false);
    });
  }
}
