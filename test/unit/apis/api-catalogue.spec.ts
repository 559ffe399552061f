import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import type { ApisChangedEvent } from '../../../contracts/apis/events';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { ApiCatalogue } from '../../../services/apis/lib/api-catalogue';
import { ApiStore } from '../../../services/apis/lib/api-store';
import { APIS_MIGRATIONS } from '../../../services/apis/lib/migrations';

const definition = (name: string, listenPath: string, extra: Record<string, unknown> = {}) => ({
  name,
  proxy: { listen_path: listenPath, target_url: 'http://upstream.test' },
  ...extra,
});

describe('apis: ApiCatalogue on an in-memory SQLite store', () => {
  let db: Knex;
  let catalogue: ApiCatalogue;
  let events: ApisChangedEvent[];
  let clock: number;

  beforeEach(async () => {
    db = openDatabase('sqlite::memory:');
    await migrate(db, 'apis', APIS_MIGRATIONS);
    events = [];
    clock = 1_000;
    catalogue = new ApiCatalogue(
      new ApiStore(db),
      2,
      (event) => events.push(event),
      () => clock++,
    );
  });
  afterEach(() => db.destroy());

  it('creates a definition with generated ids and gateway defaults, then announces it', async () => {
    const record = await catalogue.create({ api_definition: definition('A', '/a'), org_scope: 'org1' });
    const def = record.api_definition;
    assert.match(def.id, /^[0-9a-f]{24}$/);
    assert.match(def.api_id, /^[0-9a-f]{32}$/);
    assert.equal(def.org_id, 'org1');
    assert.equal(def.active, true);
    assert.equal(def.use_keyless, false);
    assert.equal(def.proxy.strip_listen_path, false);
    assert.deepEqual(events, [{ action: 'created', definition: def, revision: 1 }]);
  });

  it('keeps a given api_id and refuses it a second time without storing or announcing anything', async () => {
    await catalogue.create({ api_definition: definition('A', '/a', { api_id: 'fixed' }) });
    await assert.rejects(catalogue.create({ api_definition: definition('B', '/b', { api_id: 'fixed' }) }), {
      type: 'GW_ERR_APIS_ID_TAKEN',
      code: 400,
    });
    assert.equal((await catalogue.list({ page: 0 })).apis.length, 1);
    assert.equal(events.length, 1);
  });

  it('treats /x and /x/ as one listen path, per domain', async () => {
    await catalogue.create({ api_definition: definition('A', '/x/') });
    await assert.rejects(catalogue.create({ api_definition: definition('B', '/x') }), {
      type: 'GW_ERR_APIS_LISTEN_PATH_TAKEN',
    });
    await catalogue.create({ api_definition: definition('C', '/x', { domain: 'Other.Test' }) });
    await assert.rejects(catalogue.create({ api_definition: definition('D', '/x', { domain: 'other.test' }) }), {
      type: 'GW_ERR_APIS_LISTEN_PATH_TAKEN',
    });
  });

  it('lets an API keep its own listen path on update', async () => {
    const created = await catalogue.create({ api_definition: definition('A', '/a') });
    const updated = await catalogue.update({
      id: created.api_definition.api_id,
      api_definition: definition('A2', '/a/'),
    });
    assert.equal(updated.api_definition.name, 'A2');
    assert.equal(updated.api_definition.id, created.api_definition.id);
    assert.deepEqual(
      events.map((e) => e.action),
      ['created', 'updated'],
    );
  });

  it('scopes every read and write to the organisation it is given', async () => {
    const created = await catalogue.create({ api_definition: definition('A', '/a'), org_scope: 'org1' });
    const { id } = created.api_definition;
    await assert.rejects(catalogue.get({ id, org_scope: 'org2' }), { type: 'GW_ERR_APIS_NOT_FOUND', code: 404 });
    await assert.rejects(catalogue.update({ id, org_scope: 'org2', api_definition: definition('A', '/a') }), {
      type: 'GW_ERR_APIS_NOT_FOUND',
    });
    await assert.rejects(catalogue.remove({ id, org_scope: 'org2' }), { type: 'GW_ERR_APIS_NOT_FOUND' });
    assert.equal(
      (await catalogue.get({ id })).api_definition.name,
      'A',
      'without a scope every organisation is visible',
    );
    await assert.rejects(
      catalogue.create({ api_definition: definition('B', '/b', { org_id: 'org2' }), org_scope: 'org1' }),
      { type: 'GW_ERR_APIS_WRONG_ORG' },
    );
  });

  it('pages newest first and counts pages', async () => {
    for (const name of ['one', 'two', 'three'])
      await catalogue.create({ api_definition: definition(name, `/${name}`) });
    const first = await catalogue.list({ page: 1 });
    assert.deepEqual(
      first.apis.map((a) => a.api_definition.name),
      ['three', 'two'],
    );
    assert.equal(first.pages, 2);
    assert.deepEqual(
      (await catalogue.list({ page: 2 })).apis.map((a) => a.api_definition.name),
      ['one'],
    );
    assert.equal((await catalogue.list({ page: 0 })).apis.length, 3);
    assert.deepEqual(
      (await catalogue.list({ q: 'TW', page: 0 })).apis.map((a) => a.api_definition.name),
      ['two'],
    );
  });

  it('removes a definition and announces its ids', async () => {
    const created = await catalogue.create({ api_definition: definition('A', '/a') });
    const { id, api_id } = created.api_definition;
    assert.deepEqual(await catalogue.remove({ id: api_id }), { id, api_id });
    assert.deepEqual(events.at(-1), { action: 'deleted', id, api_id, revision: 2 });
    await assert.rejects(catalogue.get({ id }), { type: 'GW_ERR_APIS_NOT_FOUND' });
  });

  it('takes a deleted API out of the bases of its organisation that list it as a version, and announces them', async () => {
    const versioned = (versions: Record<string, string>, defaultVersion = 'v1') => ({
      definition: { enabled: true, name: 'v1', default: defaultVersion, location: 'header', key: 'x-v', versions },
    });
    // an id with LIKE wildcards: `a_b%` must not be read as matching `aXbY`
    await catalogue.create({ api_definition: definition('Child', '/child', { api_id: 'a_b%' }), org_scope: 'org1' });
    await catalogue.create({
      api_definition: definition('Look-alike', '/alike', { api_id: 'aXbY' }),
      org_scope: 'org1',
    });
    const base = await catalogue.create({
      api_definition: definition('Base', '/base', versioned({ v2: 'a_b%', v3: 'aXbY' }, 'v2')),
      org_scope: 'org1',
    });
    const other = await catalogue.create({
      api_definition: definition('Other base', '/other', versioned({ v2: 'aXbY' })),
      org_scope: 'org1',
    });
    const foreign = await catalogue.create({
      api_definition: definition('Foreign', '/foreign', versioned({ v2: 'a_b%' })),
      org_scope: 'org2',
    });
    events.length = 0;
    // the store's first pass finds the id itself, in the organisation only
    assert.deepEqual((await new ApiStore(db).mentioning('a_b%', 'org1')).map((api) => api.definition.name).sort(), [
      'Base',
      'Child',
    ]);

    await catalogue.remove({ id: 'a_b%', org_scope: 'org1' });
    const stored = (await catalogue.get({ id: base.api_definition.api_id })).api_definition.definition as Record<
      string,
      unknown
    >;
    assert.deepEqual(stored.versions, { v3: 'aXbY' });
    assert.equal(stored.default, 'v1', 'the default named the deleted version: it falls back to the base');
    assert.deepEqual(
      events.map((event) => [event.action, 'definition' in event ? event.definition.api_id : event.api_id]),
      [
        ['deleted', 'a_b%'],
        ['updated', base.api_definition.api_id],
      ],
    );
    for (const untouched of [other, foreign])
      assert.deepEqual(
        (await catalogue.get({ id: untouched.api_definition.api_id })).api_definition.definition,
        untouched.api_definition.definition,
      );
  });

  it('numbers every committed change with the next store revision, and snapshots with the revision they reflect', async () => {
    assert.deepEqual(await catalogue.snapshot(), { revision: 0, apis: [] });
    const a = await catalogue.create({ api_definition: definition('A', '/a') });
    await assert.rejects(catalogue.create({ api_definition: definition('B', '/a') }), {
      type: 'GW_ERR_APIS_LISTEN_PATH_TAKEN',
    });
    await catalogue.update({ id: a.api_definition.id, api_definition: definition('A2', '/a') });
    const b = await catalogue.create({ api_definition: definition('B', '/b') });
    await catalogue.remove({ id: a.api_definition.id });
    await assert.rejects(catalogue.remove({ id: a.api_definition.id }), { type: 'GW_ERR_APIS_NOT_FOUND' });
    assert.deepEqual(
      events.map((e) => [e.action, e.revision]),
      [
        ['created', 1],
        ['updated', 2],
        ['created', 3],
        ['deleted', 4],
      ],
    );
    assert.deepEqual(await catalogue.currentRevision(), { revision: 4 });
    assert.deepEqual(await catalogue.snapshot(), { revision: 4, apis: [b.api_definition] });
  });

  it('refuses listen paths under the reserved /gw prefix', async () => {
    for (const path of ['/gw', '/gw/', '/GW/apis']) {
      await assert.rejects(catalogue.create({ api_definition: definition('A', path) }), {
        type: 'GW_ERR_APIS_INVALID',
      });
    }
    await catalogue.create({ api_definition: definition('A', '/gwx') });
  });

  it('refuses a version the gateway could not load, naming the version and the field', async () => {
    const versioned = (version: Record<string, unknown>) =>
      definition('V', '/v', {
        version_data: {
          not_versioned: false,
          default_version: 'v1',
          versions: { v1: { name: 'v1' }, v2: { name: 'v2', ...version } },
        },
      });
    await assert.rejects(catalogue.create({ api_definition: versioned({ expires: 'next tuesday' }) }), {
      type: 'GW_ERR_APIS_INVALID',
      message: "Version 'v2', expires: version expiry 'next tuesday' is not a date (use 'YYYY-MM-DD HH:MM')",
    });
    await assert.rejects(catalogue.create({ api_definition: versioned({ override_target: 'ftp://files.test' }) }), {
      type: 'GW_ERR_APIS_INVALID',
      message: "Version 'v2', override_target: 'ftp://files.test' is not an absolute http://, https:// or h2c:// URL",
    });
    assert.deepEqual(events, [], 'nothing stored or announced');
    await catalogue.create({
      api_definition: versioned({ expires: '2030-01-02 15:04', override_target: 'https://v2.upstream.test' }),
    });
  });
});
