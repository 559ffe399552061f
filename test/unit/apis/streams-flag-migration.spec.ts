import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { APIS_MIGRATIONS } from '../../../services/apis/lib/migrations';

const row = (id: string, oas: Record<string, unknown> | null) => ({
  id,
  api_id: `api-${id}`,
  org_id: 'org',
  name: id,
  listen_path: `/${id}/`,
  domain: '',
  definition: '{}',
  hook_references: '[]',
  oas: oas === null ? null : JSON.stringify(oas),
  created_at: 1,
  updated_at: 1,
});

describe('apis migration 004: existing streams APIs are flagged', () => {
  let db: Knex;
  afterEach(() => db.destroy());

  it('sets is_streams on OAS rows carrying x-gw-streaming, and only on them', async () => {
    db = openDatabase('sqlite::memory:');
    const before = APIS_MIGRATIONS.filter((m) => !m.name.startsWith('004_'));
    await migrate(db, 'apis', before);
    await db('apis').insert([
      row('classic', null),
      row('plain', { openapi: '3.0.3', info: { description: 'mentions x-gw-streaming in text' } }),
      row('streams', { openapi: '3.0.3', 'x-gw-streaming': { streams: {} } }),
    ]);
    await migrate(db, 'apis', APIS_MIGRATIONS);
    const flags = await db('apis').select('id', 'is_streams').orderBy('id');
    assert.deepEqual(
      flags.map((f) => [f.id, Boolean(f.is_streams)]),
      [
        ['classic', false],
        ['plain', false],
        ['streams', true],
      ],
    );
  });
});
