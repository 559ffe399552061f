import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';

/** A pragma's value on the embedded database's one connection. */
async function pragma(db: Knex, name: string): Promise<unknown> {
  const rows = await db.raw<Array<Record<string, unknown>>>(`pragma ${name}`);
  return rows[0][name];
}

describe('store: the embedded SQLite database', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-sqlite-settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('commits in WAL mode with synchronous NORMAL, in a new file from its first statement on, and in a file opened again', async () => {
    const url = `sqlite:${join(dir, 'gw.sqlite')}`;
    const created = openDatabase(url);
    try {
      // 1: NORMAL (2 would be FULL, which a new file had until its first write)
      assert.equal(await pragma(created, 'synchronous'), 1);
      await created.raw('create table t (a integer)');
      assert.equal(await pragma(created, 'journal_mode'), 'wal');
      assert.equal(await pragma(created, 'synchronous'), 1);
    } finally {
      await created.destroy();
    }
    const reopened = openDatabase(url);
    try {
      assert.equal(await pragma(reopened, 'journal_mode'), 'wal');
      assert.equal(await pragma(reopened, 'synchronous'), 1);
    } finally {
      await reopened.destroy();
    }
  });
});
