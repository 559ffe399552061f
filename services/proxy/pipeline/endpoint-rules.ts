import { compileEndpointPattern, type PathMatcher } from '../../../lib/patterns/endpoint-pattern';
import { encodedSlashReading } from '../lib/request-path';

/**
 * Endpoint rules of a version (docs/gateway.md#endpoint-rules): `ignored`, `white_list` and
 * `black_list`, either the legacy `paths` lists (path patterns, every method) or the
 * `extended_paths` entries `{path, method_actions: {<METHOD>: {action, code, data, headers}}}`.
 *
 * As in the reference gateway, a path is a regular expression matched against the start of the
 * path below the listen path, so sub-paths match automatically; `{name}` stands for one
 * segment. Rules are tried in array order, ignored entries first, then the black list, then the
 * white list; the first that matches the path and method decides.
 *
 * A path with `%2F` is read twice: as written (most upstreams take `a%2Fb` as one segment) and
 * with the slashes decoded (some, e.g. WSGI apps, route on the decoded path, as the reference
 * gateway matches); the request passes only if neither reading is refused.
 */

export interface ReplyAction {
  code: number;
  body: string;
  headers: Record<string, string>;
}

export type EndpointDecision =
  | { kind: 'none' }
  | { kind: 'ignored'; reply?: ReplyAction }
  | { kind: 'allowed'; reply?: ReplyAction }
  | { kind: 'blocked' }
  | { kind: 'not-allowed' };

type ListKind = 'ignored' | 'allowed' | 'blocked';

interface Rule {
  kind: ListKind;
  pattern: PathMatcher;
  /** per method: its reply, or null for `no_action`; undefined = every method, no reply */
  methods?: Map<string, ReplyAction | null>;
}

export interface EndpointRules {
  decide(method: string, relativePath: string): EndpointDecision;
  readonly empty: boolean;
}

interface MethodAction {
  action?: string;
  code?: number;
  data?: string;
  headers?: Record<string, string>;
}

interface ExtendedEntry {
  path?: string;
  method?: string;
  method_actions?: Record<string, MethodAction>;
}

const NONE: EndpointDecision = { kind: 'none' };
const LISTS: Array<[string, ListKind]> = [
  ['ignored', 'ignored'],
  ['black_list', 'blocked'],
  ['white_list', 'allowed'],
];

export function compileEndpointRules(version: Record<string, unknown>): EndpointRules {
  const ignoreCase = version.ignore_endpoint_case === true;
  const rules: Rule[] = [];
  let hasWhiteList = false;
  const source = (version.use_extended_paths === true ? version.extended_paths : version.paths) as
    Record<string, unknown> | undefined;
  for (const [field, kind] of LISTS) {
    const entries = source?.[field];
    if (!Array.isArray(entries) || entries.length === 0) continue;
    if (kind === 'allowed') hasWhiteList = true;
    for (const entry of entries) rules.push(compileRule(kind, entry as string | ExtendedEntry, ignoreCase));
  }
  if (rules.length === 0) return { empty: true, decide: () => NONE };
  return {
    empty: false,
    decide(method, relativePath) {
      const decision = firstDecision(rules, hasWhiteList, method, relativePath);
      if (refused(decision)) return decision;
      const decoded = encodedSlashReading(relativePath);
      if (decoded === undefined) return decision;
      const other = firstDecision(rules, hasWhiteList, method, decoded);
      return refused(other) ? other : decision;
    },
  };
}

function firstDecision(rules: Rule[], hasWhiteList: boolean, method: string, relativePath: string): EndpointDecision {
  for (const rule of rules) {
    if (!rule.pattern.test(relativePath)) continue;
    if (rule.methods !== undefined && !rule.methods.has(method)) continue;
    if (rule.kind === 'blocked') return { kind: 'blocked' };
    const reply = rule.methods?.get(method) ?? undefined;
    return reply ? { kind: rule.kind, reply } : { kind: rule.kind };
  }
  return hasWhiteList ? { kind: 'not-allowed' } : NONE;
}

function refused(decision: EndpointDecision): boolean {
  return decision.kind === 'blocked' || decision.kind === 'not-allowed';
}

function compileRule(kind: ListKind, entry: string | ExtendedEntry, ignoreCase: boolean): Rule {
  if (typeof entry === 'string') return { kind, pattern: pathPattern(entry, ignoreCase) };
  const pattern = pathPattern(entry.path ?? '/', ignoreCase);
  const methods = new Map<string, ReplyAction | null>();
  for (const [method, action] of Object.entries(entry.method_actions ?? {})) {
    methods.set(method.toUpperCase(), action?.action === 'reply' ? replyOf(action) : null);
  }
  // The newer entry shape names one method and no actions.
  if (typeof entry.method === 'string' && entry.method !== '') methods.set(entry.method.toUpperCase(), null);
  return { kind, pattern, methods: methods.size > 0 ? methods : undefined };
}

function replyOf(action: MethodAction): ReplyAction {
  return { code: Number(action.code) || 200, body: action.data ?? '', headers: action.headers ?? {} };
}

/**
 * `/users/{id}` matches `/users/1` and `/users/1/orders`; the rest of the path is a regular
 * expression, run in linear time (lib/patterns/endpoint-pattern.ts).
 */
export function pathPattern(path: string, ignoreCase: boolean): PathMatcher {
  return compileEndpointPattern(path, ignoreCase);
}
