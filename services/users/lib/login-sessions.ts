import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashSecret as hash } from '../../../lib/secret-hash';
import { UsersErrors } from '../errors';

/** How long a dashboard login lasts. */
const SESSION_TTL_MS = 8 * 3600_000;

/** Dashboard login sessions. The token is returned once; only its hash is stored. */
export class LoginSessions {
  constructor(
    private readonly db: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async open(userId: string): Promise<{ session: string; expiresAt: number }> {
    const session = randomBytes(24).toString('hex');
    const expiresAt = this.now() + SESSION_TTL_MS;
    await this.db('user_sessions').insert({ token_hash: hash(session), user_id: userId, expires_at: expiresAt });
    return { session, expiresAt };
  }

  /** Ends a login at once (signing out); an unknown or expired token is simply gone already. */
  async close(session: string): Promise<void> {
    await this.db('user_sessions').where('token_hash', hash(session)).delete();
  }

  async userOf(session: string): Promise<string> {
    const row = await this.db<{ user_id: string; expires_at: number | string }>('user_sessions')
      .where('token_hash', hash(session))
      .first();
    if (!row || Number(row.expires_at) <= this.now()) throw UsersErrors.badSession();
    return row.user_id;
  }
}
