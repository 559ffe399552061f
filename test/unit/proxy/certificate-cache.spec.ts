import { strict as assert } from 'node:assert';
import type { CertificateMaterial } from '../../../contracts/certs/actions';
import { CertificateCache } from '../../../services/proxy/lib/certificate-cache';

const material = (id: string, orgId: string): CertificateMaterial => ({
  id,
  org_id: orgId,
  fingerprint: id,
  cert_pem: `pem of ${id}`,
  not_after: Infinity,
});

describe('proxy: the certificate cache of a gateway node', () => {
  /** a store of two organisations' certificates that counts the ids it is asked for */
  const store = [material('a1', 'a'), material('b1', 'b')];
  let asked: string[];
  let clock: number;
  const cache = (options = {}) =>
    new CertificateCache(
      async (ids, orgId) => {
        asked.push(...ids);
        return store.filter((m) => ids.includes(m.id) && (orgId === undefined || m.org_id === orgId));
      },
      { now: () => clock, ...options },
    );
  beforeEach(() => {
    asked = [];
    clock = 0;
  });

  it('asks the store once per certificate, until certs.changed names it', async () => {
    const certs = cache();
    assert.equal((await certs.get(['a1'], 'a')).get('a1')?.cert_pem, 'pem of a1');
    await certs.get(['a1'], 'a');
    assert.deepEqual(asked, ['a1']);
    certs.forget('a1');
    await certs.get(['a1'], 'a');
    assert.deepEqual(asked, ['a1', 'a1']);
  });

  it("never gives an organisation another one's certificate, even once cached for it", async () => {
    const certs = cache();
    assert.equal((await certs.get(['b1'], 'b')).size, 1);
    assert.equal((await certs.get(['b1'], 'a')).size, 0);
  });

  it('believes "not in the store" for a while only', async () => {
    const certs = cache({ absentTtlMs: 1000 });
    await certs.get(['missing'], 'a');
    await certs.get(['missing'], 'a');
    assert.deepEqual(asked, ['missing']);
    clock = 1000;
    await certs.get(['missing'], 'a');
    assert.deepEqual(asked, ['missing', 'missing']);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const certs = cache({ maxEntries: 2 });
    for (const id of ['x', 'y', 'z', 'w']) await certs.get([id], 'a');
    assert.equal(certs.size, 2);
  });
});
