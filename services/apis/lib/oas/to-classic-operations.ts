import { ApisErrors } from '../../errors';
import { openApiAjv } from '../../../../lib/openapi/schema-compiler';
import { durationSeconds } from './duration';
import { pointer, type OasDocument } from './document';
import { on, type HeaderEntry, type HeaderTransformSettings, type OperationSettings } from './gateway-extension';
import { mockFromExamples } from './mock-examples';
import { operationsWithoutSecurity } from './operation-security';
import { classicPath, listOperations, type OasOperation } from './operations';
import { newRefBudget, resolveLocalRefs, type RefBudget } from './refs';
import { circuitBreakerEntry } from './upstream-health';
import { ROUTING_FEATURES } from './to-classic-routing';

type Entry = Record<string, unknown>;
type Lists = Record<string, Entry[]>;

/** One per-operation setting and the classic `extended_paths` list it becomes. */
export interface Feature {
  list: string;
  isOn(settings: OperationSettings): boolean;
  /** `refs`: the document's budget for copies of referenced schemas, shared by all its operations */
  entry(settings: OperationSettings, op: OasOperation, document: OasDocument, refs: RefBudget): Entry;
}

const methodActions = (op: OasOperation) => ({
  [op.method]: { action: 'no_action', code: 200, data: '', headers: {} },
});

const FEATURES: Feature[] = [
  {
    list: 'ignored',
    isOn: (s) => on(s.ignoreAuthentication),
    entry: (_s, op) => ({ method_actions: methodActions(op) }),
  },
  { list: 'white_list', isOn: (s) => on(s.allow), entry: (_s, op) => ({ method_actions: methodActions(op) }) },
  { list: 'black_list', isOn: (s) => on(s.block), entry: (_s, op) => ({ method_actions: methodActions(op) }) },
  { list: 'track_endpoints', isOn: (s) => on(s.trackEndpoint), entry: () => ({}) },
  { list: 'do_not_track_endpoints', isOn: (s) => on(s.doNotTrackEndpoint), entry: () => ({}) },
  {
    list: 'mock_response',
    isOn: (s) => on(s.mockResponse),
    entry: (s, op, document, refs) =>
      on(s.mockResponse!.fromOASExamples)
        ? mockFromExamples(s, op, document, refs)
        : {
            code: s.mockResponse!.code ?? 200,
            body: s.mockResponse!.body ?? '',
            headers: headerMap(s.mockResponse!.headers),
          },
  },
  {
    list: 'size_limits',
    isOn: (s) => on(s.requestSizeLimit),
    entry: (s) => ({ size_limit: s.requestSizeLimit!.value }),
  },
  {
    list: 'transform_headers',
    isOn: (s) => on(s.transformRequestHeaders),
    entry: (s) => headerTransform(s.transformRequestHeaders!),
  },
  {
    list: 'transform_response_headers',
    isOn: (s) => on(s.transformResponseHeaders),
    entry: (s) => headerTransform(s.transformResponseHeaders!),
  },
  { list: 'hard_timeouts', isOn: (s) => on(s.enforceTimeout), entry: (s) => ({ timeout: s.enforceTimeout!.value }) },
  {
    list: 'rate_limit',
    isOn: (s) => on(s.rateLimit),
    entry: (s) => ({ enabled: true, rate: s.rateLimit!.rate, per: durationSeconds(s.rateLimit!.per) }),
  },
  { list: 'circuit_breakers', isOn: (s) => on(s.circuitBreaker), entry: (s) => circuitBreakerEntry(s.circuitBreaker!) },
  {
    list: 'validate_request',
    isOn: (s) => on(s.validateRequest),
    entry: (s, op, document, refs) => validateRequestEntry(s, op, document, refs),
  },
  ...ROUTING_FEATURES,
];

/** Lists whose entries never shadow another's: every matching entry counts, or order is the classic one. */
const UNSHADOWED = new Set(['ignored', 'white_list', 'black_list', 'track_endpoints', 'do_not_track_endpoints']);

/**
 * `middleware.operations` as classic `extended_paths` lists, in document order. Each entry's
 * path is the operation's path anchored at its end (`{name}` is one segment). Where an earlier
 * operation lacks a setting a later one has and the later path could match it (`/pets/mine`
 * before `/pets/{id}`), a switched-off entry with `stop_matching` keeps the later one from
 * applying to it: the operation listed first wins.
 */
