import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashSecret as hash } from '../../../lib/secret-hash';
import { UsersErrors } from '../errors';

/** A single sign-on token lives 60 seconds, as in the reference dashboard. */
export const SSO_NONCE_TTL_MS = 60_000;

export interface SsoGrant {
  org_id: string;
  email_address: string;
  group_id: string;
  /** a person who is not a user yet becomes an administrator (an administrator asked, naming no group) */
  makes_admin: boolean;
}

/** Single sign-on nonces: each logs one person in once, within 60 seconds. Only a hash is stored. */
export class SsoNonces {
  constructor(
    private readonly db: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(grant: SsoGrant): Promise<string> {
    const nonce = randomBytes(24).toString('hex');
    await this.db('sso_nonces').where('expires_at', '<=', this.now()).delete();
    await this.db('sso_nonces').insert({
      nonce_hash: hash(nonce),
      ...grant,
      expires_at: this.now() + SSO_NONCE_TTL_MS,
    });
    return nonce;
  }

  /** Uses the nonce up, whatever happens next. */
  async consume(nonce: string): Promise<SsoGrant> {
    const row = await this.db('sso_nonces').where('nonce_hash', hash(nonce)).first();
    if (!row) throw UsersErrors.badNonce();
    await this.db('sso_nonces').where('nonce_hash', hash(nonce)).delete();
    if (Number(row.expires_at) <= this.now()) throw UsersErrors.badNonce();
    const { org_id, email_address, group_id } = row;
    return { org_id, email_address, group_id, makes_admin: Boolean(row.makes_admin) };
  }
}
