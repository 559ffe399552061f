import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { FlattenedJWSInput, JWK, JWSHeaderParameters } from 'jose' with { 'resolution-mode': 'import' };
import { KeySets, NoMatchingKey, type KeySetLimits } from '../../../lib/jwt/key-sets';
import { asymmetricKey, freshClaims, signToken, type AsymmetricTestKey } from '../../support/jwt-tokens';

const LIMITS: KeySetLimits = { defaultTtlMs: 600_000, refetchIntervalMs: 10_000, failureBackoffMs: 5_000 };
const URL_A = 'https://idp-a.example/jwks';
const URL_B = 'https://idp-b.example/jwks';

/** An identity provider behind a fake fetchJson: counts fetches per URL, serves what a test sets. */
class FakeProvider {
  readonly fetches: string[] = [];
  private readonly keysByUrl = new Map<string, JWK[]>();
  failing = false;
  /** when set, fetches wait for `release()` */
  private held: Array<() => void> | undefined;

  serve(url: string, keys: AsymmetricTestKey[]): void {
    this.keysByUrl.set(
      url,
      keys.map((key) => key.publicJwk),
    );
  }

  count(url: string): number {
    return this.fetches.filter((fetched) => fetched === url).length;
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = undefined;
    for (const resume of waiting) resume();
  }

  readonly fetchJson = async (url: string): Promise<unknown> => {
    this.fetches.push(url);
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    if (this.failing) throw new Error(`${url} answered 503`);
    const keys = this.keysByUrl.get(url);
    if (!keys) throw new Error(`${url} answered 404`);
    return { keys };
  };
}

/** What KeySets.key is given for a token: its header and its flattened parts. */
async function presented(key: AsymmetricTestKey, kid = key.kid): Promise<[JWSHeaderParameters, FlattenedJWSInput]> {
  const token = await signToken(key, freshClaims(), { kid });
  const [protectedHeader, payload, signature] = token.split('.') as [string, string, string];
  return [
    { alg: key.alg, kid, typ: 'JWT' },
    { protected: protectedHeader, payload, signature },
  ];
}

const randomKid = () => randomBytes(8).toString('hex');

