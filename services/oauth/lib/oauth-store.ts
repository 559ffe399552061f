import type { Knex } from 'knex';
import type { Session } from '../../../contracts/keys/session';
import type { PageWindow } from '../../../lib/pagination';
import { parseJson } from '../../../lib/store/migrate';

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
}

export interface StoredToken {
  key_hash: string;
  token: string | null;
  client_id: string;
  api_id: string;
  org_id: string;
  expires: number;
  created_at: number;
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

  async deleteClient(clientId: string): Promise<void> {
    await this.db('oauth_clients').where('client_id', clientId).delete();
  }

  async listClients(apiId: string, window: PageWindow): Promise<{ clients: StoredClient[]; total: number }> {
    const base = this.db('oauth_clients').where('api_id', apiId);
    const [{ total }] = await base.clone().count({ total: '*' });
    const page = base.clone().select('*').orderBy('created_at').offset(window.offset);
    if (window.limit !== undefined) page.limit(window.limit);
    return { clients: (await page).map((row) => ({ ...row, meta_data: parseJson(row.meta_data, {}), created_at: Number(row.created_at) })), total: Number(total) };
  }

  async insertCode(codeHash: string, grant: StoredGrant): Promise<void> {
    await this.db('oauth_codes').insert({ code_hash: codeHash, client_id: grant.client_id, api_id: grant.api_id, redirect_uri: grant.redirect_uri ?? '', session: grant.session ? JSON.stringify(grant.session) : null, expires: grant.expires });
  }

  /** Reads and deletes a code in one go: of two concurrent exchanges only one gets it. */
  async takeCode(codeHash: string): Promise<StoredGrant | undefined> {
    return this.take('oauth_codes', 'code_hash', codeHash);
  }

  async insertRefresh(tokenHash: string, grant: StoredGrant): Promise<void> {
    await this.db('oauth_refresh_tokens').insert({ token_hash: tokenHash, client_id: grant.client_id, api_id: grant.api_id, access_key_hash: grant.access_key_hash ?? '', session: grant.session ? JSON.stringify(grant.session) : null, expires: grant.expires });
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
    await this.db('oauth_tokens').insert(token);
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

  /** Forgets tokens that expired before `before` (oauth_token_expired_retain_period). */
  async deleteTokensExpiredBefore(clientId: string, before: number): Promise<void> {
    await this.db('oauth_tokens').where('client_id', clientId).where('expires', '<', before).delete();
  }

  /** A deleted organisation's clients and everything issued to them (its keys go with the keys service). */
  async removeOrganisation(orgId: string): Promise<void> {
    const clientIds = (await this.db('oauth_clients').where('org_id', orgId).select('client_id')).map((row) => row.client_id as string);
    for (const table of ['oauth_codes', 'oauth_refresh_tokens', 'oauth_tokens']) if (clientIds.length > 0) await this.db(table).whereIn('client_id', clientIds).delete();
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
  };
}

function tokenOf(row: Record<string, unknown>): StoredToken {
  return { ...(row as unknown as StoredToken), expires: Number(row.expires), created_at: Number(row.created_at) };
}
