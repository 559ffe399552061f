import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, inspect } from 'node:util';
import type { Knex } from 'knex';
import { ServiceBroker } from 'moleculer';
import { brokerOptions } from '../../../moleculer.config';
import { loadConfig } from '../../../lib/config/load-config';
import { toProblem } from '../../../lib/http/problem';
import { openDatabase } from '../../../lib/store/database';
import { removeDir } from '../../support/node';
import { STORE_VARIANTS } from '../../support/stores';

const MARKER = 'marker-secret-4f1c9a';

/** What a logger prints for `logger.error(message, err)`: the message and the error inspected in full. */
const printed = (args: unknown[]) =>
  format(...args.map((arg) => (arg instanceof Error ? inspect(arg, { depth: 5, showHidden: true }) : arg)));

for (const store of STORE_VARIANTS) {
  describe(`store errors are logged without the values of the query (${store.name})`, () => {
    let dataDir: string;
    let database: { url: string; cleanup(): Promise<void> };
    let db: Knex;
    let broker: ServiceBroker | undefined;
    /** a second row with the same token: a unique violation whose bindings (and MariaDB's message) hold the marker */
    const failingInsert = () => db('vault').insert({ id: 'two', token: MARKER });

    before(async function () {
      if (!store.enabled) this.skip();
      dataDir = mkdtempSync(join(tmpdir(), 'gw-store-errors-'));
      database = await store.open(dataDir);
      db = openDatabase(database.url);
      await db.schema.createTable('vault', (t) => {
        t.string('id', 16).primary();
        t.string('token', 64).notNullable().unique();
      });
      await db('vault').insert({ id: 'one', token: MARKER });
    });
    after(async () => {
      await broker?.stop();
      await db?.destroy();
      await database?.cleanup();
      if (dataDir) removeDir(dataDir);
    });

    it('toProblem logs the driver code and the table, not the values', async () => {
      const err = await failingInsert().then(
        () => assert.fail('the insert should fail'),
        (e: unknown) => e,
      );
      const logged: string[] = [];
      const problem = toProblem(err, (unexpected) =>
        logged.push(printed(['unexpected error on dashboard surface', unexpected])),
      );
      assert.equal(problem.status, 500);
      assert.equal(logged.length, 1);
      assert.ok(!logged[0].includes(MARKER), logged[0]);
      assert.match(logged[0], /Store error (ER_DUP_ENTRY|SQLITE_CONSTRAINT\w*) on table vault/);
    });

    it('keeps the Data-too-long net: 400 naming the column, without the value (MariaDB only; SQLite stores it)', async function () {
      if (store.name === 'SQLite') this.skip();
      const err = await db('vault')
        .insert({ id: 'three', token: MARKER.repeat(10) })
        .then(
          () => assert.fail('the insert should fail'),
          (e: unknown) => e,
        );
      const logged: string[] = [];
      assert.deepEqual(
        toProblem(err, (unexpected) => logged.push(printed([unexpected]))),
        { status: 400, message: "The value of 'token' is too long" },
      );
      assert.deepEqual(logged, []);
    });

    it('an action failing on the store hands its caller (and the bus) no values', async () => {
      const config = loadConfig({}, { dataDir, logLevel: 'silent' });
      broker = new ServiceBroker(brokerOptions(Object.freeze({ ...config, secret: 's', adminSecret: 'a' })));
      broker.createService({ name: 'vault', actions: { put: () => failingInsert() } });
      await broker.start();
      const err = await broker.call('vault.put').then(
        () => assert.fail('the action should fail'),
        (e: unknown) => e,
      );
      const shown = printed([err]);
      assert.ok(!shown.includes(MARKER), shown);
      assert.match((err as Error).message, /^Store error (ER_DUP_ENTRY|SQLITE_CONSTRAINT\w*) on table vault: /);
      assert.match(String((err as { code?: unknown }).code), /^(ER_DUP_ENTRY|SQLITE_CONSTRAINT)/);
    });
  });
}
