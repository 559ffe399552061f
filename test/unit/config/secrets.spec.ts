import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSecrets } from '../../../lib/config/secrets';

describe('config: resolveSecrets', () => {
  it('generates both secrets at first start, keeps them, and reuses them afterwards', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
    const first = resolveSecrets({ dataDir });
    assert.deepEqual(first.generated, ['secret', 'adminSecret']);
    assert.match(first.secret, /^[0-9a-f]{32}$/);
    assert.notEqual(first.secret, first.adminSecret);
    assert.equal(statSync(first.file).mode & 0o777, 0o600);

    const second = resolveSecrets({ dataDir });
    assert.deepEqual(second.generated, []);
    assert.equal(second.secret, first.secret);
    assert.equal(second.adminSecret, first.adminSecret);
  });

  it('uses configured secrets and never writes them to disk', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
    const resolved = resolveSecrets({ dataDir, secret: 'from-env', adminSecret: 'admin-from-env' });
    assert.equal(resolved.secret, 'from-env');
    assert.equal(resolved.adminSecret, 'admin-from-env');
    assert.deepEqual(resolved.generated, []);
  });

  it('generates only the secrets the node needs', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
    const gatewayOnly = resolveSecrets({ dataDir }, { secret: true, adminSecret: false });
    assert.deepEqual(gatewayOnly.generated, ['secret']);
    assert.equal(gatewayOnly.adminSecret, '');
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(gatewayOnly.file, 'utf8'))), ['secret']);
  });

  it('generates only the secret that is not configured', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
    const resolved = resolveSecrets({ dataDir, secret: 'from-env' });
    assert.deepEqual(resolved.generated, ['adminSecret']);
    const stored = JSON.parse(readFileSync(resolved.file, 'utf8'));
    assert.deepEqual(Object.keys(stored), ['adminSecret']);
  });
});
