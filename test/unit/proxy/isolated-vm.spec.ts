import { strict as assert } from 'node:assert';
import { IsolatePool } from '../../../services/proxy/pipeline/virtual/isolate-pool';
import {
  loadIsolatedVm,
  SANDBOX_UNAVAILABLE,
  SandboxUnavailableError,
} from '../../../services/proxy/pipeline/virtual/isolated-vm';

const LIMITS = {
  memoryMb: 32,
  timeoutMs: 1000,
  outbound: { maxCalls: 1, maxBytes: 1024, timeoutMs: 1000 },
  answer: { maxHeaders: 10, maxHeaderBytes: 1024, maxBodyBytes: 1024, maxSessionMetaChars: 1024 },
};

describe('isolated-vm (the virtual endpoints sandbox, an optional dependency)', () => {
  // A supported Node line without a working sandbox fails here first: the packages' native
  // binaries are made for particular Node ABIs (package.json's optionalDependencies).
  it('loads on this Node line and runs a function in a new isolate', async () => {
    const pool = new IsolatePool(LIMITS, () => undefined);
    try {
      const source = 'function double(n) { return GwJsResponse({ Code: 200, Body: String(n * 2) }, {}); }';
      const answer = await pool.answer({ source, functionName: 'double' }, [21], false);
      assert.equal(answer.body, '42', `isolated-vm on Node ${process.versions.node}`);
    } finally {
      pool.dispose();
    }
  });

  it('says which packages were tried and why, with a code, when none loads', () => {
    assert.throws(
      () => loadIsolatedVm(['gw-no-such-sandbox', 'gw-no-such-sandbox-either']),
      (err: unknown) => {
        assert.ok(err instanceof SandboxUnavailableError);
        assert.equal(err.code, SANDBOX_UNAVAILABLE);
        assert.match(err.message, /gw-no-such-sandbox: not installed; gw-no-such-sandbox-either: not installed/);
        return true;
      },
    );
  });
});
