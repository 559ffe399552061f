import { strict as assert } from 'node:assert';
import { createTenant } from '../support/bootstrap';
import { createTestPki, type TestPki } from '../support/certificates';
import { startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { http, type HttpResult } from '../support/http';
import { loadReferenceDocument, type DocumentOperation } from '../support/reference-document';
import { DELETIONS, ERRORS, WALK, type WalkContext, type WalkRequest, type WalkStep } from '../support/reference-walk';

/**
 * Where gw answers a request of the walk differently on purpose, or where the document contradicts
 * the reference gateway itself: test title (`operationId` or `operationId (case)`) -> why. The
 * same list is in docs/apis.md. A listed request is still sent, and fails once it conforms, so
 * that the list does not outlive the difference.
 */
const DELIBERATE_DIFFERENCES: Record<string, string> = {
  'updatePolicy (an unknown id)':
    'gw answers 404 "Policy not found" (PUT updates, POST creates); the reference writes the file, creating it',
  'deletePolicy (an unknown id)': 'gw answers 404 "Policy not found"; the reference 500 "Delete failed" (no file)',
  'createApi (a version without new_version_name)':
    "the document lists no 422, but the reference's handler answers it (handleAddApi: 'The new version name is required')",
  'addCert (not a certificate)':
    'gw answers 400 with the reason, as /api/certs does; the reference 403, as for a duplicate',
};

/** MCP operations are walked by their own specs (test/integration/mcp*). */
const isMcp = (operation: DocumentOperation) => operation.path.startsWith('/gw/mcps');
/** Operations that take no secret: the liveness check, and batches (each request carries its own key). */
const UNGUARDED = new Set(['hello', 'batch']);

const document = loadReferenceDocument();

describe('the reference gateway API document, operation by operation', function () {
  this.timeout(120_000);
  let gw: GatewayFixture;
  let pki: TestPki;
  let ctx: WalkContext;

  const send = (operation: DocumentOperation, request: WalkRequest, secret = true): Promise<HttpResult> => {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(request.params?.[name] ?? 'unknown'),
    );
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
    const headers: Record<string, string> = secret ? { ...gw.node.gwHeaders } : {};
    let body: unknown = request.body;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    } else if (request.text !== undefined) {
      headers['content-type'] = 'text/plain';
      body = request.text;
    }
    return http(`${gw.node.gatewayUrl}${path}${query}`, { method: operation.method, headers, body });
  };

  /** Sends a request and says what about its answer the document does not allow (empty: nothing). */
  const problemsOf = (operation: DocumentOperation, expected: number, res: HttpResult): string[] => {
    const problems = document.check(operation.id, res.status, res.headers.get('content-type') ?? '', res.text);
    if (res.status !== expected) problems.unshift(`expected ${expected}, answered ${res.status}`);
    return problems;
  };

  const report = (operation: DocumentOperation, what: string, res: HttpResult, problems: string[]) =>
    `${operation.id} (${operation.method} ${operation.path}${what ? `, ${what}` : ''}) answered ${res.status}:\n  ` +
    `${problems.join('\n  ')}\n  body: ${res.text.slice(0, 600)}`;

  before(async () => {
    gw = await startGatewayFixture({ enableHashedKeysListing: true });
    pki = createTestPki();
    const issued = pki.issue('conformance.example.test');
    const tenant = await createTenant(gw.node.dashboardUrl, gw.node.adminHeaders, 'Conformance');
    ctx = {
      upstreamUrl: gw.upstream.url,
      orgId: tenant.orgId,
      pem: `${issued.cert}\n${issued.key}`,
      example: (operationId, variant = 0) => exampleOf(operationId, variant),
      gateway: async (path, init) =>
        (await http(`${gw.node.gatewayUrl}${path}`, { ...init, headers: { ...gw.node.gwHeaders, ...init.headers } }))
          .json,
      ids: {},
    };
  });
  after(async () => {
    await gw?.stop();
    pki?.cleanup();
  });

  it('walks every operation of the document but the MCP ones', () => {
    const walked = new Set([...WALK, ...DELETIONS].map((step) => step.operation));
    const documented = [...document.operations.values()].filter((operation) => !isMcp(operation));
    assert.deepEqual(
      documented.filter((operation) => !walked.has(operation.id)).map((operation) => operation.id),
      [],
      'operations the walk leaves out',
    );
    assert.deepEqual(
      [...walked, ...[...ERRORS, ...Object.keys(DELIBERATE_DIFFERENCES)].map(operationOf)].filter(
        (id) => !document.operations.has(id),
      ),
      [],
      'operations the document does not have',
    );
    const titles = new Set([...WALK, ...ERRORS, ...withoutSecret(), ...DELETIONS].map(titleOf));
    assert.deepEqual(
      Object.keys(DELIBERATE_DIFFERENCES).filter((title) => !titles.has(title)),
      [],
      'deliberate differences no request of the walk makes',
    );
  });

  describe('each answer is one the document lists, with a body its schema takes', () => {
    for (const step of WALK) walkStep(step);
  });

  describe("the document's error answers", () => {
    for (const step of [...withoutSecret(), ...ERRORS]) walkStep(step);
  });

  describe('deleting what the walk made', () => {
    for (const step of DELETIONS) walkStep(step);
  });

  function walkStep(step: WalkStep): void {
    const operation = document.operations.get(step.operation);
    const title = titleOf(step);
    const difference = DELIBERATE_DIFFERENCES[title];
    it(difference ? `${title}: differs on purpose, ${difference}` : title, async () => {
      assert.ok(operation, `the document has no operation ${step.operation}`);
      await step.prepare?.(ctx);
      const res = await send(
        { ...operation, method: step.method ?? operation.method },
        step.request(ctx),
        !step.withoutSecret,
      );
      const problems = problemsOf(operation, step.expect ?? 200, res);
      if (problems.length === 0 && step.answers) problems.push(...step.answers(ctx, res.json));
      if (res.status < 300) step.remember?.(ctx, res.json);
      if (difference) {
        assert.notDeepEqual(problems, [], `${title} conforms now: remove it from DELIBERATE_DIFFERENCES and the docs`);
        return;
      }
      if (problems.length > 0) assert.fail(report(operation, step.what ?? '', res, problems));
    });
  }
});

/** Every operation that takes the secret, sent without it: 403. */
function withoutSecret(): WalkStep[] {
  return [...document.operations.values()]
    .filter((operation) => !isMcp(operation) && !UNGUARDED.has(operation.id) && '403' in operation.responses)
    .map((operation) => ({
      operation: operation.id,
      what: 'without the secret',
      withoutSecret: true,
      expect: 403,
      request: () => ({}),
    }));
}

function titleOf(step: WalkStep): string {
  return `${step.operation}${step.what ? ` (${step.what})` : ''}`;
}

function operationOf(titleOrStep: string | WalkStep): string {
  return typeof titleOrStep === 'string' ? titleOrStep.split(' ')[0] : titleOrStep.operation;
}

function exampleOf(operationId: string, variant: number): Record<string, any> {
  const operation = document.operations.get(operationId);
  const examples = operation?.requestExamples ?? [];
  assert.ok(examples[variant], `the document has no request example ${variant} for ${operationId}`);
  return structuredClone(examples[variant]) as Record<string, any>;
}
