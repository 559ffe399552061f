import type { Session } from '../../../contracts/keys/session';
import type {
  OAuthApiSettings,
  OAuthAuthorizeClientParams,
  OAuthAuthorizeClientResult,
  OAuthCheckAuthorizeParams,
  OAuthTokenParams,
  OAuthTokenResponse,
} from '../../../contracts/oauth/actions';
import { isGwError } from '../../../lib/errors';
import { OAuthErrors } from '../errors';
import type { ClientRegistry } from './client-registry';
import type { OAuthDeps } from './deps';
import type { StoredClient, StoredGrant } from './oauth-store';
import { assertVerifier, challengeOf, type PkceChallenge } from './pkce';
import { hashSecret, randomToken, secretMatches } from './secrets';

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'client_credentials', 'password']);

/**
 * The authorisation server: codes handed out by the login app (authorize-client), and the
 * token endpoint's grants. Access tokens are keys of the keys service carrying
 * `oauth_client_id`, so gateways check them like any key; refresh tokens and codes are kept
 * here, hashed.
 */
export class Grants {
  private readonly now: () => number;

  constructor(
    private readonly deps: OAuthDeps,
    private readonly clients: ClientRegistry,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /** `/oauth/authorize`: may this client start a flow with this redirect URI and response type? */
  async checkAuthorize(params: OAuthCheckAuthorizeParams): Promise<{ redirect_uri: string }> {
    const { client } = await this.authorizeRequest(params.api, params);
    return { redirect_uri: client.redirect_uri };
  }

  /** The login app approved the user: a code (or, for `token`, an access token) for the client. */
  async authorizeClient(params: OAuthAuthorizeClientParams): Promise<OAuthAuthorizeClientResult> {
    let api: OAuthApiSettings;
    if (params.api_id !== undefined && params.api_id !== '') {
      api = await this.clients.api(params.api_id, params.org_scope);
      if (api.api_id !== params.api_id) throw OAuthErrors.invalid('The path must name the API by its public api_id');
    } else {
      const client = await this.clients.client(params.client_id, params.org_scope);
      api = await this.clients.api(client.api_id, client.org_id);
    }
    if (params.redirect_uri === '') throw OAuthErrors.invalid('redirect_uri is required');
    const { client, pkce } = await this.authorizeRequest(api, params).catch((err: unknown) => {
      throw isGwError(err, 'GW_ERR_OAUTH_PROTOCOL') ? OAuthErrors.invalid((err as Error).message) : err;
    });
    const session = parseKeyRules(params.key_rules);
    if (params.response_type === 'token') {
      const issued = await this.issue(api, client, session, false);
      const fragment = new URLSearchParams({
        access_token: issued.access_token,
        token_type: 'bearer',
        expires_in: String(issued.expires_in),
      });
      return { ...issued, redirect_to: `${client.redirect_uri}#${fragment}` };
    }
    const code = randomToken();
    const now = this.nowSeconds();
    await this.deps.store.deleteCodesExpiredBefore(now - this.codeRetention());
    await this.deps.store.insertCode(hashSecret(code), {
      client_id: client.client_id,
      api_id: api.api_id,
      redirect_uri: client.redirect_uri,
      session,
      expires: now + this.deps.settings.authCodeExpire,
      pkce,
    });
    return { code, redirect_to: withQuery(client.redirect_uri, { code }) };
  }

  /** The token endpoint (RFC 6749 §4.1.3, §4.3, §4.4, §6). */
  async token(params: OAuthTokenParams): Promise<OAuthTokenResponse> {
    const { api } = params;
    if (params.grant_type === '') throw OAuthErrors.protocol(400, 'invalid_request', 'grant_type is required');
    const allowed = api.oauth_meta?.allowed_access_types ?? [];
    if (!GRANT_TYPES.has(params.grant_type) || !allowed.includes(params.grant_type)) {
      throw OAuthErrors.protocol(
        400,
        'unsupported_grant_type',
        `The grant type ${JSON.stringify(params.grant_type.slice(0, 64))} is not allowed on this API`,
      );
    }
    const client = await this.authenticateClient(api, params.client_id, params.client_secret);
    switch (params.grant_type) {
      case 'authorization_code':
        return this.exchangeCode(api, client, params);
      case 'refresh_token':
        return this.refresh(api, client, params.refresh_token);
      case 'password':
        return this.password(api, client, params.username, params.password);
      default:
        return this.issue(api, client, null, false);
    }
  }

  private async exchangeCode(
    api: OAuthApiSettings,
    client: StoredClient,
    params: OAuthTokenParams,
  ): Promise<OAuthTokenResponse> {
    if (!params.code) throw OAuthErrors.protocol(400, 'invalid_request', 'code is required');
    const codeHash = hashSecret(params.code);
    // Used up before any check: a code is presented once, whoever presents it.
    const presented = await this.deps.store.presentCode(codeHash);
    if (presented && !presented.first) {
      // RFC 6749 §4.1.2: a code used twice may have leaked; what it gave is taken back.
      await this.revokeGrant(codeHash);
      const description = 'The authorisation code was used already; the tokens issued for it are revoked';
      throw OAuthErrors.protocol(400, 'invalid_grant', description);
    }
    const grant = presented?.code;
    if (!grant || grant.api_id !== api.api_id || grant.client_id !== client.client_id)
      throw OAuthErrors.protocol(
        400,
        'invalid_grant',
        'The authorisation code is unknown, used already, or for another client',
      );
    if (grant.expires * 1000 < this.now())
      throw OAuthErrors.protocol(400, 'invalid_grant', 'The authorisation code has expired');
    if (params.redirect_uri !== undefined && params.redirect_uri !== grant.redirect_uri)
      throw OAuthErrors.protocol(400, 'invalid_grant', 'redirect_uri does not match the one the code was issued for');
    assertVerifier(api, grant.pkce, params.code_verifier);
    const issued = await this.issue(api, client, grant.session, this.allows(api, 'refresh_token'), codeHash);
    this.notify(api, {
      auth_code: params.code,
      new_oauth_token: issued.access_token,
      refresh_token: issued.refresh_token ?? '',
      old_refresh_token: '',
      notification_type: 'new',
    });
    return issued;
  }

  private async refresh(
    api: OAuthApiSettings,
    client: StoredClient,
    refreshToken: string | undefined,
  ): Promise<OAuthTokenResponse> {
    if (!refreshToken) throw OAuthErrors.protocol(400, 'invalid_request', 'refresh_token is required');
    const hash = hashSecret(refreshToken);
    const found = await this.deps.store.findRefresh(hash);
    if (!found || found.client_id !== client.client_id || found.api_id !== api.api_id)
      throw OAuthErrors.protocol(400, 'invalid_grant', 'The refresh token is unknown, revoked, or for another client');
    const grant = await this.deps.store.takeRefresh(hash);
    if (!grant)
      throw OAuthErrors.protocol(400, 'invalid_grant', 'The refresh token is unknown, revoked, or for another client');
    if (grant.expires * 1000 < this.now())
      throw OAuthErrors.protocol(400, 'invalid_grant', 'The refresh token has expired');
    // The access token it replaces stops working (the reference gateway's default).
    if (grant.access_key_hash) await this.clients.revokeAccess(grant.access_key_hash).catch(() => undefined);
    const issued = await this.issue(api, client, grant.session, true, grant.grant_id);
    this.notify(api, {
      auth_code: '',
      new_oauth_token: issued.access_token,
      refresh_token: issued.refresh_token ?? '',
      old_refresh_token: refreshToken,
      notification_type: 'refresh',
    });
    return issued;
  }

  private async password(
    api: OAuthApiSettings,
    client: StoredClient,
    username: string | undefined,
    password: string | undefined,
  ): Promise<OAuthTokenResponse> {
    if (!username || password === undefined)
      throw OAuthErrors.protocol(400, 'invalid_request', 'username and password are required');
    const user = await this.deps.basicUser(api.org_id, username);
    const ok = user?.password_hash !== undefined && (await this.deps.verifyPassword(password, user.password_hash));
    if (!ok || !user) throw OAuthErrors.protocol(400, 'invalid_grant', 'The username or password is not valid');
    if (user.session.is_inactive === true) throw OAuthErrors.protocol(400, 'invalid_grant', 'The user is inactive');
    const { basic_auth_data: _password, expires: _expires, ...session } = user.session;
    const issued = await this.issue(api, client, session, this.allows(api, 'refresh_token'));
    this.notify(api, {
      auth_code: '',
      new_oauth_token: issued.access_token,
      refresh_token: issued.refresh_token ?? '',
      old_refresh_token: '',
      notification_type: 'new',
    });
    return issued;
  }

  /**
   * Creates the access token (a key) and, when asked, a refresh token that can replace it.
   * `grantId`: the code (its hash) the tokens descend from.
   */
  private async issue(
    api: OAuthApiSettings,
    client: StoredClient,
    template: Session | null,
    withRefresh: boolean,
    grantId?: string,
  ): Promise<OAuthTokenResponse> {
    const { tokenExpire, refreshTokenExpire } = this.deps.settings;
    const now = this.nowSeconds();
    const base: Session =
      template ??
      (client.policy_id !== ''
        ? { apply_policies: [client.policy_id], access_rights: {} }
        : { access_rights: { [api.api_id]: { api_id: api.api_id, api_name: api.name, versions: [] } } });
    const session: Session = {
      ...base,
      access_rights: base.access_rights ?? {},
      org_id: api.org_id,
      oauth_client_id: client.client_id,
      expires: now + tokenExpire,
    };
    let key: { key_id: string; key_hash: string };
    try {
      key = await this.deps.createKey(session, api.org_id);
    } catch (err) {
      if (
        isGwError(err, 'GW_ERR_KEYS_INVALID') ||
        isGwError(err, 'GW_ERR_KEYS_WRONG_ORG') ||
        (err as { type?: string }).type === 'VALIDATION_ERROR'
      )
        throw OAuthErrors.protocol(
          400,
          'invalid_request',
          `The token's session is not valid: ${(err as Error).message}`,
        );
      throw err;
    }
    await this.deps.store.insertToken({
      key_hash: key.key_hash,
      token: this.deps.settings.hashKeys ? null : key.key_id,
      client_id: client.client_id,
      api_id: api.api_id,
      org_id: api.org_id,
      expires: session.expires!,
      created_at: this.now(),
      grant_id: grantId,
    });
    const response: OAuthTokenResponse = { access_token: key.key_id, token_type: 'bearer', expires_in: tokenExpire };
    if (withRefresh) {
      const refreshToken = randomToken();
      const grant: StoredGrant = {
        client_id: client.client_id,
        api_id: api.api_id,
        access_key_hash: key.key_hash,
        session: template,
        expires: now + refreshTokenExpire,
        grant_id: grantId,
      };
      await this.deps.store.insertRefresh(hashSecret(refreshToken), grant);
      response.refresh_token = refreshToken;
    }
    // The code was presented again while these were being made: the replay's revocation may
    // have run before they were stored, so they go now (the caller's answer holds dead tokens).
    if (grantId !== undefined && (await this.deps.store.codeReplayed(grantId))) {
      await this.revokeGrant(grantId);
    }
    return response;
  }

  /** Every access and refresh token descending from a code (refresh tokens first: they mint more). */
  private async revokeGrant(grantId: string): Promise<void> {
    await this.deps.store.deleteRefreshOfGrant(grantId);
    const accessTokens = await this.deps.store.tokensOfGrant(grantId);
    for (const keyHash of accessTokens) await this.clients.revokeAccess(keyHash);
  }

  /**
   * How long a code is kept after it expires: as long as tokens issued for it can live, so that
   * presenting it again still revokes them.
   */
  private codeRetention(): number {
    const { tokenExpire, refreshTokenExpire } = this.deps.settings;
    return Math.max(tokenExpire, refreshTokenExpire);
  }

  /** An authorisation request's client, redirect URI, response type and PKCE challenge, checked. */
  private async authorizeRequest(
    api: OAuthApiSettings,
    params: Omit<OAuthCheckAuthorizeParams, 'api'>,
  ): Promise<{ client: StoredClient; pkce: PkceChallenge | undefined }> {
    const { client_id: clientId, redirect_uri: redirectUri, response_type: responseType } = params;
    const client = await this.authorizeChecks(api, clientId, redirectUri, responseType);
    return { client, pkce: challengeOf(api, responseType, params.code_challenge, params.code_challenge_method) };
  }

  private async authorizeChecks(
    api: OAuthApiSettings,
    clientId: string,
    redirectUri: string | undefined,
    responseType: string,
  ): Promise<StoredClient> {
    if (clientId === '') throw OAuthErrors.protocol(400, 'invalid_request', 'client_id is required');
    if (responseType !== 'code' && responseType !== 'token')
      throw OAuthErrors.protocol(400, 'unsupported_response_type', 'response_type must be code or token');
    const allowed = api.oauth_meta?.allowed_authorize_types ?? [];
    if (!allowed.includes(responseType))
      throw OAuthErrors.protocol(
        400,
        'unsupported_response_type',
        `The response type ${responseType} is not allowed on this API`,
      );
    const client = await this.deps.store.findClient(clientId);
    if (!client || client.api_id !== api.api_id || client.org_id !== api.org_id)
      throw OAuthErrors.protocol(400, 'invalid_request', 'Unknown client_id for this API');
    if (redirectUri !== undefined && redirectUri !== client.redirect_uri)
      throw OAuthErrors.protocol(
        400,
        'invalid_request',
        'redirect_uri does not match the one registered for the client',
      );
    return client;
  }

  private async authenticateClient(api: OAuthApiSettings, clientId: string, secret: string): Promise<StoredClient> {
    if (clientId === '')
      throw OAuthErrors.protocol(
        401,
        'invalid_client',
        'Client authentication is required (HTTP Basic or client_id and client_secret)',
      );
    const client = await this.deps.store.findClient(clientId);
    if (
      !client ||
      client.api_id !== api.api_id ||
      client.org_id !== api.org_id ||
      !secretMatches(secret, client.secret_hash)
    ) {
      throw OAuthErrors.protocol(401, 'invalid_client', 'Client authentication failed');
    }
    return client;
  }

  private allows(api: OAuthApiSettings, grantType: string): boolean {
    return (api.oauth_meta?.allowed_access_types ?? []).includes(grantType);
  }

  private notify(api: OAuthApiSettings, notification: Parameters<OAuthDeps['notify']>[1]): void {
    this.deps.notify(api, notification);
  }

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }
}

/** `key_rules`: a session object as JSON text; absent or empty means the client's policy. */
function parseKeyRules(text: string | undefined): Session | null {
  if (text === undefined || text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw OAuthErrors.invalid('key_rules must be a session object in JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw OAuthErrors.invalid('key_rules must be a session object in JSON');
  return parsed as Session;
}

function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}
