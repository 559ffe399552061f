import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

describe('process guards', () => {
  it('log an error thrown in a listener and an unhandled rejection, and the process goes on', async () => {
    const script = resolve(__dirname, '../../support/processes/throwing-listener.ts');
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) => {
      execFile(process.execPath, ['--import', 'tsx', script], { timeout: 15_000 }, (err, out) =>
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      );
    });
    assert.equal(code, 0, stdout);
    const lines = stdout.trim().split('\n');
    assert.match(lines[0], /^logged: uncaught exception, still serving: SyntaxError: Unexpected token/);
    assert.equal(lines[1], 'logged: unhandled promise rejection, still serving: Error: nobody awaited this');
    assert.equal(lines[2], 'still serving');
    assert.doesNotMatch(stdout, /secret-token/);
  });
});
