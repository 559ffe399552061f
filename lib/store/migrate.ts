import type { Knex } from 'knex';
import { explainDatabaseFailure } from './database-failure';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/**
 * Brings one service's tables up to date. Each service keeps its own migration log
 * (`gw_migrations_<service>`), so services can be deployed and migrated independently.
 * A migration that creates a table also runs `useBinaryCollation` on it (binary-collation.ts),
 * so MySQL/MariaDB compare its text byte for byte, as SQLite does. It is a service's first use
 * of the database at start: a database that can not be used fails it with a line saying why.
 */
export async function migrate(db: Knex, service: string, migrations: Migration[]): Promise<void> {
  await db.migrate
    .latest({
      tableName: `gw_migrations_${service}`,
      migrationSource: {
        getMigrations: async () => migrations,
        getMigrationName: (migration: Migration) => migration.name,
        getMigration: async (migration: Migration) => migration,
      },
    })
    .catch((err: unknown) => Promise.reject(explainDatabaseFailure(err)));
}

/** JSON columns are plain text so the same schema works on SQLite and MySQL. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  return JSON.parse(text) as T;
}
