/**
 * `npm run audit:federation` (issue 36): The Guild's federation gateway audit against gw. Every
 * vendored suite (suites/, MIT, see its README) is registered on an in-process gw node as subgraph
 * APIs plus a supergraph API, and every case is judged as the audit judges it.
 * AUDIT_SUITES=a,b runs some suites; AUDIT_VERBOSE=1 prints each failing case's reason.
 * The full report goes to tools/federation-audit/results.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, startTestNode } from '../../test/support/node';
import {
  blockedByDirective,
  compatibility,
  failureReasons,
  loadSuite,
  runSuite,
  suiteIds,
  type SuiteResult,
} from './audit';
import { startSubgraphServer } from './subgraph-server';

async function main(): Promise<void> {
  const only = process.env.AUDIT_SUITES?.split(',').filter(Boolean);
  const ids = suiteIds(only);
  const server = await startSubgraphServer();
  const node = await startTestNode();
  const results: SuiteResult[] = [];
  try {
    for (const id of ids) {
      const result = await runSuite(node, server, loadSuite(id));
      results.push(result);
      const note = result.refused ? `  (refused: ${oneLine(result.refused)})` : '';
      process.stdout.write(`${id}: ${result.passed}/${result.total}${note}\n`);
      if (process.env.AUDIT_VERBOSE)
        for (const c of result.cases.filter((c) => !c.passed && c.reason !== 'not composed'))
          process.stdout.write(`  ✗ ${oneLine(c.query)}\n    ${c.reason}\n`);
    }
  } finally {
    await node.stop();
    removeDir(node.dataDir);
    await server.stop();
  }
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write('\nFailing cases by reason:\n');
  for (const group of failureReasons(results))
    process.stdout.write(`  ${group.cases} cases, ${group.suites.length} suites: ${oneLine(group.reason)}\n`);
  process.stdout.write('Failing cases in suites importing each federation directive:\n');
  for (const count of blockedByDirective(results))
    process.stdout.write(`  ${count.directive}: ${count.cases} cases, ${count.suites} suites\n`);
  process.stdout.write(`\n${compatibility(results)}\n`);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

main().catch((err: Error) => {
  process.stderr.write(`audit:federation failed: ${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});
