import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApisChangedEvent } from '../../../contracts/apis/events';
import { openDatabase } from '../../../lib/store/database';
import { migrate } from '../../../lib/store/migrate';
import { ApiCatalogue } from '../../../services/apis/lib/api-catalogue';
import { ApiStore } from '../../../services/apis/lib/api-store';
import { APIS_MIGRATIONS } from '../../../services/apis/lib/migrations';
import { accounts, products, reviews } from '../graphql/federation/benchmark-subgraphs';

const subgraph = (name: string, sdl: string, extra: Record<string, unknown> = {}) => ({
  name,
  proxy: { listen_path: `/${name}/`, target_url: `http://${name}.test/graphql` },
  graphql: { enabled: true, execution_mode: 'subgraph', schema: sdl, subgraph: { sdl } },
  ...extra,
});

const supergraph = (name: string, subgraphs: Array<Record<string, unknown>>) => ({
  name,
  proxy: { listen_path: `/${name}/`, target_url: 'http://supergraph.test' },
  graphql: {
    enabled: true,
    execution_mode: 'supergraph',
    supergraph: { subgraphs, global_headers: { 'x-global': '1' } },
  },
});

function settings(definition: ApiDefinition): { merged_sdl: string; subgraphs: Array<Record<string, unknown>> } {
  return (definition.graphql as { supergraph: { merged_sdl: string; subgraphs: Array<Record<string, unknown>> } })
    .supergraph;
}

