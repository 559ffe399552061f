import type { AuditSubgraph } from './subgraph';
import type { AuditCase } from './testkit';

/** One audit suite: its id, its subgraphs and its cases (some suites build their cases lazily). */
export interface AuditSuite {
  id: string;
  subgraphs: AuditSubgraph[];
  cases(): AuditCase[];
}

/**
 * gw's stand-in for the audit's `src/supergraph.ts`: the audit composes with @apollo/composition
 * and serves routes here; gw composes the subgraphs itself, so this only records the suite.
 */
export function serve(id: string, subgraphs: AuditSubgraph[], tests: AuditCase[] | (() => AuditCase[])): AuditSuite {
  return { id, subgraphs, cases: () => (typeof tests === 'function' ? tests() : tests) };
}
