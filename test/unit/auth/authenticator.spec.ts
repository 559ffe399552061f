import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { KeysLookupResult } from '../../../contracts/keys/actions';
import { Authenticator } from '../../../services/auth/lib/authenticator';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('auth: Authenticator', () => {
  let lookups: string[];
  let verifications: number;
  let clock: number;
  let store: Map<string, KeysLookupResult>;
  let auth: Authenticator;

  beforeEach(() => {
    lookups = [];
    verifications = 0;
    clock = 0;
    store = new Map();
    store.set(sha256('good-key'), { key_hash: sha256('good-key'), session: { rate: 5 } });
    store.set(sha256('org1alice'), { key_hash: sha256('org1alice'), session: { rate: 1 }, password_hash: 'stored' });
    auth = new Authenticator(
      async (hash) => {
        lookups.push(hash);
        return store.get(hash) ?? null;
      },
      async (password, hash) => {
        verifications++;
        return hash === 'stored' && password === 'secret';
      },
      () => clock,
    );
  });

  it('answers a cached key (known or unknown) at once, without a promise: the gateway of the node checks it on every request', async () => {
    assert.ok(auth.token('good-key') instanceof Promise, 'the first lookup asks the key store');
    await auth.token('bad-key');
    assert.deepEqual(auth.token('good-key'), { ok: true, key_hash: sha256('good-key'), session: { rate: 5 } });
    assert.deepEqual(auth.token('bad-key'), { ok: false, reason: 'unknown' });
  });

  it('finds a key by its hash and serves repeats from the cache', async () => {
    assert.deepEqual(await auth.token('good-key'), { ok: true, key_hash: sha256('good-key'), session: { rate: 5 } });
    await auth.token('good-key');
    assert.equal(lookups.length, 1);
  });

  it('shares one store lookup between concurrent requests for a key', async () => {
    await Promise.all([auth.token('good-key'), auth.token('good-key'), auth.token('good-key')]);
    assert.equal(lookups.length, 1);
  });

  it('refuses unknown keys and remembers them only briefly', async () => {
    assert.deepEqual(await auth.token('bad-key'), { ok: false, reason: 'unknown' });
    await auth.token('bad-key');
    assert.equal(lookups.length, 1);
    clock += 2_001;
    await auth.token('bad-key');
    assert.equal(lookups.length, 2);
  });

  it('drops a key on forget and every session on forgetAll', async () => {
    await auth.token('good-key');
    auth.forget(sha256('good-key'));
    store.delete(sha256('good-key'));
    assert.deepEqual(await auth.token('good-key'), { ok: false, reason: 'unknown' });
    await auth.token('other');
    auth.forgetAll();
    await auth.token('other');
    assert.equal(lookups.length, 4);
  });

  it('verifies a basic-auth password once per cache_ttl, not per request', async () => {
    const options = { cacheTtlSeconds: 60, disableCaching: false };
    for (let i = 0; i < 5; i++) assert.equal((await auth.basic('org1', 'alice', 'secret', options)).ok, true);
    assert.equal(verifications, 1);
    clock += 60_001;
    await auth.basic('org1', 'alice', 'secret', options);
    assert.equal(verifications, 2);
  });

  it('verifies every time when caching is disabled, and never caches a wrong password', async () => {
    await auth.basic('org1', 'alice', 'secret', { cacheTtlSeconds: 60, disableCaching: true });
    await auth.basic('org1', 'alice', 'secret', { cacheTtlSeconds: 60, disableCaching: true });
    assert.equal(verifications, 2);
    assert.deepEqual(await auth.basic('org1', 'alice', 'wrong', { cacheTtlSeconds: 60, disableCaching: false }), {
      ok: false,
      reason: 'wrong_password',
    });
    assert.deepEqual(await auth.basic('org1', 'alice', 'wrong', { cacheTtlSeconds: 60, disableCaching: false }), {
      ok: false,
      reason: 'wrong_password',
    });
    assert.equal(verifications, 4);
  });

  it('forgets verified passwords when the user changes', async () => {
    const options = { cacheTtlSeconds: 60, disableCaching: false };
    await auth.basic('org1', 'alice', 'secret', options);
    auth.forget(sha256('org1alice'));
    await auth.basic('org1', 'alice', 'secret', options);
    assert.equal(verifications, 2);
  });

  it('refuses a basic-auth user that does not exist, and a token used as a basic user', async () => {
    assert.deepEqual(await auth.basic('org1', 'bob', 'secret', { cacheTtlSeconds: 60, disableCaching: false }), {
      ok: false,
      reason: 'unknown',
    });
    store.set(sha256('org1token'), { key_hash: sha256('org1token'), session: {} });
    assert.deepEqual(await auth.basic('org1', 'token', 'x', { cacheTtlSeconds: 60, disableCaching: false }), {
      ok: false,
      reason: 'unknown',
    });
  });

  it('does not cache a lookup that was in flight when the key was deleted', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new Authenticator(async (hash) => {
      lookups.push(hash);
      const answer = store.get(hash) ?? null;
      await gate;
      return answer;
    });
    const inFlight = slow.token('good-key');
    store.delete(sha256('good-key'));
    slow.forget(sha256('good-key'));
    release();
    assert.equal((await inFlight).ok, true, 'the request that started before the deletion is answered');
    assert.deepEqual(await slow.token('good-key'), { ok: false, reason: 'unknown' });
    assert.equal(lookups.length, 2);
  });

  it('keeps at most maxUnknown unknown keys, so a flood of random keys neither grows it nor evicts known sessions', async () => {
    const bounded = new Authenticator(
      async (hash) => {
        lookups.push(hash);
        return store.get(hash) ?? null;
      },
      undefined,
      () => clock,
      { maxSessions: 100, maxUnknown: 1000 },
    );
    await bounded.token('good-key');
    for (let i = 0; i < 100_000; i++) await bounded.token(`random-${i}`);
    assert.ok(bounded.cachedEntries <= 1001, `${bounded.cachedEntries} entries`);
    lookups = [];
    await bounded.token('good-key');
    assert.equal(lookups.length, 0, 'the known key is still cached');
  });

  it('evicts the least recently used session beyond maxSessions', async () => {
    for (let i = 0; i < 5; i++) store.set(sha256(`k${i}`), { key_hash: sha256(`k${i}`), session: {} });
    const bounded = new Authenticator(
      async (hash) => {
        lookups.push(hash);
        return store.get(hash) ?? null;
      },
      undefined,
      () => clock,
      { maxSessions: 3, maxUnknown: 3 },
    );
    for (let i = 0; i < 3; i++) await bounded.token(`k${i}`);
    await bounded.token('k0');
    await bounded.token('k3');
    lookups = [];
    await bounded.token('k0');
    await bounded.token('k1');
    assert.deepEqual(lookups, [sha256('k1')], 'k1 was the least recently used');
    assert.equal(bounded.cachedEntries, 3);
  });
});
