import { hash } from 'node:crypto';
import type { AuthCheckParams } from '../../../../../contracts/auth/actions';
import { BoundedCache } from '../../../../../lib/cache/bounded-cache';

export type PoliciesCheck = Extract<AuthCheckParams, { kind: 'policies' }>;

/** What a verified token established: the session to ask for, and its claims for context variables. */
export interface VerifiedToken {
  check: PoliciesCheck;
  claims: Record<string, unknown>;
  /** the key sets' generation it was verified under: a flush makes it stale */
  generation: number;
}

/** Tokens remembered at most per API (a flood of distinct valid tokens evicts the oldest). */
const MAX_TOKENS = 20_000;
/** A verification is reused this long at most, and never past the token's own expiry. */
const MAX_TTL_MS = 60_000;

/**
 * Tokens of one API that passed every check, by SHA-256 of the token, so a client sending the
 * same token again costs a hash and a lookup rather than a signature verification. An entry
 * ends when the token expires (with the API's skew), after a minute (policies from a client key
 * are looked up again), or when the key sets are flushed.
 */
export class VerifiedTokens<T extends { generation: number } = VerifiedToken> {
  private readonly tokens: BoundedCache<string, T>;

  constructor(private readonly now: () => number = Date.now) {
    this.tokens = new BoundedCache(MAX_TOKENS, now);
  }

  get(token: string, generation: number): T | undefined {
    const found = this.tokens.get(digest(token));
    return found && found.generation === generation ? found : undefined;
  }

  /** `expiresAt`: the token's `exp` plus the API's skew, in seconds; undefined when it has none. */
  remember(token: string, verified: T, expiresAt: number | undefined): void {
    const ttl = expiresAt === undefined ? MAX_TTL_MS : Math.min(MAX_TTL_MS, expiresAt * 1000 - this.now());
    if (ttl > 0) this.tokens.set(digest(token), verified, ttl);
  }
}

function digest(token: string): string {
  return hash('sha256', token, 'base64');
}
