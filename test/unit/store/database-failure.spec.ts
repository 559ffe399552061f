import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../lib/store/database';
import { checkDatabase, explainDatabaseFailure } from '../../../lib/store/database-failure';
import { removeDir } from '../../support/node';

function driverError(code: string, sqlMessage: string): Error {
  return Object.assign(new Error(sqlMessage), { code, sqlMessage });
}

/** What a database the node can not use says (GW_DATABASE_URL), for what the drivers report. */
describe('a database the node can not use', () => {
  const cases: Array<[string, Error, string]> = [
    [
      'a wrong password',
      driverError('ER_ACCESS_DENIED_ERROR', "Access denied for user 'gw'@'10.0.0.2' (using password: YES)"),
      "GW_DATABASE_URL: Access denied for user 'gw'@'10.0.0.2' (using password: YES) " +
        '(check the user and password in the URL)',
    ],
    [
      'a database the server does not have',
      driverError('ER_BAD_DB_ERROR', "Unknown database 'gw'"),
      "GW_DATABASE_URL: unknown database 'gw' (create it, or name an existing database in the URL)",
    ],
    [
      'a database the user may not use',
      driverError('ER_DBACCESS_DENIED_ERROR', "Access denied for user 'gw'@'%' to database 'gw'"),
      "GW_DATABASE_URL: Access denied for user 'gw'@'%' to database 'gw' (grant the user access to that database)",
    ],
    [
      'a server nobody runs',
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:3306'), {
        code: 'ECONNREFUSED',
        address: '10.0.0.1',
        port: 3306,
      }),
      'GW_DATABASE_URL: nothing answers at 10.0.0.1:3306 (is the database server running? check the host and port)',
    ],
    [
      'a host name nobody knows',
      Object.assign(new Error('getaddrinfo ENOTFOUND db.invalid'), { code: 'ENOTFOUND', hostname: 'db.invalid' }),
      'GW_DATABASE_URL: unknown host db.invalid (check the host name in the URL)',
    ],
  ];
  for (const [what, err, message] of cases) {
    it(what, () => assert.equal((explainDatabaseFailure(err) as Error).message, message));
  }

  it('leaves any other error as it is', () => {
    const err = driverError('ER_PARSE_ERROR', 'You have an error in your SQL syntax');
    assert.equal(explainDatabaseFailure(err), err);
  });

  describe('on SQLite', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-db-failure-'))));
    afterEach(() => removeDir(dir));

    it('a file that is no database', async () => {
      const file = join(dir, 'gw.sqlite');
      writeFileSync(file, 'x'.repeat(4096));
      const db = openDatabase(`sqlite:${file}`);
      try {
        const message = 'GW_DATABASE_URL: the file is not a SQLite database (name another file)';
        await assert.rejects(
          checkDatabase(() => db),
          { message },
        );
      } finally {
        await db.destroy();
      }
    });

    it("a file in a folder that does not exist, which is not created; gw's own folders are", async () => {
      assert.throws(() => openDatabase(`sqlite:${join(dir, 'missing', 'gw.sqlite')}`), {
        message:
          `GW_DATABASE_URL: folder ${join(dir, 'missing')} does not exist ` +
          '(create it, or name a file in an existing folder)',
      });
      const db = openDatabase(`sqlite:${join(dir, 'data', 'gw.sqlite')}`, { ownFolders: [join(dir, 'data')] });
      await checkDatabase(() => db);
      await db.destroy();
    });
  });
});
