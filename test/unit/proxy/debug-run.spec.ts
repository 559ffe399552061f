import { strict as assert } from 'node:assert';
import type { ServerResponse } from 'node:http';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { CompileDeps } from '../../../services/proxy/pipeline/compile-api';
import {
  DEBUG_LIMITS,
  DebugTimeout,
  requestUrl,
  runDebug,
  type DebugRequest,
} from '../../../services/proxy/lib/debug-run';

const definition = {
  id: 'd',
  api_id: 'debug-unit',
  name: 'Debug unit',
  org_id: 'o',
  active: true,
  proxy: { listen_path: '/unit/', target_url: 'http://upstream.invalid/' },
  uptime_tests: { check_list: [{ url: 'http://upstream.invalid/health' }] },
} as ApiDefinition;
const request: DebugRequest = { method: 'GET', path: '/x', headers: {}, body: '' };

/** A gateway whose detached API answers with `answer`, recording what it was compiled with and whether it was disposed. */
function fakeGateway(answer: (res: ServerResponse, deps: Partial<CompileDeps>) => void) {
  const seen = { disposed: false, definition: undefined as ApiDefinition | undefined };
  const gateway = {
    compileDetached(compiled: ApiDefinition, deps: Partial<CompileDeps>) {
      seen.definition = compiled;
      return {
        handle: (_req: unknown, res: ServerResponse) => answer(res, deps),
        dispose: () => (seen.disposed = true),
      };
    },
  };
  return { gateway, seen };
}

describe('proxy: debug runs (POST /gw/debug)', () => {
  it('ends a run that does not finish within its time limit, and disposes the chain', async () => {
    const { gateway, seen } = fakeGateway(() => {
      /* never answers */
    });
    await assert.rejects(
      runDebug(gateway, definition, request, { ...DEBUG_LIMITS, timeoutMs: 50 }),
      (err: unknown) => err instanceof DebugTimeout && err.message === 'the request did not finish within 0.05s',
    );
    assert.equal(seen.disposed, true);
  });

  it('ends a run whose answer never finishes (a streaming upstream) at the time limit too', async () => {
    const { gateway, seen } = fakeGateway((res) => {
      res.writeHead(200);
      res.write('partial');
    });
    await assert.rejects(runDebug(gateway, definition, request, { ...DEBUG_LIMITS, timeoutMs: 50 }), DebugTimeout);
    assert.equal(seen.disposed, true);
  });

  it('starts no uptime checks, and keeps at most the log lines its limit allows, saying where it was cut', async () => {
    const { gateway, seen } = fakeGateway((res, deps) => {
      for (let i = 0; i < 20; i++) deps.logger!.warn(`line ${i}`);
      res.end('done');
    });
    const outcome = await runDebug(gateway, definition, request, { ...DEBUG_LIMITS, maxLogLines: 5 });
    assert.equal(seen.definition!.uptime_tests, undefined);
    assert.ok(outcome.compiled);
    const lines = outcome.logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, 6);
    assert.deepEqual(
      lines.slice(1, 5).map((line) => [line.level, line.msg]),
      [0, 1, 2, 3].map((i) => ['warning', `line ${i}`]),
    );
    assert.equal(lines[5].msg, 'the log was cut here: too many lines');
  });

  it('refuses a stream API without compiling it: its streams would outlive the run', async () => {
    const { gateway, seen } = fakeGateway((res) => res.end());
    const outcome = await runDebug(gateway, { ...definition, streaming: { streams: {} } }, request);
    assert.equal(outcome.compiled, false);
    assert.equal(seen.definition, undefined);
    assert.match(JSON.parse(outcome.logs).msg, /a stream API can not be debugged/);
  });

  it('joins the listen path and the request path with one slash, keeping the query', () => {
    const cases: Array<[string, string, string]> = [
      ['/api/', '/get', '/api/get'],
      ['/api', 'get?x=1', '/api/get?x=1'],
      ['/', '/', '/'],
      ['/api/', '', '/api/'],
      ['api', '/a/b', '/api/a/b'],
    ];
    for (const [listenPath, path, expected] of cases) assert.equal(requestUrl(listenPath, path), expected);
  });
});