describe('apis: supergraphs and subgraphs on save', () => {
  let db: Knex;
  let catalogue: ApiCatalogue;
  let events: ApisChangedEvent[];

  beforeEach(async () => {
    db = openDatabase('sqlite::memory:');
    await migrate(db, 'apis', APIS_MIGRATIONS);
    events = [];
    catalogue = new ApiCatalogue(new ApiStore(db), 10, (event) => events.push(event));
  });
  afterEach(() => db.destroy());

  async function createSubgraphs(org = 'org1') {
    const created: Record<string, ApiDefinition> = {};
    for (const [name, sdl] of [
      ['accounts', accounts],
      ['products', products],
      ['reviews', reviews],
    ]) {
      created[name] = (
        await catalogue.create({ api_definition: subgraph(`${name}-${org}`, sdl), org_scope: org })
      ).api_definition;
    }
    return created;
  }

  it('stores a subgraph API as internal unless it says otherwise, and refuses SDL that is invalid on its own', async () => {
    const internal = (await catalogue.create({ api_definition: subgraph('accounts', accounts) })).api_definition;
    assert.equal(internal.internal, true);
    const exposed = (await catalogue.create({ api_definition: subgraph('exposed', accounts, { internal: false }) }))
      .api_definition;
    assert.equal(exposed.internal, false);
    await assert.rejects(
      catalogue.create({ api_definition: subgraph('broken', 'type Query { me: Nope }') }),
      (err: { code: number; message: string; data: { errors: string[] } }) => {
        assert.equal(err.code, 400);
        assert.equal(err.message, 'Invalid GraphQL schema');
        assert.deepEqual(err.data.errors, [`Subgraph 'broken': Unknown type "Nope".`]);
        return true;
      },
    );
    await assert.rejects(
      catalogue.create({
        api_definition: subgraph('badkey', 'type Query { me: User } type User @key(fields: "uuid") { id: ID! }'),
      }),
      {
        code: 400,
        data: {
          errors: [
            `Subgraph 'badkey': @key(fields: "uuid") on type 'User' is invalid: type 'User' has no field 'uuid'`,
          ],
        },
      },
    );
  });

  it('composes a supergraph from subgraph APIs named by api_id or gw:// name, storing merged_sdl and each subgraph SDL', async () => {
    const subgraphs = await createSubgraphs();
    const record = await catalogue.create({
      api_definition: supergraph('shop', [
        { api_id: subgraphs.accounts.api_id, name: 'accounts' },
        { url: `gw://${subgraphs.products.name}`, name: 'products', headers: { 'x-sub': 'p' } },
        { url: `gw://${subgraphs.reviews.api_id}` },
      ]),
      org_scope: 'org1',
    });
    const stored = settings(record.api_definition);
    assert.match(
      stored.merged_sdl,
      /type Query {\n {2}me: User\n {2}user\(id: ID!\): User\n {2}users: \[User\]\n {2}topProducts\(first: Int = 5\): \[Product\]\n}/,
    );
    assert.equal((record.api_definition.graphql as { schema: string }).schema, stored.merged_sdl);
    assert.deepEqual(
      stored.subgraphs.map((entry) => [
        entry.api_id,
        entry.name,
        entry.url,
        entry.sdl,
        entry.headers,
        entry.subscription_type,
      ]),
      [
        [subgraphs.accounts.api_id, 'accounts', `gw://${subgraphs.accounts.api_id}`, accounts, {}, 'graphql-ws'],
        [
          subgraphs.products.api_id,
          'products',
          `gw://${subgraphs.products.name}`,
          products,
          { 'x-sub': 'p' },
          'graphql-ws',
        ],
        [
          subgraphs.reviews.api_id,
          subgraphs.reviews.name,
          `gw://${subgraphs.reviews.api_id}`,
          reviews,
          {},
          'graphql-ws',
        ],
      ],
    );
    const fetched = await catalogue.get({ id: record.api_definition.api_id, org_scope: 'org1' });
    assert.equal(settings(fetched.api_definition).merged_sdl, stored.merged_sdl);
  });

  it('refuses a supergraph that does not compose, listing every error, and stores nothing', async () => {
    const subgraphs = await createSubgraphs();
    const clash = (
      await catalogue.create({
        api_definition: subgraph('clash', 'extend type Query { me: String } extend type Post { x: Int }'),
        org_scope: 'org1',
      })
    ).api_definition;
    const before = events.length;
    await assert.rejects(
      catalogue.create({
        api_definition: supergraph('shop', [
          { api_id: subgraphs.accounts.api_id, name: 'accounts' },
          { api_id: clash.api_id, name: 'clash' },
        ]),
        org_scope: 'org1',
      }),
      (err: { code: number; type: string; message: string; data: { errors: string[] } }) => {
        assert.equal(err.code, 400);
        assert.equal(err.type, 'GW_ERR_APIS_FEDERATION');
        assert.equal(err.message, `Federation failed: the subgraphs of supergraph 'shop' do not compose (2 errors)`);
        assert.deepEqual(err.data.errors, [
          `Root field 'Query.me' is defined in subgraphs 'accounts' and 'clash'; in federation v1 each root field belongs to exactly one subgraph: rename or remove it in all but one`,
          `Type 'Post' is extended in subgraph 'clash' but defined in no subgraph (extension orphan); define 'Post' in exactly one subgraph`,
        ]);
        return true;
      },
    );
    assert.equal(events.length, before);
    assert.equal((await catalogue.list({ page: 0, q: 'shop' })).apis.length, 0);
  });

  it("can not name another organisation's subgraph API, by api_id or by name", async () => {
    const theirs = await createSubgraphs('org2');
    for (const entry of [
      { api_id: theirs.accounts.api_id, name: 'accounts' },
      { url: `gw://${theirs.accounts.name}`, name: 'accounts' },
    ]) {
      await assert.rejects(
        catalogue.create({ api_definition: supergraph('steal', [entry]), org_scope: 'org1' }),
        (err: { code: number; data: { errors: string[] } }) => {
          assert.equal(err.code, 400);
          assert.deepEqual(err.data.errors, [
            `Subgraph 'accounts': there is no API '${entry.api_id ?? theirs.accounts.name}' in your organisation`,
          ]);
          return true;
        },
      );
    }
  });

  it('updates the merged_sdl of every supergraph that uses a changed subgraph, announcing each', async () => {
    const subgraphs = await createSubgraphs();
    const shop = (
      await catalogue.create({
        api_definition: supergraph('shop', [
          { api_id: subgraphs.accounts.api_id, name: 'accounts' },
          { api_id: subgraphs.products.api_id, name: 'products' },
        ]),
        org_scope: 'org1',
      })
    ).api_definition;
    const other = (
      await catalogue.create({
        api_definition: supergraph('people', [{ url: `gw://${subgraphs.accounts.name}`, name: 'accounts' }]),
        org_scope: 'org1',
      })
    ).api_definition;
    events.length = 0;
    const changed = accounts.replace('username: String', 'username: String\n  email: String');
    await catalogue.update({
      id: subgraphs.accounts.api_id,
      api_definition: subgraph('accounts-org1', changed),
      org_scope: 'org1',
    });
    const announced = events.map((e) => (e.action === 'updated' ? e.definition.name : e.action));
    assert.equal(announced[0], 'accounts-org1');
    assert.deepEqual(announced.slice(1).sort(), ['people', 'shop']);
    for (const id of [shop.api_id, other.api_id]) {
      const stored = settings((await catalogue.get({ id, org_scope: 'org1' })).api_definition);
      assert.match(stored.merged_sdl, /email: String/);
      assert.equal(stored.subgraphs[0].sdl, changed);
    }
  });

  it('refuses a subgraph change that breaks a supergraph using it, keeping the last good composition', async () => {
    const subgraphs = await createSubgraphs();
    const shop = (
      await catalogue.create({
        api_definition: supergraph('shop', [
          { api_id: subgraphs.accounts.api_id, name: 'accounts' },
          { api_id: subgraphs.reviews.api_id, name: 'reviews' },
          { api_id: subgraphs.products.api_id, name: 'products' },
        ]),
        org_scope: 'org1',
      })
    ).api_definition;
    const keyless = accounts.replace('type User @key(fields: "id")', 'type User');
    await assert.rejects(
      catalogue.update({
        id: subgraphs.accounts.api_id,
        api_definition: subgraph('accounts-org1', keyless),
        org_scope: 'org1',
      }),
      (err: { code: number; message: string; data: { errors: string[] } }) => {
        assert.equal(err.code, 400);
        assert.equal(err.message, `Federation failed: the subgraphs of supergraph 'shop' do not compose (2 errors)`);
        assert.deepEqual(err.data.errors, [
          `Supergraph 'shop': Subgraph 'reviews' extends type 'User' with @key, but 'User' is not an entity: its definition in subgraph 'accounts' has no @key`,
          `Supergraph 'shop': Subgraph 'reviews': @provides(fields: "username") on 'Review.author' is on a field returning 'User', which is not an entity; @provides names fields of a returned entity`,
        ]);
        return true;
      },
    );
    assert.equal(subgraphSdl((await catalogue.get({ id: subgraphs.accounts.api_id })).api_definition), accounts);
    assert.equal(
      settings((await catalogue.get({ id: shop.api_id })).api_definition).merged_sdl,
      settings(shop).merged_sdl,
    );
  });

  it('refuses to delete a subgraph a supergraph uses, but deleting the organisation removes both', async () => {
    const subgraphs = await createSubgraphs();
    await catalogue.create({
      api_definition: supergraph('shop', [{ api_id: subgraphs.accounts.api_id, name: 'accounts' }]),
      org_scope: 'org1',
    });
    await assert.rejects(catalogue.remove({ id: subgraphs.accounts.api_id, org_scope: 'org1' }), {
      code: 400,
      message: `API 'accounts-org1' is a subgraph of supergraph 'shop'; remove it from the supergraph first`,
    });
    assert.equal(await catalogue.removeOrganisation('org1'), 4);
  });
});

function subgraphSdl(definition: ApiDefinition): string {
  return (definition.graphql as { subgraph: { sdl: string } }).subgraph.sdl;
}
