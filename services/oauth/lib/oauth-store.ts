import type { Knex } from 'knex';
import type { Session } from '../../../contracts/keys/session';
import type { PageWindow } from '../../../lib/pagination';
import { parseJson } from '../../../lib/store/migrate';
import type { PkceChallenge } from './pkce';

export interface StoredClient {
  client_id: string;
  api_id: string;
  org_id: string;
  secret_hash: string;
  redirect_uri: string;
  policy_id: string;
  description: string;
  meta_data: Record<string, unknown>;
  created_at: number;
}

/** An authorisation code or refresh token: what the token issued for it is made of. */
export interface StoredGrant {
  client_id: string;
  api_id: string;
  redirect_uri?: string;
  access_key_hash?: string;
  /** `key_rules` given when the grant was made, or null: the client's policy */
  session: Session | null;
  expires: number;
  /** the authorisation code (its hash) the tokens descend from, if any */
  grant_id?: string;
}

/** An authorisation code: a grant, with the PKCE challenge it was issued for. */
export interface StoredCode extends StoredGrant {
  pkce?: PkceChallenge;
}

export interface StoredToken {
  key_hash: string;
  token: string | null;
  client_id: string;
  api_id: string;
  org_id: string;
  expires: number;
  created_at: number;
  grant_id?: string | null;
}

/** The oauth service's tables. Queries only; the rules live in client-registry.ts and grants.ts. */
export class OAuthStore {
  constructor(private readonly db: Knex) {}

  async findClient(clientId: string): Promise<StoredClient | undefined> {
    const row = await this.db('oauth_clients').where('client_id', clientId).first();
    return row ? { ...row, meta_data: parseJson(row.meta_data, {}), created_at: Number(row.created_at) } : undefined;
  }

  async insertClient(client: StoredClient): Promise<void> {
    await this.db('oauth_clients').insert({ ...client, meta_data: JSON.stringify(client.meta_data) });
  }

  /** Replaces what of a client may change: redirect URI, policy, description, metadata and secret hash. */
  async updateClient(client: StoredClient): Promise<void> {
    await this.db('oauth_clients')
      .where('client_id', client.client_id)
      .update({
        secret_hash: client.secret_hash,
        redirect_uri: client.redirect_uri,
        policy_id: client.policy_id,
        description: client.description,
        meta_data: JSON.stringify(client.meta_data),
      });
  }

  async deleteClient(clientId: string): Promise<void> {
    await this.db('oauth_clients').where('client_id', clientId).delete();
  }

  async listClients(apiId: string, window: PageWindow): Promise<{ clients: StoredClient[]; total: number }> {
    const base = this.db('oauth_clients').where('api_id', apiId);
    const [{ total }] = await base.clone().count({ total: '*' });
    const page = base.clone().select('*').orderBy('created_at').offset(window.offset);
    if (window.limit !== undefined) page.limit(window.limit);
    return {
      clients: (await page).map((row) => ({
        ...row,
        meta_data: parseJson(row.meta_data, {}),
        created_at: Number(row.created_at),
      })),
      total: Number(total),
    };
  }

  async insertCode(codeHash: string, code: StoredCode): Promise<void> {
    await this.db('oauth_codes').insert({
      code_hash: codeHash,
      client_id: code.client_id,
      api_id: code.api_id,
      redirect_uri: code.redirect_uri ?? '',
      session: code.session ? JSON.stringify(code.session) : null,
      expires: code.expires,
      code_challenge: code.pkce?.code_challenge ?? null,
      code_challenge_method: code.pkce?.code_challenge_method ?? null,
    });
  }

  /**
   * Counts a presentation of a code at the token endpoint. `first` is true for exactly one caller,
   * whatever runs at the same time: the conditional update is the claim.
   */
  async presentCode(codeHash: string): Promise<{ code: StoredCode; first: boolean } | undefined> {
    const row = await this.db('oauth_codes').where('code_hash', codeHash).first();
    if (!row) return undefined;
    const claimed = await this.db('oauth_codes').where({ code_hash: codeHash, uses: 0 }).update({ uses: 1 });
    if (claimed === 1) return { code: codeOf(row), first: true };
    const counted = await this.db('oauth_codes').where('code_hash', codeHash).increment('uses', 1);
    return counted === 1 ? { code: codeOf(row), first: false } : undefined;
  }

  /** Whether a code was presented more than once (its tokens are to be revoked). */
  async codeReplayed(codeHash: string): Promise<boolean> {
    const row = await this.db('oauth_codes').where('code_hash', codeHash).first('uses');
    return row !== undefined && Number(row.uses) > 1;
  }

  /** Forgets codes that expired before `before` (epoch seconds), used or not. */
  async deleteCodesExpiredBefore(before: number): Promise<void> {
    await this.db('oauth_codes').where('expires', '<', before).delete();
  }

  /** The access tokens (key hashes) descending from a code. */
  async tokensOfGrant(grantId: string): Promise<string[]> {
    const rows = await this.db('oauth_tokens').where('grant_id', grantId).select('key_hash');
    return rows.map((row) => String(row.key_hash));
  }

  async deleteRefreshOfGrant(grantId: string): Promise<void> {
    await this.db('oauth_refresh_tokens').where('grant_id', grantId).delete();
  }

