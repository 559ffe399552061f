import { durationText } from './duration';
import type { HeaderEntry, OperationSettings } from './gateway-extension';
import { defaultOperationId, oasPath } from './operations';
import { circuitBreakerFromClassic } from './upstream-health';
import { ROUTING_READERS } from './from-classic-routing';

type Entry = Record<string, unknown>;

/** An operation rebuilt from classic endpoint entries. */
export interface RebuiltOperation {
  path: string;
  method: string;
  settings: OperationSettings;
  parameters?: unknown[];
  requestBody?: Record<string, unknown>;
}

/** How each classic list reads back into an operation's settings. */
const READERS: Array<[list: string, read: (entry: Entry, op: RebuiltOperation, method: string) => void]> = [
  ['ignored', (e, op, m) => ruleList(e, op, m, 'ignoreAuthentication')],
  ['white_list', (e, op, m) => ruleList(e, op, m, 'allow')],
  ['black_list', (e, op, m) => ruleList(e, op, m, 'block')],
  [
    'mock_response',
    (e, op) =>
      (op.settings.mockResponse = {
        enabled: true,
        code: Number(e.code) || 200,
        body: typeof e.body === 'string' ? e.body : '',
        headers: headerList(e.headers),
      }),
  ],
  ['size_limits', (e, op) => (op.settings.requestSizeLimit = { enabled: true, value: Number(e.size_limit) })],
  [
    'transform_headers',
    (e, op) =>
      (op.settings.transformRequestHeaders = {
        enabled: true,
        add: headerList(e.add_headers),
        remove: stringList(e.delete_headers),
      }),
  ],
  [
    'transform_response_headers',
    (e, op) =>
      (op.settings.transformResponseHeaders = {
        enabled: true,
        add: headerList(e.add_headers),
        remove: stringList(e.delete_headers),
      }),
  ],
  ['hard_timeouts', (e, op) => (op.settings.enforceTimeout = { enabled: true, value: Number(e.timeout) })],
  [
    'rate_limit',
    (e, op) => (op.settings.rateLimit = { enabled: true, rate: Number(e.rate), per: durationText(Number(e.per)) }),
  ],
  ['validate_json', (e, op) => validateJson(e, op)],
  ['validate_request', (e, op) => validateRequest(e, op)],
  ['circuit_breakers', (e, op) => (op.settings.circuitBreaker = circuitBreakerFromClassic(e))],
  ['track_endpoints', (_e, op) => (op.settings.trackEndpoint = { enabled: true })],
  ['do_not_track_endpoints', (_e, op) => (op.settings.doNotTrackEndpoint = { enabled: true })],
  ...ROUTING_READERS.map(([list, read]): [string, (entry: Entry, op: RebuiltOperation) => void] => [
    list,
    (e, op) => read(e, op.settings),
  ]),
];

/**
 * The operations a classic version's `extended_paths` describe, keyed by path and method, in an
 * order that keeps every list's own order (what decides which entry wins). Switched-off entries
 * only hold a place; entries without a method have no operation to become and are left out.
 */
export function operationsFromClassic(extended: Record<string, unknown> | undefined): RebuiltOperation[] {
  const order: string[] = [];
  const ops = new Map<string, RebuiltOperation>();
  const place = (path: string, method: string, after: string | undefined): RebuiltOperation => {
    const key = `${method} ${path}`;
    let op = ops.get(key);
    if (!op) {
      op = { path, method, settings: {} };
      ops.set(key, op);
      const at = after === undefined ? -1 : order.indexOf(after);
      order.splice(at === -1 ? order.length : at + 1, 0, key);
    }
    return op;
  };
  for (const [list, read] of READERS) {
    const entries = Array.isArray(extended?.[list]) ? (extended[list] as Entry[]) : [];
    let previous: string | undefined;
    for (const entry of entries) {
      if (typeof entry !== 'object' || entry === null) continue;
      const path = oasPath(typeof entry.path === 'string' ? entry.path : '/');
      for (const method of methodsOf(entry)) {
        const op = place(path, method, previous);
        previous = `${method} ${path}`;
        if (entry.disabled !== true && entry.enabled !== false) read(entry, op, method);
      }
    }
  }
  return order.map((key) => ops.get(key)!).filter((op) => Object.keys(op.settings).length > 0);
}

export function operationIdOf(op: RebuiltOperation): string {
  return defaultOperationId(op.path, op.method);
}

function methodsOf(entry: Entry): string[] {
  if (typeof entry.method === 'string' && entry.method !== '') return [entry.method.toUpperCase()];
  if (entry.method_actions && typeof entry.method_actions === 'object')
    return Object.keys(entry.method_actions).map((m) => m.toUpperCase());
  return [];
}

function ruleList(
  entry: Entry,
  op: RebuiltOperation,
  method: string,
  field: 'ignoreAuthentication' | 'allow' | 'block',
): void {
  op.settings[field] = { enabled: true };
  const actions = (entry.method_actions ?? {}) as Record<
    string,
    { action?: string; code?: number; data?: string; headers?: Record<string, string> }
  >;
  const action = actions[method] ?? actions[method.toLowerCase()];
  if (field !== 'block' && action?.action === 'reply') {
    op.settings.mockResponse = {
      enabled: true,
      code: Number(action.code) || 200,
      body: action.data ?? '',
      headers: headerList(action.headers),
    };
  }
}

function validateJson(entry: Entry, op: RebuiltOperation): void {
  const schema = typeof entry.schema === 'string' ? JSON.parse(entry.schema) : entry.schema;
  op.settings.validateRequest = { enabled: true, errorResponseCode: Number(entry.error_response_code) || 422 };
  op.requestBody = { required: true, content: { 'application/json': { schema } } };
}

function validateRequest(entry: Entry, op: RebuiltOperation): void {
  op.settings.validateRequest = { enabled: true, errorResponseCode: Number(entry.error_response_code) || 422 };
  if (Array.isArray(entry.parameters)) op.parameters = entry.parameters;
  if (entry.request_body && typeof entry.request_body === 'object')
    op.requestBody = entry.request_body as Record<string, unknown>;
}

function headerList(value: unknown): HeaderEntry[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).map(([name, v]) => ({ name, value: String(v) }));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
