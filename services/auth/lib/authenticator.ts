import { hash } from 'node:crypto';
import type { AuthCheckResult } from '../../../contracts/auth/actions';
import type { KeysLookupResult } from '../../../contracts/keys/actions';
import { verifyPassword } from '../../../lib/password';
import { BoundedCache } from '../../../lib/cache/bounded-cache';

type Lookup = (keyHash: string) => Promise<KeysLookupResult | null>;

export interface AuthenticatorLimits {
  /** sessions of known keys (and verified basic-auth passwords) kept at most */
  maxSessions: number;
  /** unknown keys remembered at most: kept apart, so a flood of bad keys cannot evict good ones */
  maxUnknown: number;
}

const DEFAULT_LIMITS: AuthenticatorLimits = { maxSessions: 50_000, maxUnknown: 5_000 };

/** How long an answer from the key store is reused without an event saying it changed. */
const FOUND_TTL_MS = 60_000;
/** Unknown keys are remembered briefly, so a flood of bad keys does not reach the store. */
const UNKNOWN_TTL_MS = 2_000;

/**
 * Checks credentials against the key store with a cache in front: sessions by key hash (dropped
 * when `keys.changed` or `policies.changed` says so), and verified basic-auth passwords, so the
 * slow password hash runs once per username and password per `cache_ttl`, not per request.
 * Concurrent lookups of one key share one call to the store. Every cache is bounded (LRU with a
 * time to live), and a lookup that was in flight when any key or policy changed is not cached:
 * it may have read the store before the change.
 */
export class Authenticator {
  private readonly sessions: BoundedCache<string, KeysLookupResult>;
  private readonly unknown: BoundedCache<string, true>;
  private readonly inFlight = new Map<string, Promise<KeysLookupResult | null>>();
  /** sha256(org, username, password) → the key hash that verification is for */
  private readonly verified: BoundedCache<string, string>;
  /** bumped on every change: a lookup that started under an older generation is not cached */
  private generation = 0;

  constructor(
    private readonly lookup: Lookup,
    private readonly verify: (password: string, hash: string) => Promise<boolean> = verifyPassword,
    now: () => number = Date.now,
    limits: AuthenticatorLimits = DEFAULT_LIMITS,
  ) {
    this.sessions = new BoundedCache(limits.maxSessions, now);
    this.unknown = new BoundedCache(limits.maxUnknown, now);
    this.verified = new BoundedCache(limits.maxSessions, now);
  }

  /** How many answers of the key store are cached (sessions and unknown keys). */
  get cachedEntries(): number {
    return this.sessions.size + this.unknown.size;
  }

  /** Synchronous when the key's answer is cached (the usual case): no promise per request then. */
  token(key: string): AuthCheckResult | Promise<AuthCheckResult> {
    const keyHash = sha256(key);
    const found = this.cachedSession(keyHash);
    if (found === undefined) return this.fetchSession(keyHash).then((fetched) => tokenResult(fetched, keyHash));
    return tokenResult(found, keyHash);
  }

  /** Dynamic mutual TLS: the key named after the client certificate, if it is bound to that certificate. */
  async certificate(orgId: string, certId: string): Promise<AuthCheckResult> {
    // The name keys gives such a key (services/keys/lib/certificate-binding.ts).
    const keyHash = sha256(`${orgId}${certId}`);
    const found = await this.session(keyHash);
    if (!found || found.session.certificate !== certId) return UNKNOWN;
    return { ok: true, key_hash: keyHash, session: found.session };
  }

  async basic(
    orgId: string,
    username: string,
    password: string,
    options: { cacheTtlSeconds: number; disableCaching: boolean },
  ): Promise<AuthCheckResult> {
    const keyHash = sha256(`${orgId}${username}`);
    const found = await this.session(keyHash);
    if (!found || found.password_hash === undefined) return UNKNOWN;
    const credential = sha256(`${orgId}\u0000${username}\u0000${password}`);
    const remembered = options.disableCaching ? undefined : this.verified.get(credential);
    if (remembered !== keyHash) {
      const generation = this.generation;
      if (!(await this.verify(password, found.password_hash))) return { ok: false, reason: 'wrong_password' };
      if (!options.disableCaching && generation === this.generation)
        this.verified.set(credential, keyHash, options.cacheTtlSeconds * 1000);
    }
    return { ok: true, key_hash: keyHash, session: found.session };
  }

  /** A key changed: its session (and any password verified for it) must be fetched again. */
  forget(keyHash: string): void {
    this.generation++;
    this.sessions.delete(keyHash);
    this.unknown.delete(keyHash);
    this.inFlight.delete(keyHash);
    this.verified.deleteWhere((_credential, forKey) => forKey === keyHash);
  }

  /** A policy changed, or changes may have been missed: any session may be affected. */
  forgetAll(): void {
    this.generation++;
    this.sessions.clear();
    this.unknown.clear();
    this.inFlight.clear();
    this.verified.clear();
  }

  private session(keyHash: string): KeysLookupResult | null | Promise<KeysLookupResult | null> {
    return this.cachedSession(keyHash) ?? this.fetchSession(keyHash);
  }

  /** The cached answer of the key store (null: an unknown key), or undefined when it must be asked. */
  private cachedSession(keyHash: string): KeysLookupResult | null | undefined {
    const cached = this.sessions.get(keyHash);
    if (cached) return cached;
    if (this.unknown.get(keyHash)) return null;
    return undefined;
  }

  private async fetchSession(keyHash: string): Promise<KeysLookupResult | null> {
    const shared = this.inFlight.get(keyHash);
    if (shared) return shared;
    const generation = this.generation;
    const pending = this.lookup(keyHash).finally(() => {
      if (this.inFlight.get(keyHash) === pending) this.inFlight.delete(keyHash);
    });
    this.inFlight.set(keyHash, pending);
    const result = await pending;
    // A change arrived meanwhile: this answer may predate it, so it serves this request only.
    if (generation === this.generation) {
      if (result) this.sessions.set(keyHash, result, FOUND_TTL_MS);
      else this.unknown.set(keyHash, true, UNKNOWN_TTL_MS);
    }
    return result;
  }
}

/** Refusals are shared: they are never changed by a caller. */
const UNKNOWN: AuthCheckResult = Object.freeze({ ok: false, reason: 'unknown' });

function tokenResult(found: KeysLookupResult | null, keyHash: string): AuthCheckResult {
  // A key bound to a client certificate is named after public data: only the certificate opens it.
  if (!found || boundToCertificate(found.session)) return UNKNOWN;
  return { ok: true, key_hash: keyHash, session: found.session };
}

function boundToCertificate(session: { certificate?: unknown }): boolean {
  return typeof session.certificate === 'string' && session.certificate !== '';
}

function sha256(text: string): string {
  // one-shot: faster than createHash().update().digest(), with no Hash object per request
  return hash('sha256', text, 'hex');
}
