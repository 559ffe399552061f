import { strict as assert } from 'node:assert';
import { loadSuite, runSuite } from '../../../tools/federation-audit/audit';
import { startSubgraphServer, type SubgraphServer } from '../../../tools/federation-audit/subgraph-server';
import { createTest } from '../../../tools/federation-audit/testkit';
import { removeDir, startTestNode, type TestNode } from '../../support/node';

/** The federation audit runner (npm run audit:federation) on one Federation v1 suite gw answers. */
describe('federation audit runner', function () {
  this.timeout(20_000);
  let node: TestNode;
  let server: SubgraphServer;

  before(async () => {
    server = await startSubgraphServer();
    node = await startTestNode();
  });
  after(async () => {
    await node?.stop();
    if (node) removeDir(node.dataDir);
    await server?.stop();
  });

  it("passes every case of the audit's fed1-external-extends suite", async () => {
    const result = await runSuite(node, server, loadSuite('fed1-external-extends'));
    assert.equal(result.refused, undefined);
    assert.deepEqual(
      result.cases.filter((c) => !c.passed),
      [],
    );
    assert.equal(result.passed, 4);
    assert.equal(result.total, 4);
  });

  it("passes the audit's fed1-external-extends-resolvable suite: a key field @external as 'ID' in an extension and 'ID!' in the definition", async () => {
    const result = await runSuite(node, server, loadSuite('fed1-external-extends-resolvable'));
    assert.equal(result.refused, undefined);
    assert.deepEqual(
      result.cases.filter((c) => !c.passed),
      [],
    );
    assert.equal(result.total, 1);
  });

  it('fails a case whose answer differs from the expected data, and one that expects errors gw does not give', async () => {
    const suite = loadSuite('fed1-external-extends');
    const result = await runSuite(node, server, {
      id: 'fed1-external-extends-judged',
      subgraphs: suite.subgraphs,
      cases: () => [
        createTest('{ randomUser { id } }', { data: { randomUser: { id: 'u2' } } }),
        createTest('{ randomUser { id } }', { data: { randomUser: { id: 'u1' } }, errors: true }),
        createTest('{ randomUser { id } }', { data: { randomUser: { id: 'u1' } } }),
      ],
    });
    assert.deepEqual(
      result.cases.map((c) => c.passed),
      [false, false, true],
    );
    assert.match(result.cases[0].reason!, /"id":"u2".*"id":"u1"/);
  });
});
