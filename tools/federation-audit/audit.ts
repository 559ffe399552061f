import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { SubgraphServer } from './subgraph-server';
import type { AuditSuite } from './supergraph';
import type { AuditCase } from './testkit';

export const SUITES_DIR = join(__dirname, 'suites');

/** A gw node's gateway, where the runner registers APIs (`/gw/apis`) and asks questions. */
export interface AuditGateway {
  gatewayUrl: string;
  gwHeaders: Record<string, string>;
}

export interface CaseResult {
  passed: boolean;
  query: string;
  /** why it failed: what gw answered against what the audit expects */
  reason?: string;
}

export interface SuiteResult {
  id: string;
  passed: number;
  total: number;
  /** gw refused to register a subgraph or compose the supergraph: every case fails */
  refused?: string;
  /** the federation directives its subgraphs import through `@link` (none for Federation v1) */
  directives: string[];
  cases: CaseResult[];
}

/** Every vendored suite's id (its directory), sorted as the audit sorts them; `only` picks some. */
export function suiteIds(only?: string[]): string[] {
  const all = readdirSync(SUITES_DIR)
    .filter((name) => statSync(join(SUITES_DIR, name)).isDirectory())
    .sort((a, b) => a.localeCompare(b));
  if (!only) return all;
  const unknown = only.filter((id) => !all.includes(id));
  if (unknown.length > 0) throw new Error(`unknown suite(s): ${unknown.join(', ')}`);
  return all.filter((id) => only.includes(id));
}

/** A suite's index module; required, not imported, so that tsx's CommonJS hook resolves its `.js` imports to `.ts`. */
export function loadSuite(id: string): AuditSuite {
  return (require(join(SUITES_DIR, id, 'index.ts')) as { default: AuditSuite }).default;
}

/**
 * Registers the suite's subgraphs as gw subgraph APIs (internal, their SDL) and a supergraph API
 * over them, then asks every case's query and judges the answer as the audit does.
 */
export async function runSuite(gateway: AuditGateway, server: SubgraphServer, suite: AuditSuite): Promise<SuiteResult> {
  const cases = suite.cases();
  const directives = linkedDirectives(suite);
  server.add(suite.id, suite.subgraphs);
  const refused = await register(gateway, server, suite);
  if (refused !== undefined) {
    return {
      id: suite.id,
      passed: 0,
      total: cases.length,
      refused,
      directives,
      cases: cases.map((c) => ({ passed: false, query: c.query, reason: 'not composed' })),
    };
  }
  const results: CaseResult[] = [];
  for (const auditCase of cases) results.push(await runCase(`${gateway.gatewayUrl}/${suite.id}/`, auditCase));
  return {
    id: suite.id,
    passed: results.filter((r) => r.passed).length,
    total: cases.length,
    directives,
    cases: results,
  };
}

/** The API error that stopped the registration, or undefined once the supergraph answers. */
async function register(gateway: AuditGateway, server: SubgraphServer, suite: AuditSuite): Promise<string | undefined> {
  const apiId = (subgraph: string) => `audit-${suite.id}-${subgraph}`;
  for (const subgraph of suite.subgraphs) {
    const refused = await createApi(gateway, {
      api_id: apiId(subgraph.name),
      name: apiId(subgraph.name),
      use_keyless: true,
      internal: true,
      proxy: {
        listen_path: `/audit-subgraphs/${suite.id}/${subgraph.name}/`,
        target_url: server.urlOf(suite.id, subgraph.name),
        strip_listen_path: true,
      },
      graphql: {
        enabled: true,
        execution_mode: 'subgraph',
        schema: subgraph.typeDefs,
        subgraph: { sdl: subgraph.typeDefs },
      },
    });
    if (refused !== undefined) return `subgraph ${subgraph.name}: ${refused}`;
  }
  const refused = await createApi(gateway, {
    api_id: `audit-${suite.id}`,
    name: `audit-${suite.id}`,
    use_keyless: true,
    // a supergraph never calls its target, but the definition needs one
    proxy: { listen_path: `/${suite.id}/`, target_url: 'http://127.0.0.1:9', strip_listen_path: true },
    graphql: {
      enabled: true,
      execution_mode: 'supergraph',
      supergraph: {
        subgraphs: suite.subgraphs.map((s) => ({ name: s.name, url: `gw://${apiId(s.name)}` })),
      },
    },
  });
  if (refused !== undefined) return `supergraph: ${refused}`;
  return awaitServed(`${gateway.gatewayUrl}/${suite.id}/`);
}