  async insertRefresh(tokenHash: string, grant: StoredGrant): Promise<void> {
    await this.db('oauth_refresh_tokens').insert({
      token_hash: tokenHash,
      client_id: grant.client_id,
      api_id: grant.api_id,
      access_key_hash: grant.access_key_hash ?? '',
      session: grant.session ? JSON.stringify(grant.session) : null,
      expires: grant.expires,
      grant_id: grant.grant_id ?? null,
    });
  }

  async findRefresh(tokenHash: string): Promise<StoredGrant | undefined> {
    const row = await this.db('oauth_refresh_tokens').where('token_hash', tokenHash).first();
    return row ? grantOf(row) : undefined;
  }

  takeRefresh(tokenHash: string): Promise<StoredGrant | undefined> {
    return this.take('oauth_refresh_tokens', 'token_hash', tokenHash);
  }

  async deleteRefreshOfClient(clientId: string): Promise<number> {
    return this.db('oauth_refresh_tokens').where('client_id', clientId).delete();
  }

  async insertToken(token: StoredToken): Promise<void> {
    await this.db('oauth_tokens').insert({ ...token, grant_id: token.grant_id ?? null });
  }

  async findToken(keyHash: string): Promise<StoredToken | undefined> {
    const row = await this.db('oauth_tokens').where('key_hash', keyHash).first();
    return row ? tokenOf(row) : undefined;
  }

  async deleteToken(keyHash: string): Promise<void> {
    await this.db('oauth_tokens').where('key_hash', keyHash).delete();
  }

  /** A client's access tokens, newest first. */
  async tokensOfClient(clientId: string): Promise<StoredToken[]> {
    return (await this.db('oauth_tokens').where('client_id', clientId).orderBy('created_at', 'desc')).map(tokenOf);
  }

  /** One page of a client's access tokens, newest first, and how many it has. */
  async tokensOfClientPage(clientId: string, window: PageWindow): Promise<{ tokens: StoredToken[]; total: number }> {
    const base = this.db('oauth_tokens').where('client_id', clientId);
    const [{ total }] = await base.clone().count({ total: '*' });
    const page = base.clone().select('*').orderBy('created_at', 'desc').offset(window.offset);
    if (window.limit !== undefined) page.limit(window.limit);
    return { tokens: (await page).map(tokenOf), total: Number(total) };
  }

  /** Deletes a refresh token only when it was issued on this API; true when one was deleted. */
  async deleteRefreshOfApi(tokenHash: string, apiId: string): Promise<boolean> {
    return (await this.db('oauth_refresh_tokens').where({ token_hash: tokenHash, api_id: apiId }).delete()) > 0;
  }

  /** Up to `limit` access tokens (key hashes), of any client, that expired before `before`. */
  async lapsedTokens(before: number, limit: number): Promise<string[]> {
    const rows = await this.db('oauth_tokens').where('expires', '<', before).select('key_hash').limit(limit);
    return rows.map((row) => String(row.key_hash));
  }

  /** Forgets refresh tokens, of any client, that expired before `before`; how many. */
  async deleteLapsedRefresh(before: number): Promise<number> {
    return this.db('oauth_refresh_tokens').where('expires', '<', before).delete();
  }

  /** Forgets tokens that expired before `before` (oauth_token_expired_retain_period). */
  async deleteTokensExpiredBefore(clientId: string, before: number): Promise<void> {
    await this.db('oauth_tokens').where('client_id', clientId).where('expires', '<', before).delete();
  }

  /** A deleted organisation's clients and everything issued to them (its keys go with the keys service). */
  async removeOrganisation(orgId: string): Promise<void> {
    const clientIds = (await this.db('oauth_clients').where('org_id', orgId).select('client_id')).map(
      (row) => row.client_id as string,
    );
    for (const table of ['oauth_codes', 'oauth_refresh_tokens', 'oauth_tokens'])
      if (clientIds.length > 0) await this.db(table).whereIn('client_id', clientIds).delete();
    await this.db('oauth_clients').where('org_id', orgId).delete();
  }

  private async take(table: string, column: string, value: string): Promise<StoredGrant | undefined> {
    const row = await this.db(table).where(column, value).first();
    if (!row) return undefined;
    const deleted = await this.db(table).where(column, value).delete();
    return deleted === 1 ? grantOf(row) : undefined;
  }
}

function grantOf(row: Record<string, unknown>): StoredGrant {
  return {
    client_id: String(row.client_id),
    api_id: String(row.api_id),
    redirect_uri: row.redirect_uri === undefined ? undefined : String(row.redirect_uri),
    access_key_hash: row.access_key_hash === undefined ? undefined : String(row.access_key_hash),
    session: parseJson<Session | null>(row.session as string | null, null),
    expires: Number(row.expires),
    grant_id: typeof row.grant_id === 'string' ? row.grant_id : undefined,
  };
}

function codeOf(row: Record<string, unknown>): StoredCode {
  const method = row.code_challenge_method;
  const challenge = row.code_challenge;
  if (typeof challenge !== 'string' || (method !== 'S256' && method !== 'plain')) return grantOf(row);
  return { ...grantOf(row), pkce: { code_challenge: challenge, code_challenge_method: method } };
}

function tokenOf(row: Record<string, unknown>): StoredToken {
  return { ...(row as unknown as StoredToken), expires: Number(row.expires), created_at: Number(row.created_at) };
}
