import type {
  OAuthApiSettings,
  OAuthClient,
  OAuthClientApisParams,
  OAuthClientParams,
  OAuthRemoveRefreshParams,
  OAuthTokensPageParams,
  OAuthTokensPageResult,
  OAuthUpdateClientParams,
} from '../../../contracts/oauth/actions';
import { isGwError } from '../../../lib/errors';
import { pageCount, pageWindow } from '../../../lib/pagination';
import { OAuthErrors } from '../errors';
import { publicClient, type ClientRegistry } from './client-registry';
import type { OAuthDeps } from './deps';
import { hashSecret, randomToken } from './secrets';

/** The reference gateway pages token listings by 100, whatever the node's page size. */
export const TOKEN_PAGE_SIZE = 100;
/** Lapsed tokens are purged in batches of this many (each one's key is deleted and announced). */
const PURGE_BATCH = 500;

/**
 * What the gateway management API does to existing clients besides reading them: update,
 * secret rotation, paged token listing, refresh-token invalidation and the purge of lapsed tokens.
 */
export class ClientMaintenance {
  private readonly now: () => number;

  constructor(
    private readonly deps: OAuthDeps,
    private readonly clients: ClientRegistry,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Redirect URI, policy, description and metadata change; id and secret stay. A client whose
   * policy changes loses the tokens it was issued under the old one.
   */
  async update(params: OAuthUpdateClientParams): Promise<OAuthClient> {
    const api = await this.existingApi(params.api_id, params.org_scope);
    const policyId = params.policy_id ?? '';
    if (policyId !== '') {
      const granted = await this.deps.policyApis(policyId, api.org_id);
      if (!granted) throw OAuthErrors.policyMissing(policyId);
      if (!granted.includes(api.api_id)) throw OAuthErrors.policyWithoutApi(policyId);
    }
    const client = await this.clients.clientOfApi({ ...params, api_id: api.api_id });
    const updated = {
      ...client,
      redirect_uri: params.redirect_uri,
      policy_id: policyId,
      description: params.description ?? '',
      meta_data: params.meta_data ?? {},
    };
    await this.deps.store.updateClient(updated);
    if (client.policy_id !== '' && client.policy_id !== policyId) {
      for (const token of await this.deps.store.tokensOfClient(client.client_id))
        await this.clients.revokeAccess(token.key_hash);
    }
    return publicClient(updated);
  }

  /** A new secret, shown in this answer only; the old one stops working at once. */
  async rotateSecret(params: OAuthClientParams): Promise<OAuthClient> {
    const api = await this.existingApi(params.api_id, params.org_scope);
    const client = await this.clients.clientOfApi({ ...params, api_id: api.api_id });
    const secret = randomToken(24);
    const rotated = { ...client, secret_hash: hashSecret(secret) };
    await this.deps.store.updateClient(rotated);
    return { ...publicClient(rotated), secret };
  }

  async tokensPage(params: OAuthTokensPageParams): Promise<OAuthTokensPageResult> {
    const client = await this.clients.clientOfApi(params);
    await this.forgetExpiredPastRetention(client.client_id);
    const { tokens, total } = await this.deps.store.tokensOfClientPage(
      client.client_id,
      pageWindow(params.page, TOKEN_PAGE_SIZE),
    );
    return {
      tokens: tokens.map((token) => ({ code: token.token ?? token.key_hash, expires: token.expires })),
      page_size: TOKEN_PAGE_SIZE,
      pages: pageCount(total, TOKEN_PAGE_SIZE),
    };
  }

  /** A client has one API: that API's id, when it is in the organisation asked about. */
  async clientApis(params: OAuthClientApisParams): Promise<string[]> {
    const client = await this.deps.store.findClient(params.client_id);
    if (!client) return [];
    if (params.org_id !== undefined && params.org_id !== '' && client.org_id !== params.org_id) return [];
    return [client.api_id];
  }

  /** Only a refresh token issued on this API is forgotten; another API's stays. */
  async removeRefresh(params: OAuthRemoveRefreshParams): Promise<{ removed: boolean }> {
    const api = await this.deps.findApi(params.api_id, undefined);
    if (!api) throw OAuthErrors.apiMissing(params.api_id);
    return { removed: await this.deps.store.deleteRefreshOfApi(hashSecret(params.refresh_token), api.api_id) };
  }

  /**
   * Tokens that expired more than the retain period ago (any expired one when no period is
   * set), with their keys, and refresh tokens past their expiry. Codes are kept: a replayed
   * code must still revoke what it gave (grants.ts).
   */
  async purgeLapsed(): Promise<{ purged: number }> {
    const before = this.lapsedBefore();
    let purged = 0;
    for (;;) {
      const lapsed = await this.deps.store.lapsedTokens(before, PURGE_BATCH);
      for (const keyHash of lapsed) await this.clients.revokeAccess(keyHash);
      purged += lapsed.length;
      if (lapsed.length < PURGE_BATCH) break;
    }
    return { purged: purged + (await this.deps.store.deleteLapsedRefresh(Math.ceil(this.now() / 1000))) };
  }

  /** Epoch seconds: a token with an earlier `expires` has lapsed (a fraction of a second counts). */
  private lapsedBefore(): number {
    return Math.ceil(this.now() / 1000) - Math.max(0, this.deps.settings.expiredRetainPeriod);
  }

  private async forgetExpiredPastRetention(clientId: string): Promise<void> {
    if (this.deps.settings.expiredRetainPeriod > 0)
      await this.deps.store.deleteTokensExpiredBefore(clientId, this.lapsedBefore());
  }

  /** The OAuth API, or the reference's "API doesn't exist". */
  private async existingApi(apiId: string, orgScope: string | undefined): Promise<OAuthApiSettings> {
    try {
      return await this.clients.api(apiId, orgScope);
    } catch (err) {
      if (isGwError(err, 'GW_ERR_APIS_NOT_FOUND')) throw OAuthErrors.apiMissing(apiId);
      throw err;
    }
  }
}
