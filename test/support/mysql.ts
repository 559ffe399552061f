import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty MySQL/MariaDB database for one test suite, on the server GW_TEST_MYSQL points
 * at (e.g. mysql://root@127.0.0.1:3306/test), dropped afterwards.
 */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `gw_test_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection({ uri: serverUrl });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const connection = await createConnection({ uri: serverUrl });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}