async function createApi(gateway: AuditGateway, definition: unknown): Promise<string | undefined> {
  const response = await fetch(`${gateway.gatewayUrl}/gw/apis`, {
    method: 'POST',
    headers: { ...gateway.gwHeaders, 'content-type': 'application/json' },
    body: JSON.stringify(definition),
  });
  const text = await response.text();
  if (response.ok) return undefined;
  return `${response.status} ${messageOf(text)}`;
}

/** The supergraph answers once the gateway has compiled it; a 503 that stays is its composition failing. */
async function awaitServed(url: string): Promise<string | undefined> {
  let last = '';
  for (const started = Date.now(); Date.now() - started < 5_000;) {
    const response = await post(url, '{ __typename }');
    if (response.status !== 404 && response.status !== 503) return undefined;
    last = `${response.status} ${messageOf(response.text)}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return `not served: ${last}`;
}

/** The audit's own judgement (its src/test.ts): data deep-equal, and errors present or absent when the case says. */
async function runCase(url: string, auditCase: AuditCase): Promise<CaseResult> {
  const { query, expected } = auditCase;
  let response: { data?: unknown; errors?: unknown[] };
  try {
    const answered = await post(url, query);
    response = JSON.parse(answered.text) as typeof response;
  } catch (err) {
    return { passed: false, query, reason: `no JSON answer: ${(err as Error).message}` };
  }
  const errorsOptional = typeof expected.errors !== 'boolean';
  const received = {
    data: response.data ?? null,
    errors: errorsOptional ? null : Boolean(response.errors?.length),
  };
  const wanted = { data: expected.data ?? null, errors: errorsOptional ? null : (expected.errors ?? false) };
  if (isDeepStrictEqual(received, wanted)) return { passed: true, query };
  return {
    passed: false,
    query,
    reason: `expected ${JSON.stringify(wanted)}, got ${JSON.stringify({ data: received.data, errors: response.errors ?? null })}`,
  };
}

async function post(url: string, query: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: string; Message?: string; errors?: { message: string }[] };
    return body.message ?? body.Message ?? body.errors?.map((e) => e.message).join('; ') ?? text;
  } catch {
    return text;
  }
}

/** The audit's summary line: cases passed and suites fully passing. */
export function compatibility(results: SuiteResult[]): string {
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const total = results.reduce((sum, r) => sum + r.total, 0);
  const full = results.filter((r) => r.total > 0 && r.passed === r.total).length;
  const percent = total === 0 ? 0 : (100 * passed) / total;
  return `Compatibility: ${percent.toFixed(2)}% (${passed}/${total} cases, ${full}/${results.length} suites fully passing)`;
}

function linkedDirectives(suite: AuditSuite): string[] {
  const names = new Set<string>();
  for (const subgraph of suite.subgraphs)
    for (const list of subgraph.typeDefs.matchAll(/import:\s*\[([^\]]*)\]/g))
      for (const name of list[1].matchAll(/"(@\w+)"/g)) names.add(name[1]);
  return [...names].sort();
}

/**
 * Why cases failed, most cases first: a refusal with the suite's own names taken out (so one
 * rule gathers every suite it stops), or "wrong answer" for a case gw answered differently.
 */
export function failureReasons(results: SuiteResult[]): { reason: string; cases: number; suites: string[] }[] {
  const groups = new Map<string, { reason: string; cases: number; suites: string[] }>();
  for (const result of results) {
    const failed = result.total - result.passed;
    if (failed === 0) continue;
    const reason = result.refused
      ? result.refused.replace(/^(subgraph|supergraph)[^:]*: /, '$1: ').replace(/'[^']*'/g, "'…'")
      : 'wrong answer';
    const group = groups.get(reason) ?? { reason, cases: 0, suites: [] };
    group.cases += failed;
    group.suites.push(result.id);
    groups.set(reason, group);
  }
  return [...groups.values()].sort((a, b) => b.cases - a.cases);
}

/** How many failing cases sit in suites importing each federation directive: what Federation 2 work unlocks. */
export function blockedByDirective(results: SuiteResult[]): { directive: string; cases: number; suites: number }[] {
  const counts = new Map<string, { directive: string; cases: number; suites: number }>();
  for (const result of results) {
    const failed = result.total - result.passed;
    if (failed === 0) continue;
    for (const directive of result.directives) {
      const count = counts.get(directive) ?? { directive, cases: 0, suites: 0 };
      count.cases += failed;
      count.suites += 1;
      counts.set(directive, count);
    }
  }
  return [...counts.values()].sort((a, b) => b.cases - a.cases);
}
