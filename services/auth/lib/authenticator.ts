import { createHash } from 'node:crypto';
import type { AuthCheckResult } from '../../../contracts/auth/actions';
import type { KeysLookupResult } from '../../../contracts/keys/actions';
import { verifyPassword } from '../../../lib/password';

type Lookup = (keyHash: string) => Promise<KeysLookupResult | null>;

interface CachedSession {
  result: KeysLookupResult | null;
  expiresAt: number;
}

/** How long an answer from the key store is reused without an event saying it changed. */
const FOUND_TTL_MS = 60_000;
/** Unknown keys are remembered briefly, so a flood of bad keys does not reach the store. */
const UNKNOWN_TTL_MS = 2_000;

/**
 * Checks credentials against the key store with a cache in front: sessions by key hash (dropped
 * when `keys.changed` or `policies.changed` says so), and verified basic-auth passwords, so the
 * slow password hash runs once per username and password per `cache_ttl`, not per request.
 * Concurrent lookups of one key share one call to the store.
 */
export class Authenticator {
  private readonly sessions = new Map<string, CachedSession>();
  private readonly inFlight = new Map<string, Promise<KeysLookupResult | null>>();
  /** sha256(org, username, password) → key hash and when that verification expires */
  private readonly verified = new Map<string, { keyHash: string; expiresAt: number }>();

  constructor(
    private readonly lookup: Lookup,
    private readonly verify: (password: string, hash: string) => Promise<boolean> = verifyPassword,
    private readonly now: () => number = Date.now,
  ) {}

  async token(key: string): Promise<AuthCheckResult> {
    const keyHash = sha256(key);
    const found = await this.session(keyHash);
    return found ? { ok: true, key_hash: keyHash, session: found.session } : { ok: false, reason: 'unknown' };
  }

  async basic(orgId: string, username: string, password: string, options: { cacheTtlSeconds: number; disableCaching: boolean }): Promise<AuthCheckResult> {
    const keyHash = sha256(`${orgId}${username}`);
    const found = await this.session(keyHash);
    if (!found || found.password_hash === undefined) return { ok: false, reason: 'unknown' };
    const credential = sha256(`${orgId}\u0000${username}\u0000${password}`);
    const remembered = options.disableCaching ? undefined : this.verified.get(credential);
    if (!remembered || remembered.keyHash !== keyHash || remembered.expiresAt <= this.now()) {
      if (!(await this.verify(password, found.password_hash))) return { ok: false, reason: 'wrong_password' };
      if (!options.disableCaching) this.verified.set(credential, { keyHash, expiresAt: this.now() + options.cacheTtlSeconds * 1000 });
    }
    return { ok: true, key_hash: keyHash, session: found.session };
  }

  /** A key changed: its session (and any password verified for it) must be fetched again. */
  forget(keyHash: string): void {
    this.sessions.delete(keyHash);
    for (const [credential, entry] of this.verified) if (entry.keyHash === keyHash) this.verified.delete(credential);
  }

  /** A policy changed: any session may be affected. */
  forgetAll(): void {
    this.sessions.clear();
  }

  private async session(keyHash: string): Promise<KeysLookupResult | null> {
    const cached = this.sessions.get(keyHash);
    if (cached && cached.expiresAt > this.now()) return cached.result;
    let pending = this.inFlight.get(keyHash);
    if (!pending) {
      pending = this.lookup(keyHash).finally(() => this.inFlight.delete(keyHash));
      this.inFlight.set(keyHash, pending);
      const result = await pending;
      this.sessions.set(keyHash, { result, expiresAt: this.now() + (result ? FOUND_TTL_MS : UNKNOWN_TTL_MS) });
      return result;
    }
    return pending;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
