import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * proxy hands GraphQL APIs to graphql-engine in process (contracts/graphql-engine): a gateway
 * node that runs the engine serves them, one that does not answers them 503 and says why in
 * /gw/health, while it keeps serving every other API.
 */
describe('the proxy → graphql-engine hand-off', () => {
  let upstream: Upstream;
  let appsDir: string;
  const nodes: TestNode[] = [];

  before(async () => {
    upstream = await startUpstream();
    appsDir = mkdtempSync(join(tmpdir(), 'gw-apps-'));
    mkdirSync(appsDir, { recursive: true });
    const graphql = { enabled: true, execution_mode: 'proxyOnly', schema: 'type Query { hello: String }' };
    writeFileSync(
      join(appsDir, 'graph.json'),
      JSON.stringify({
        api_id: 'graph',
        name: 'Graph',
        use_keyless: true,
        proxy: { listen_path: '/graph', target_url: upstream.url, strip_listen_path: true },
        graphql,
      }),
    );
    writeFileSync(
      join(appsDir, 'rest.json'),
      JSON.stringify({
        api_id: 'rest',
        name: 'Rest',
        use_keyless: true,
        proxy: { listen_path: '/rest', target_url: upstream.url, strip_listen_path: true },
      }),
    );
  });
  after(async () => {
    for (const node of nodes) {
      await node.stop();
      removeDir(node.dataDir);
    }
    await upstream?.close();
    removeDir(appsDir);
  });

  const start = async (services: string[]) => {
    const node = await startTestNode({ services, appsDir });
    nodes.push(node);
    return node;
  };
  const query = (node: TestNode, text: string) =>
    http(`${node.gatewayUrl}/graph`, { method: 'POST', body: { query: text } });

  it('serves GraphQL APIs on a gateway node that runs graphql-engine', async () => {
    const node = await start(['gateway']);
    const valid = await query(node, '{ hello }');
    assert.equal(valid.status, 200, valid.text);
    assert.deepEqual(JSON.parse(valid.json.body), { query: '{ hello }' });
    const invalid = await query(node, '{ goodbye }');
    assert.equal(invalid.status, 400);
    assert.match(invalid.json.errors[0].message, /Cannot query field "goodbye"/);
    assert.deepEqual((await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders })).json.apis_failed, {});
  });

  it('answers GraphQL APIs 503 on a gateway node without graphql-engine, says why in /gw/health, and serves the rest', async () => {
    const node = await start(['proxy', 'auth', 'limiter']);
    const before = upstream.received.length;
    const res = await query(node, '{ hello }');
    assert.equal(res.status, 503);
    assert.deepEqual(res.json, {
      error: 'API Graph is not available: its definition failed to load (see the gateway log)',
    });
    assert.equal(upstream.received.length, before, 'nothing reached the upstream');
    const health = await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders });
    assert.deepEqual(health.json.apis_failed, {
      graph: 'it is a GraphQL API and this node does not run the graphql-engine service (GW_SERVICES)',
    });
    assert.equal((await http(`${node.gatewayUrl}/rest/x`)).json.url, '/x');
  });
});
