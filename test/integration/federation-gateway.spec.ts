import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';
import { accounts, products } from '../unit/graphql/federation/benchmark-subgraphs';

/**
 * Supergraphs on a gateway node: composed once from the subgraph SDLs in their definition, a
 * `gw://` subgraph resolved to the subgraph API (and the supergraph compiled again when that API
 * appears), and the last good composition kept when a new version (here from GW_APPS_DIR, which
 * no management check guards) does not compose.
 */
describe('federation: supergraphs on a gateway node', () => {
  let node: TestNode;
  let upstream: Upstream;
  let appsDir: string;
  const gql = (path: string, query: string) => http(`${node.gatewayUrl}${path}`, { method: 'POST', body: { query } });
  const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
  const supergraphFile = (file: string, apiId: string, subgraphs: unknown[]) =>
    writeFileSync(
      join(appsDir, file),
      JSON.stringify({
        api_id: apiId,
        name: apiId,
        use_keyless: true,
        proxy: { listen_path: `/${apiId}/`, target_url: upstream.url },
        graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs } },
      }),
    );

  before(async () => {
    upstream = await startUpstream();
    appsDir = mkdtempSync(join(tmpdir(), 'gw-fed-apps-'));
    node = await startTestNode({ appsDir });
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    removeDir(appsDir);
    if (node) removeDir(node.dataDir);
  });

  it('keeps serving the last good composition when a new version of a supergraph does not compose', async () => {
    supergraphFile('shop.json', 'shop', [
      { name: 'accounts', url: `${upstream.url}/accounts`, sdl: accounts },
      { name: 'products', url: `${upstream.url}/products`, sdl: products },
    ]);
    await gw('/reload');
    // valid against the composition, so executed (the upstream here is no GraphQL server: the fields fail)
    assert.equal((await gql('/shop/', '{ me { username } topProducts { upc } }')).status, 200);
    assert.equal((await gql('/shop/', '{ nothing }')).status, 400);

    supergraphFile('shop.json', 'shop', [
      { name: 'accounts', url: `${upstream.url}/accounts`, sdl: accounts },
      { name: 'products', url: `${upstream.url}/products`, sdl: `${products}\nextend type Query { me: String }` },
    ]);
    await gw('/reload');
    const kept = await gql('/shop/', '{ me { username } }');
    assert.equal(kept.status, 200, 'Query.me is still the User of the last good composition');
    assert.equal(kept.json.data.me, null);
    assert.deepEqual((await gw('/health')).json.apis_failed, {});
  });

  it('does not serve a supergraph whose first version does not compose, and says why', async () => {
    supergraphFile('bad.json', 'bad', [
      {
        name: 'orphan',
        url: `${upstream.url}/x`,
        sdl: 'type Query { a: Int } extend type Post @key(fields: "id") { id: ID! @external }',
      },
    ]);
    await gw('/reload');
    const res = await gql('/bad/', '{ a }');
    assert.equal(res.status, 503);
    assert.deepEqual(res.json, {
      error: 'API bad is not available: its definition failed to load (see the gateway log)',
    });
    assert.deepEqual(
      (await gw('/health')).json.apis_failed.bad,
      `its subgraphs do not compose: Type 'Post' is extended in subgraph 'orphan' but defined in no subgraph (extension orphan); define 'Post' in exactly one subgraph`,
    );
  });

  it('resolves gw:// subgraphs to the subgraph API, compiling the supergraph again when that API appears', async () => {
    supergraphFile('late.json', 'late', [{ name: 'accounts', url: 'gw://late-accounts', sdl: accounts }]);
    await gw('/reload');
    const missing = await gw('/health');
    assert.equal(
      missing.json.apis_failed.late,
      `subgraph 'accounts' names API 'late-accounts', which this gateway does not know (yet)`,
    );

    const created = await gw('/apis', {
      method: 'POST',
      body: {
        api_id: 'late-accounts',
        name: 'late-accounts',
        org_id: '',
        use_keyless: true,
        proxy: { listen_path: '/late-accounts/', target_url: upstream.url },
        graphql: { enabled: true, execution_mode: 'subgraph', subgraph: { sdl: accounts } },
      },
    });
    assert.equal(created.status, 200, created.text);
    await eventually(async () => assert.equal((await gql('/late/', '{ me { id } }')).status, 200), 5000);
    assert.ok(
      upstream.received.some((r) => r.method === 'POST' && r.body.includes('me')),
      'the subgraph API target was called',
    );
    assert.equal((await gql('/late-accounts/', '{ me { id } }')).status, 404, 'the subgraph itself is internal');
  });
});