export function operationsToClassic(document: OasDocument, operations: Record<string, OperationSettings>): Lists {
  const lists: Lists = {};
  const refs = newRefBudget();
  // Every operation takes part, configured or not: one listed first wins over a later catch-all either way.
  const ops = listOperations(document);
  const withoutSecurity = operationsWithoutSecurity(document, ops);
  const settingsOf = (op: OasOperation): OperationSettings => {
    const settings = (op.operationId !== undefined ? operations[op.operationId] : undefined) ?? {};
    // `security: []` on the operation: open to anonymous callers, as `ignoreAuthentication` is
    return withoutSecurity.has(op) && !on(settings.ignoreAuthentication)
      ? { ...settings, ignoreAuthentication: { enabled: true } }
      : settings;
  };
  for (const feature of FEATURES) {
    ops.forEach((op, i) => {
      const settings = settingsOf(op);
      const base = { path: classicPath(op.path), method: op.method };
      if (feature.isOn(settings))
        (lists[feature.list] ??= []).push({ ...base, ...feature.entry(settings, op, document, refs) });
      else if (
        !UNSHADOWED.has(feature.list) &&
        ops
          .slice(i + 1)
          .some(
            (later) =>
              feature.isOn(settingsOf(later)) && later.method === op.method && templateCovers(later.path, op.path),
          )
      ) {
        (lists[feature.list] ??= []).push({ ...base, disabled: true, stop_matching: true });
      }
    });
  }
  return lists;
}

/** Whether the OpenAPI path `general` (with `{name}` segments) could match what `specific` matches. */
function templateCovers(general: string, specific: string): boolean {
  const a = general.split('/');
  const b = specific.split('/');
  return a.length === b.length && a.every((segment, i) => /^\{[^/{}]+\}$/.test(segment) || segment === b[i]);
}

function headerMap(headers: HeaderEntry[] | undefined): Record<string, string> {
  return Object.fromEntries((headers ?? []).map(({ name, value }) => [name, value]));
}

function headerTransform(settings: HeaderTransformSettings): Entry {
  return { add_headers: headerMap(settings.add), delete_headers: settings.remove ?? [] };
}

/**
 * The operation's parameters (the path item's, overridden by name and location by the
 * operation's) and request body, with their references resolved, so a gateway can check a
 * request without the document. Schemas that do not compile are refused here, with the pointer.
 */
function validateRequestEntry(
  settings: OperationSettings,
  op: OasOperation,
  document: OasDocument,
  refs: RefBudget,
): Entry {
  const at = pointer('paths', op.path, op.method.toLowerCase());
  const own = resolveLocalRefs(op.operation.parameters ?? [], document, `${at}/parameters`, refs) as Array<
    Record<string, unknown>
  >;
  const inherited = resolveLocalRefs(
    op.pathParameters,
    document,
    pointer('paths', op.path, 'parameters'),
    refs,
  ) as Array<Record<string, unknown>>;
  const key = (p: Record<string, unknown>) => `${String(p.in)}:${String(p.name)}`;
  const overridden = new Set(own.map(key));
  const parameters = [...inherited.filter((p) => !overridden.has(key(p))), ...own];
  const requestBody =
    op.operation.requestBody === undefined
      ? undefined
      : (resolveLocalRefs(op.operation.requestBody, document, `${at}/requestBody`, refs) as Record<string, unknown>);
  assertSchemasCompile(parameters, requestBody, at);
  const entry: Entry = {
    enabled: true,
    error_response_code: settings.validateRequest!.errorResponseCode ?? 422,
    parameters,
  };
  if (requestBody) entry.request_body = requestBody;
  return entry;
}

function assertSchemasCompile(
  parameters: Array<Record<string, unknown>>,
  requestBody: Record<string, unknown> | undefined,
  at: string,
): void {
  const ajv = openApiAjv(true);
  const problems: string[] = [];
  const tryCompile = (schema: unknown, where: string) => {
    if (schema === undefined) return;
    try {
      ajv.compile(schema as object);
    } catch (err) {
      problems.push(`${where}: the schema does not compile: ${(err as Error).message}`);
    }
  };
  parameters.forEach((p, i) => {
    if (typeof p.name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(String(p.in)))
      problems.push(`${at}/parameters/${i}: a parameter needs a name and an in of path, query, header or cookie`);
    else tryCompile(p.schema, `${at}/parameters/${i}/schema`);
  });
  for (const [mediaType, media] of Object.entries(
    (requestBody?.content ?? {}) as Record<string, { schema?: unknown }>,
  )) {
    tryCompile(media?.schema, `${at}/requestBody/content/${mediaType.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`);
  }
  if (problems.length > 0) throw ApisErrors.invalidOas(problems);
}