describe('KeySets (JSON Web Key Sets by URL)', function () {
  this.timeout(20_000);
  let first: AsymmetricTestKey;
  let second: AsymmetricTestKey;
  let provider: FakeProvider;
  let now: number;
  let keySets: KeySets;

  const keyFor = async (
    key: AsymmetricTestKey,
    options: { url?: string; api?: string; kid?: string; ttlMs?: number } = {},
  ) => keySets.key(options.api ?? 'api-1', options.url ?? URL_A, options.ttlMs, ...(await presented(key, options.kid)));
  const refusedFor = async (key: AsymmetricTestKey, options: { url?: string; api?: string; kid?: string } = {}) =>
    assert.rejects(keyFor(key, options));

  before(async () => {
    first = await asymmetricKey('RS256', 'first');
    second = await asymmetricKey('ES256', 'second');
  });
  beforeEach(() => {
    provider = new FakeProvider();
    provider.serve(URL_A, [first]);
    provider.serve(URL_B, [second]);
    now = 1_000_000;
    keySets = new KeySets(provider.fetchJson, LIMITS, () => now);
  });

  it('fetches a set once and serves its keys from the cache', async () => {
    const key = await keyFor(first);
    assert.equal((key as { type?: string }).type, 'public');
    await keyFor(first);
    now += LIMITS.defaultTtlMs - 1;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 1);
  });

  it('fetches the set again once its time to live has passed (default, or the cache_timeout given)', async () => {
    await keyFor(first);
    now += LIMITS.defaultTtlMs;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 2);

    await keyFor(second, { url: URL_B, ttlMs: 30_000 });
    now += 29_999;
    await keyFor(second, { url: URL_B, ttlMs: 30_000 });
    assert.equal(provider.count(URL_B), 1);
    now += 1;
    await keyFor(second, { url: URL_B, ttlMs: 30_000 });
    assert.equal(provider.count(URL_B), 2);
  });

  it('an unknown kid soon after a fetch is refused without fetching again', async () => {
    await keyFor(first);
    now += LIMITS.refetchIntervalMs - 1;
    await assert.rejects(keyFor(first, { kid: 'unknown' }), NoMatchingKey);
    assert.equal(provider.count(URL_A), 1);
  });

  it('an unknown kid later fetches the set again once: a rotated key is found without a restart', async () => {
    await keyFor(first);
    provider.serve(URL_A, [first, second]);
    now += LIMITS.refetchIntervalMs;
    await keyFor(second);
    assert.equal(provider.count(URL_A), 2);
    await keyFor(second);
    await keyFor(first);
    assert.equal(provider.count(URL_A), 2);
  });

  it('random kids reach the provider at most once per refetch interval, however many arrive', async () => {
    await keyFor(first);
    for (let round = 1; round <= 3; round++) {
      now += LIMITS.refetchIntervalMs;
      for (let i = 0; i < 50; i++) {
        await refusedFor(first, { kid: randomKid() });
        now += 100;
      }
      assert.equal(provider.count(URL_A), 1 + round, `round ${round}`);
    }
  });

  it('random kids arriving at once after the interval share one fetch', async () => {
    await keyFor(first);
    now += LIMITS.refetchIntervalMs;
    const flood = await Promise.all(Array.from({ length: 50 }, () => presented(first, randomKid())));
    const outcomes = await Promise.allSettled(
      flood.map(([header, token]) => keySets.key('api-1', URL_A, undefined, header, token)),
    );
    assert.ok(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof NoMatchingKey));
    assert.equal(provider.count(URL_A), 2);
  });

  it('random kids that arrive while a refetch completes do not start another', async () => {
    await keyFor(first);
    now += LIMITS.refetchIntervalMs;
    const flood = await Promise.all(Array.from({ length: 50 }, () => presented(first, randomKid())));
    const attempt = ([header, token]: [JWSHeaderParameters, FlattenedJWSInput]) =>
      keySets.key('api-1', URL_A, undefined, header, token);
    provider.hold();
    const early = flood.slice(0, 25).map(attempt);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(provider.count(URL_A), 2);
    provider.release();
    // each a few microtasks later than the one before: some start while the fetch is completing
    const late = flood.slice(25).map(async (presentedToken, index) => {
      for (let tick = 0; tick < index; tick++) await Promise.resolve();
      return attempt(presentedToken);
    });
    const outcomes = await Promise.allSettled([...early, ...late]);
    assert.ok(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof NoMatchingKey));
    assert.equal(provider.count(URL_A), 2);
  });

  it('concurrent first requests share one fetch', async () => {
    provider.hold();
    const pending = Promise.all(Array.from({ length: 10 }, () => keyFor(first)));
    await new Promise((resolve) => setImmediate(resolve));
    provider.release();
    await pending;
    assert.equal(provider.count(URL_A), 1);
  });

  it('a provider that fails is not asked again within the back-off, then is', async () => {
    provider.failing = true;
    await assert.rejects(keyFor(first), /503/);
    now += LIMITS.failureBackoffMs - 1;
    await assert.rejects(keyFor(first), /503/);
    assert.equal(provider.count(URL_A), 1);
    provider.failing = false;
    now += 1;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 2);
  });

  it('a stale set keeps serving while its provider fails, and the provider is asked once per back-off', async () => {
    await keyFor(first);
    provider.failing = true;
    now += LIMITS.defaultTtlMs;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 2);
    now += LIMITS.failureBackoffMs - 1;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 2);
    now += 1;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 3);
    provider.failing = false;
    now += LIMITS.failureBackoffMs;
    await keyFor(first);
    assert.equal(provider.count(URL_A), 4);
    await keyFor(first);
    assert.equal(provider.count(URL_A), 4);
  });

  it('refuses a document that is not a key set', async () => {
    const odd = new KeySets(
      async () => ({ issuer: 'x' }),
      LIMITS,
      () => now,
    );
    await assert.rejects(odd.key('api-1', URL_A, undefined, ...(await presented(first))), /not a JSON Web Key Set/);
  });

  it('flush of one API drops the sets its tokens used and keeps the others', async () => {
    await keyFor(first, { api: 'api-1', url: URL_A });
    await keyFor(second, { api: 'api-2', url: URL_B });
    keySets.flush('api-1');
    await keyFor(first, { api: 'api-1', url: URL_A });
    await keyFor(second, { api: 'api-2', url: URL_B });
    assert.equal(provider.count(URL_A), 2);
    assert.equal(provider.count(URL_B), 1);
  });

  it('flush of one API lifts the back-off of a failing provider', async () => {
    provider.failing = true;
    await assert.rejects(keyFor(first));
    provider.failing = false;
    keySets.flush('api-1');
    await keyFor(first);
    assert.equal(provider.count(URL_A), 2);
  });

  it('flush of every API drops every set', async () => {
    await keyFor(first, { api: 'api-1', url: URL_A });
    await keyFor(second, { api: 'api-2', url: URL_B });
    keySets.flush();
    await keyFor(first, { api: 'api-1', url: URL_A });
    await keyFor(second, { api: 'api-2', url: URL_B });
    assert.equal(provider.count(URL_A), 2);
    assert.equal(provider.count(URL_B), 2);
  });

  it('the generation changes with every flush, of one API or of all', () => {
    const start = keySets.generation;
    keySets.flush('api-1');
    const afterOne = keySets.generation;
    assert.notEqual(afterOne, start);
    keySets.flush();
    assert.notEqual(keySets.generation, afterOne);
    assert.notEqual(keySets.generation, start);
  });
});
