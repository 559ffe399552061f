import { createLocalJWKSet, type JSONWebKeySet, type JWSHeaderParameters, type FlattenedJWSInput } from 'jose';
import type { FetchJson } from './fetch-json';

type KeyOf = ReturnType<typeof createLocalJWKSet>;
type VerificationKey = Awaited<ReturnType<KeyOf>>;

export interface KeySetLimits {
  /** how long a fetched key set is used when the API sets no `cache_timeout`, ms */
  defaultTtlMs: number;
  /**
   * a key set is fetched again for an unknown `kid` at most this often, ms: rotation is picked
   * up at once, while a flood of tokens with random `kid`s reaches the provider once per interval
   */
  refetchIntervalMs: number;
  /** a failed fetch is not retried for this long, ms (a provider that is down is not hammered) */
  failureBackoffMs: number;
}

export const DEFAULT_KEY_SET_LIMITS: KeySetLimits = {
  defaultTtlMs: 10 * 60_000,
  refetchIntervalMs: 10_000,
  failureBackoffMs: 5_000,
};

interface CachedSet {
  select: KeyOf;
  fetchedAt: number;
  expiresAt: number;
}

/** No key of the set matches the token's header (an unknown `kid`, or none of the token's algorithm). */
export class NoMatchingKey extends Error {
  constructor(readonly kid: unknown) {
    super(`no key of the key set matches kid ${JSON.stringify(kid)}`);
    this.name = 'NoMatchingKey';
  }
}

/**
 * JSON Web Key Sets by URL, shared by the APIs of a gateway node: fetched once and kept for the
 * API's `cache_timeout`; fetched again when a token names a `kid` the set does not have (key
 * rotation without a restart), at most once per `refetchIntervalMs` per URL. A set that cannot
 * be refetched keeps serving until it expires. Concurrent fetches of one URL share one request.
 * `flush` drops sets (`DELETE /gw/cache/jwks`); `generation` changes with every flush, so
 * verified tokens cached elsewhere can tell they were verified with keys that are gone.
 */
export class KeySets {
  private readonly sets = new Map<string, CachedSet>();
  private readonly inFlight = new Map<string, Promise<CachedSet>>();
  private readonly failedAt = new Map<string, { at: number; error: Error }>();
  /** API id → the URLs its tokens were verified with, for a flush of one API */
  private readonly urlsByApi = new Map<string, Set<string>>();
  private flushes = 0;

  constructor(
    private readonly fetchJson: FetchJson,
    private readonly limits: KeySetLimits = DEFAULT_KEY_SET_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get generation(): number {
    return this.flushes;
  }

  /** The key of the set at `url` that verifies a token with this header. */
  async key(
    apiId: string,
    url: string,
    ttlMs: number | undefined,
    header: JWSHeaderParameters,
    token: FlattenedJWSInput,
  ): Promise<VerificationKey> {
    this.remember(apiId, url);
    let set = this.sets.get(url);
    if (!set || set.expiresAt <= this.now()) set = await this.fetch(url, ttlMs, set);
    const found = await pick(set, header, token);
    if (found) return found;
    // another request may have refetched the set while this one looked: judge by the newest
    const latest = this.sets.get(url);
    if (latest && latest !== set) {
      set = latest;
      const inLatest = await pick(set, header, token);
      if (inLatest) return inLatest;
    }
    if (this.now() - set.fetchedAt < this.limits.refetchIntervalMs) throw new NoMatchingKey(header.kid);
    const refreshed = await this.fetch(url, ttlMs, set);
    const retried = await pick(refreshed, header, token);
    if (retried) return retried;
    throw new NoMatchingKey(header.kid);
  }

  /** Drops the sets one API's tokens used (every set when `apiId` is undefined). */
  flush(apiId?: string): void {
    this.flushes++;
    if (apiId === undefined) {
      this.sets.clear();
      this.failedAt.clear();
      this.urlsByApi.clear();
      return;
    }
    for (const url of this.urlsByApi.get(apiId) ?? []) {
      this.sets.delete(url);
      this.failedAt.delete(url);
    }
    this.urlsByApi.delete(apiId);
  }

  private remember(apiId: string, url: string): void {
    let urls = this.urlsByApi.get(apiId);
    if (!urls) this.urlsByApi.set(apiId, (urls = new Set()));
    urls.add(url);
  }

  /** Fetches the set (sharing a fetch in flight); on failure, the stale set if there is one. */
  private async fetch(url: string, ttlMs: number | undefined, stale: CachedSet | undefined): Promise<CachedSet> {
    const failed = this.failedAt.get(url);
    if (failed && this.now() - failed.at < this.limits.failureBackoffMs) {
      if (stale) return stale;
      throw failed.error;
    }
    let pending = this.inFlight.get(url);
    if (!pending) {
      pending = this.load(url, ttlMs).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    try {
      return await pending;
    } catch (err) {
      this.failedAt.set(url, { at: this.now(), error: err as Error });
      if (stale) return stale;
      throw err;
    }
  }

  private async load(url: string, ttlMs: number | undefined): Promise<CachedSet> {
    const document = await this.fetchJson(url);
    if (!isKeySet(document)) throw new Error(`${url} is not a JSON Web Key Set (no "keys" array)`);
    const fetchedAt = this.now();
    const set: CachedSet = {
      select: createLocalJWKSet(document),
      fetchedAt,
      expiresAt: fetchedAt + (ttlMs ?? this.limits.defaultTtlMs),
    };
    this.sets.set(url, set);
    this.failedAt.delete(url);
    return set;
  }
}

/** The set's key for the header, or undefined when none matches (other failures are thrown). */
async function pick(set: CachedSet, header: JWSHeaderParameters, token: FlattenedJWSInput) {
  try {
    return await set.select(header, token);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_JWKS_NO_MATCHING_KEY') return undefined;
    throw err;
  }
}

function isKeySet(document: unknown): document is JSONWebKeySet {
  return typeof document === 'object' && document !== null && Array.isArray((document as { keys?: unknown }).keys);
}
