import type {
  OAuthApiSettings,
  OAuthClient,
  OAuthClientParams,
  OAuthCreateClientParams,
  OAuthListClientsParams,
  OAuthRevokeAllParams,
  OAuthRevokeParams,
  OAuthTokenEntry,
} from '../../../contracts/oauth/actions';
import { pageCount, pageWindow } from '../../../lib/pagination';
import { GwError } from '../../../lib/errors';
import { OAuthErrors } from '../errors';
import type { OAuthDeps } from './deps';
import type { StoredClient } from './oauth-store';
import { hashSecret, newClientId, randomToken, secretMatches } from './secrets';

/**
 * OAuth clients of an API and what was issued to them. A client belongs to its API's
 * organisation: with an `org_scope`, nothing of another organisation is found.
 */
export class ClientRegistry {
  private readonly now: () => number;

  constructor(private readonly deps: OAuthDeps) {
    this.now = deps.now ?? Date.now;
  }

  async create(params: OAuthCreateClientParams): Promise<OAuthClient> {
    const api = await this.api(params.api_id, params.org_scope);
    if (!validRedirect(params.redirect_uri)) throw OAuthErrors.invalid('redirect_uri must be an absolute http(s) URL');
    const policyId = params.policy_id ?? '';
    if (policyId !== '' && !(await this.deps.policyExists(policyId, api.org_id)))
      throw OAuthErrors.invalid(`policy_id names a policy that does not exist: ${policyId}`);
    const clientId = params.client_id ?? newClientId();
    if (await this.deps.store.findClient(clientId)) throw OAuthErrors.taken(clientId);
    const secret = params.secret ?? randomToken(24);
    const client: StoredClient = {
      client_id: clientId,
      api_id: api.api_id,
      org_id: api.org_id,
      secret_hash: hashSecret(secret),
      redirect_uri: params.redirect_uri,
      policy_id: policyId,
      description: params.description ?? '',
      meta_data: params.meta_data ?? {},
      created_at: this.now(),
    };
    await this.deps.store.insertClient(client);
    return { ...publicClient(client), secret };
  }

  async list(params: OAuthListClientsParams): Promise<{ apps: OAuthClient[]; pages: number }> {
    const api = await this.api(params.api_id, params.org_scope);
    const { pageSize } = this.deps.settings;
    const { clients, total } = await this.deps.store.listClients(api.api_id, pageWindow(params.page ?? 1, pageSize));
    return { apps: clients.map(publicClient), pages: pageCount(total, pageSize) };
  }

  async get(params: OAuthClientParams): Promise<OAuthClient> {
    return publicClient(await this.clientOfApi(params));
  }

  /** Tokens already issued stay valid until they expire (docs/authentication.md#oauth-20). */
  async remove(params: OAuthClientParams): Promise<{ client_id: string }> {
    const client = await this.clientOfApi(params);
    await this.deps.store.deleteClient(client.client_id);
    return { client_id: client.client_id };
  }

  /** The client's access tokens, newest first; expired ones stay for the retain period (0 = for ever). */
  async tokens(params: OAuthClientParams): Promise<OAuthTokenEntry[]> {
    const client = await this.clientOfApi(params);
    const retain = this.deps.settings.expiredRetainPeriod;
    if (retain > 0)
      await this.deps.store.deleteTokensExpiredBefore(client.client_id, Math.floor(this.now() / 1000) - retain);
    return (await this.deps.store.tokensOfClient(client.client_id)).map((token) => ({
      code: token.token ?? token.key_hash,
      expires: token.expires,
    }));
  }

  /** RFC 7009: an access or refresh token of this client; an unknown token is not an error. */
  async revoke(params: OAuthRevokeParams): Promise<{ revoked: boolean }> {
    const client = await this.client(params.client_id, params.org_scope, params.client_secret);
    const hash = hashSecret(params.token);
    if (params.token_type_hint !== 'refresh_token') {
      const token = await this.deps.store.findToken(hash);
      if (token && token.client_id === client.client_id) {
        await this.revokeAccess(hash);
        return { revoked: true };
      }
    }
    const refresh = await this.deps.store.findRefresh(hash);
    if (refresh && refresh.client_id === client.client_id) {
      await this.deps.store.takeRefresh(hash);
      return { revoked: true };
    }
    return { revoked: false };
  }

  async revokeAll(params: OAuthRevokeAllParams): Promise<{ revoked: number }> {
    const client = await this.client(params.client_id, params.org_scope, params.client_secret);
    const tokens = await this.deps.store.tokensOfClient(client.client_id);
    for (const token of tokens) await this.revokeAccess(token.key_hash);
    await this.deps.store.deleteRefreshOfClient(client.client_id);
    return { revoked: tokens.length };
  }

  /** Deletes the key (every gateway forgets it at once) and its listing entry. */
  async revokeAccess(keyHash: string): Promise<void> {
    await this.deps.removeKey(keyHash);
    await this.deps.store.deleteToken(keyHash);
  }

  /** A client by id, in the organisation when one is given; with a secret, the secret must match. */
  async client(clientId: string, orgScope: string | undefined, secret?: string): Promise<StoredClient> {
    const client = await this.deps.store.findClient(clientId);
    if (!client || (orgScope !== undefined && client.org_id !== orgScope)) throw OAuthErrors.clientNotFound(clientId);
    if (secret !== undefined && !secretMatches(secret, client.secret_hash)) throw OAuthErrors.badSecret();
    return client;
  }

  /** The OAuth API named by a path, in the organisation when one is given. */
  async api(apiId: string, orgScope: string | undefined): Promise<OAuthApiSettings> {
    const api = await this.deps.findApi(apiId, orgScope);
    if (!api) throw new GwError('GW_ERR_APIS_NOT_FOUND', 404, 'API not found', { id: apiId });
    return api;
  }

  /** A client of the API named by a path (public or internal id), in the organisation when one is given. */
  async clientOfApi(params: OAuthClientParams): Promise<StoredClient> {
    const api = await this.api(params.api_id, params.org_scope);
    const client = await this.deps.store.findClient(params.client_id);
    if (!client || client.api_id !== api.api_id || client.org_id !== api.org_id)
      throw OAuthErrors.clientNotFound(params.client_id);
    return client;
  }
}

/** A client as listed: the secret is shown once, at creation (it is kept hashed). */
export function publicClient(client: StoredClient): OAuthClient {
  return {
    client_id: client.client_id,
    secret: '',
    redirect_uri: client.redirect_uri,
    policy_id: client.policy_id,
    api_id: client.api_id,
    description: client.description,
    meta_data: client.meta_data,
  };
}

function validRedirect(uri: string): boolean {
  try {
    const parsed = new URL(uri);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hash === '';
  } catch {
    return false;
  }
}
