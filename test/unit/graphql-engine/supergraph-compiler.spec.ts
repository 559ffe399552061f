import { strict as assert } from 'node:assert';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { SupergraphCompiler } from '../../../services/graphql-engine/lib/federation/supergraph-compiler';
import { accounts, products } from '../graphql/federation/benchmark-subgraphs';

const supergraphApi = (subgraphs: unknown[]): ApiDefinition => ({
  id: 'sg',
  api_id: 'sg',
  name: 'shop',
  org_id: 'org1',
  active: true,
  proxy: { listen_path: '/shop/', target_url: 'http://unused.test' },
  graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs } },
});

const subgraphApi = (apiId: string, target: string): ApiDefinition => ({
  id: `id-${apiId}`,
  api_id: apiId,
  name: `${apiId}-name`,
  org_id: 'org1',
  active: true,
  proxy: { listen_path: `/${apiId}/`, target_url: target },
});

describe('graphql-engine: SupergraphCompiler', () => {
  it('composes a definition once and reuses the result while its inputs are the same', () => {
    const compiler = new SupergraphCompiler();
    const entries = [
      { name: 'accounts', url: 'http://a.test', sdl: accounts, headers: { 'x-a': '1' }, subscription_type: 'sse' },
    ];
    const first = compiler.supergraphOf(supergraphApi(entries), undefined);
    assert.equal(compiler.supergraphOf(supergraphApi(structuredClone(entries)), undefined), first);
    assert.deepEqual(first.subgraphs, [
      { name: 'accounts', url: 'http://a.test', headers: { 'x-a': '1' }, subscriptionType: 'sse' },
    ]);
  });

  it("fetches a gw:// subgraph at its API's target, looked up by name or id in the supergraph's organisation", () => {
    const apis = [
      subgraphApi('acc', 'http://accounts.internal:4001/graphql'),
      subgraphApi('prod', 'http://products.internal:4002/graphql'),
    ];
    const lookups: string[] = [];
    const lookup = (ref: string, orgId: string) => {
      lookups.push(`${orgId}/${ref}`);
      return apis.find((api) => api.org_id === orgId && [api.id, api.api_id, api.name].includes(ref));
    };
    const supergraph = new SupergraphCompiler().supergraphOf(
      supergraphApi([
        { name: 'accounts', url: 'gw://acc-name', sdl: accounts },
        { name: 'products', api_id: 'prod', sdl: products },
      ]),
      lookup,
    );
    assert.deepEqual(
      supergraph.subgraphs.map((s) => s.url),
      ['http://accounts.internal:4001/graphql', 'http://products.internal:4002/graphql'],
    );
    assert.deepEqual(lookups, ['org1/acc-name', 'org1/prod']);
  });

  it('takes the SDL of the subgraph API an entry names when the entry carries none', () => {
    const api = {
      ...subgraphApi('acc', 'http://accounts.internal/graphql'),
      graphql: { enabled: true, execution_mode: 'subgraph', subgraph: { sdl: accounts } },
    };
    const supergraph = new SupergraphCompiler().supergraphOf(
      supergraphApi([{ name: 'accounts', url: 'gw://acc' }]),
      (ref) => (ref === 'acc' ? api : undefined),
    );
    assert.deepEqual(Object.keys(supergraph.schema.getQueryType()!.getFields()), ['me', 'user', 'users']);
  });

  it('keeps the last good composition of an API when a new version does not compose, and says so', () => {
    const warnings: string[] = [];
    const compiler = new SupergraphCompiler((message) => warnings.push(message));
    const good = compiler.supergraphOf(
      supergraphApi([{ name: 'accounts', url: 'http://a.test', sdl: accounts }]),
      undefined,
    );
    const clash = [
      { name: 'accounts', url: 'http://a.test', sdl: accounts },
      { name: 'other', url: 'http://o.test', sdl: 'extend type Query { me: String }' },
    ];
    assert.equal(compiler.supergraphOf(supergraphApi(clash), undefined), good);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /^API sg: the new version of supergraph 'shop' does not compose \(Root field 'Query\.me' is defined in subgraphs 'accounts' and 'other'.*\); it keeps serving its last good composition$/,
    );
    assert.throws(
      () => new SupergraphCompiler().supergraphOf(supergraphApi(clash), undefined),
      /^Error: its subgraphs do not compose: Root field 'Query\.me'/,
    );
  });
});
