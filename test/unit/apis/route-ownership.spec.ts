import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { ApiCatalogue } from '../../../services/apis/lib/api-catalogue';
import { ApiStore } from '../../../services/apis/lib/api-store';
import { APIS_MIGRATIONS } from '../../../services/apis/lib/migrations';

const definition = (name: string, listenPath: string, domain?: string) => ({
  name,
  proxy: { listen_path: listenPath, target_url: 'http://upstream.test' },
  ...(domain === undefined ? {} : { domain }),
});

const OVERLAP = { type: 'GW_ERR_APIS_LISTEN_PATH_OVERLAP', code: 400 };

describe("apis: a listen path may not overlap another organisation's (per domain)", () => {
  let db: Knex;
  let catalogue: ApiCatalogue;

  beforeEach(async () => {
    db = openDatabase('sqlite::memory:');
    await migrate(db, 'apis', APIS_MIGRATIONS);
    catalogue = new ApiCatalogue(new ApiStore(db), 10, () => undefined);
  });
  afterEach(() => db.destroy());

  // [existing API of org A: path, domain], [new API of org B: path, domain], refused?
  const table: Array<[[string, string], [string, string], boolean]> = [
    [['/fuzz/', ''], ['/fuzz/sub/', ''], true],
    [['/fuzz/', ''], ['/fuzz/', 'b.test'], true],
    [['/fuzz/', ''], ['/fuzz/sub', 'b.test'], true],
    [['/fuzz/', 'a.test'], ['/fuzz/sub/', ''], true],
    [['/fuzz/', 'a.test'], ['/fuzz/', ''], true],
    [['/fuzz/', 'A.test'], ['/fuzz/sub', 'a.TEST'], true],
    [['/fuzz/sub/', ''], ['/fuzz/', ''], true],
    [['/fuzz/sub/', ''], ['/fuzz/', 'b.test'], true],
    [['/', ''], ['/anything', 'b.test'], true],
    [['/fuzz/', ''], ['/', ''], true],
    [['/fuzz/', 'a.test'], ['/fuzz/sub/', 'b.test'], false],
    [['/fuzz/', 'a.test'], ['/fuzz/', 'b.test'], false],
    [['/fuzz/', ''], ['/fuzzy/', ''], false],
    [['/fuzz/', ''], ['/other/fuzz/', ''], false],
    [['/a_b/', ''], ['/axb/c', ''], false],
  ];
  for (const [[aPath, aDomain], [bPath, bDomain], refused] of table) {
    it(`A ${aPath} on ${aDomain || 'any host'}, then B ${bPath} on ${bDomain || 'any host'}: ${refused ? 'refused' : 'allowed'}`, async () => {
      await catalogue.create({ api_definition: definition('A', aPath, aDomain), org_scope: 'org-a' });
      const attempt = catalogue.create({ api_definition: definition('B', bPath, bDomain), org_scope: 'org-b' });
      if (refused) await assert.rejects(attempt, OVERLAP);
      else await attempt;
    });
  }

  it('lets an organisation nest listen paths within its own APIs, either way round', async () => {
    await catalogue.create({ api_definition: definition('Outer', '/fuzz/'), org_scope: 'org-a' });
    await catalogue.create({ api_definition: definition('Inner', '/fuzz/sub/'), org_scope: 'org-a' });
    await catalogue.create({ api_definition: definition('Host', '/fuzz/', 'a.test'), org_scope: 'org-a' });
    await catalogue.create({ api_definition: definition('Deep', '/fuzz/sub/deeper/x'), org_scope: 'org-a' });
    await catalogue.create({ api_definition: definition('Root', '/'), org_scope: 'org-a' });
  });

  it("refuses to move an existing API under another organisation's path, and keeps it where it was", async () => {
    await catalogue.create({ api_definition: definition('A', '/fuzz/'), org_scope: 'org-a' });
    const b = await catalogue.create({ api_definition: definition('B', '/b/'), org_scope: 'org-b' });
    await assert.rejects(
      catalogue.update({ id: b.api_definition.id, api_definition: definition('B', '/fuzz/x'), org_scope: 'org-b' }),
      OVERLAP,
    );
    await assert.rejects(
      catalogue
        .update({ id: b.api_definition.id, api_definition: definition('B', '/b/', 'evil.test'), org_scope: 'org-b' })
        .then(() =>
          catalogue.update({
            id: b.api_definition.id,
            api_definition: definition('B', '/fuzz/', 'evil.test'),
            org_scope: 'org-b',
          }),
        ),
      OVERLAP,
    );
    assert.equal((await catalogue.get({ id: b.api_definition.id })).api_definition.proxy.listen_path, '/b/');
  });

  it('lets an API keep its own path on update even when it is the only one there', async () => {
    const a = await catalogue.create({ api_definition: definition('A', '/fuzz/'), org_scope: 'org-a' });
    await catalogue.update({ id: a.api_definition.id, api_definition: definition('A2', '/fuzz'), org_scope: 'org-a' });
  });

  it('treats an API without an organisation (/gw without org_id) as an owner of its own', async () => {
    await catalogue.create({ api_definition: definition('Node', '/node/') });
    await assert.rejects(catalogue.create({ api_definition: definition('B', '/node/x'), org_scope: 'org-b' }), OVERLAP);
    await assert.rejects(catalogue.create({ api_definition: definition('B', '/'), org_scope: 'org-b' }), OVERLAP);
    await catalogue.create({ api_definition: definition('Node inner', '/node/x') });
  });

  it('refuses a path another organisation holds exactly without naming its API', async () => {
    await catalogue.create({ api_definition: definition('Secret name', '/same/'), org_scope: 'org-a' });
    await assert.rejects(
      catalogue.create({ api_definition: definition('B', '/same'), org_scope: 'org-b' }),
      (err: Error) => {
        assert.equal(
          err.message,
          'Listen path /same overlaps a listen path of another organisation on the same domain; choose another listen path or set a domain of your own',
        );
        return true;
      },
    );
  });

  for (const listenPath of ['/a/../b', '/a/./b', '/a/%2e%2E/b', '/a/.%2e', '/..', '/a//b']) {
    it(`refuses the listen path ${listenPath}, which no request can reach`, async () => {
      await assert.rejects(catalogue.create({ api_definition: definition('Dots', listenPath) }), {
        type: 'GW_ERR_APIS_INVALID',
        code: 400,
      });
    });
  }
  it('still accepts dots inside segments (/v1.2/.well-known/a..b)', async () => {
    await catalogue.create({ api_definition: definition('Dotted', '/v1.2/.well-known/a..b/') });
  });
});
