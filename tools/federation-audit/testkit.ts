/** One audit case: the query, and the data (and whether errors) the gateway must answer with. */
export interface AuditCase {
  query: string;
  expected: { data?: unknown; errors?: boolean };
}

/** gw's stand-in for the audit's `src/testkit.ts`. */
export function createTest(query: string, expected: AuditCase['expected']): AuditCase {
  return { query, expected };
}
