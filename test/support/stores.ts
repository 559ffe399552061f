import { join } from 'node:path';
import { createTestDatabase } from './mysql';

export interface StoreVariant {
  name: string;
  /** false when the server is not available here; the suite is then skipped */
  enabled: boolean;
  /** a fresh database for one suite, and how to remove it */
  open(dataDir: string): Promise<{ url: string; cleanup(): Promise<void> }>;
}

/**
 * The databases a suite runs against: always the embedded SQLite file, and MySQL/MariaDB when
 * GW_TEST_MYSQL names a server (.ci/run sets it, so CI runs both).
 */
export const STORE_VARIANTS: StoreVariant[] = [
  {
    name: 'SQLite',
    enabled: true,
    open: async (dataDir) => ({ url: `sqlite:${join(dataDir, 'gw.sqlite')}`, cleanup: async () => undefined }),
  },
  {
    name: 'MySQL/MariaDB',
    enabled: Boolean(process.env.GW_TEST_MYSQL),
    open: async () => {
      const db = await createTestDatabase(process.env.GW_TEST_MYSQL!);
      return { url: db.url, cleanup: () => db.drop() };
    },
  },
];
