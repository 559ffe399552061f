import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { OAuthApiSettings } from '../../../contracts/oauth/actions';
import type { Call } from '../../../lib/bus/call';
import { DONE, type Step } from './compose';
import { sendJson } from './gateway-errors';
import type { RequestContext } from './request-context';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const ENDPOINTS = new Set(['/oauth/authorize', '/oauth/token', '/oauth/revoke', '/oauth/revoke_all']);

/**
 * The authorisation server endpoints under an OAuth API's listen path (`use_oauth2`), served
 * before the API's chain: `/oauth/authorize` (checks the client, then sends the user to
 * `oauth_meta.auth_login_redirect`), `/oauth/token` (RFC 6749), `/oauth/revoke` (RFC 7009) and
 * `/oauth/revoke_all`. Bodies are form-encoded; clients authenticate with HTTP Basic or
 * `client_id` + `client_secret` fields. The `oauth` service decides; errors are RFC 6749 §5.2.
 */
export function oauthEndpointsStep(definition: ApiDefinition, call: Call, logger: LoggerInstance): Step | undefined {
  if (definition.use_oauth2 !== true) return undefined;
  const api: OAuthApiSettings = {
    api_id: definition.api_id,
    org_id: definition.org_id ?? '',
    name: definition.name,
    oauth_meta: objectOf(definition.oauth_meta),
    notifications: objectOf(definition.notifications),
  };
  const realm = `Basic realm="${definition.name.replace(/["\\]/g, '')}"`;
  return async (ctx) => {
    const path = ctx.relativePath.replace(/\/+$/, '');
    if (!ENDPOINTS.has(path)) return;
    try {
      if (path === '/oauth/authorize') return await authorize(ctx, api, call);
      if (ctx.req.method !== 'POST')
        return oauthError(ctx, 405, 'invalid_request', `${path} takes POST`, { allow: 'POST' });
      const form = await readForm(ctx);
      const client = clientCredentials(ctx, form);
      if (path === '/oauth/token') {
        const issued = await call('oauth.token', {
          api,
          grant_type: form.get('grant_type') ?? '',
          client_id: client.id,
          client_secret: client.secret,
          code: form.get('code') ?? undefined,
          redirect_uri: form.get('redirect_uri') ?? undefined,
          refresh_token: form.get('refresh_token') ?? undefined,
          username: form.get('username') ?? undefined,
          password: form.get('password') ?? undefined,
          code_verifier: form.get('code_verifier') ?? undefined,
        });
        sendJson(ctx.res, 200, issued, NO_STORE);
        return DONE;
      }
      if (client.id === '')
        return oauthError(ctx, 401, 'invalid_client', 'Client authentication is required', {
          'www-authenticate': realm,
        });
      if (path === '/oauth/revoke') {
        const token = form.get('token');
        if (!token) return oauthError(ctx, 400, 'invalid_request', 'token is required');
        await call('oauth.revoke', {
          client_id: client.id,
          client_secret: client.secret,
          token,
          token_type_hint: form.get('token_type_hint') ?? undefined,
          org_scope: api.org_id,
        });
      } else {
        await call('oauth.revokeAll', { client_id: client.id, client_secret: client.secret, org_scope: api.org_id });
      }
      sendJson(ctx.res, 200, {}, NO_STORE);
      return DONE;
    } catch (err) {
      return fromServiceError(ctx, err, realm, logger);
    }
  };
}

async function authorize(ctx: RequestContext, api: OAuthApiSettings, call: Call): Promise<typeof DONE> {
  const method = ctx.req.method;
  if (method !== 'GET' && method !== 'POST')
    return oauthError(ctx, 405, 'invalid_request', '/oauth/authorize takes GET or POST', { allow: 'GET, POST' });
  const params = method === 'GET' ? new URLSearchParams(ctx.search) : await readForm(ctx);
  await call('oauth.checkAuthorize', {
    api,
    client_id: params.get('client_id') ?? '',
    redirect_uri: params.get('redirect_uri') ?? undefined,
    response_type: params.get('response_type') ?? '',
    code_challenge: params.get('code_challenge') ?? undefined,
    code_challenge_method: params.get('code_challenge_method') ?? undefined,
  });
  const login = api.oauth_meta?.auth_login_redirect;
  if (typeof login !== 'string' || login === '')
    return oauthError(ctx, 500, 'server_error', 'The API has no oauth_meta.auth_login_redirect');
  // As the reference gateway: 307 to the login app; a GET keeps its query, a POST its body.
  const location = method === 'GET' ? `${login}${login.includes('?') ? '&' : '?'}${params}` : login;
  ctx.res.writeHead(307, { location, 'cache-control': 'no-store', 'content-length': 0, 'x-generator': 'gw' });
  ctx.res.end();
  ctx.answered = true;
  return DONE;
}

/** A form-encoded body (application/x-www-form-urlencoded), whatever the client declared. */
async function readForm(ctx: RequestContext): Promise<URLSearchParams> {
  return new URLSearchParams((await ctx.readBody()).toString('utf8'));
}

/** RFC 6749 §2.3.1: HTTP Basic (form-encoded id and secret) or the `client_id` / `client_secret` fields. */
function clientCredentials(ctx: RequestContext, form: URLSearchParams): { id: string; secret: string } {
  const header = ctx.req.headers.authorization;
  if (typeof header === 'string' && /^Basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^Basic\s+/i, '').trim(), 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator > 0)
      return { id: formDecode(decoded.slice(0, separator)), secret: formDecode(decoded.slice(separator + 1)) };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

function fromServiceError(ctx: RequestContext, err: unknown, realm: string, logger: LoggerInstance): typeof DONE {
  const failure = err as {
    type?: string;
    code?: number;
    message?: string;
    data?: { error?: string; error_description?: string };
  };
  if (failure.type === 'GW_ERR_OAUTH_PROTOCOL' && failure.data?.error) {
    const status = failure.code === 401 ? 401 : 400;
    return oauthError(
      ctx,
      status,
      failure.data.error,
      failure.data.error_description ?? '',
      status === 401 ? { 'www-authenticate': realm } : {},
    );
  }
  if (failure.type === 'GW_ERR_OAUTH_NOT_FOUND' || failure.type === 'GW_ERR_OAUTH_BAD_SECRET') {
    return oauthError(ctx, 401, 'invalid_client', 'Client authentication failed', { 'www-authenticate': realm });
  }
  if (failure.type === 'VALIDATION_ERROR')
    return oauthError(ctx, 400, 'invalid_request', 'A parameter is missing or malformed');
  logger.error(`OAuth endpoint ${ctx.relativePath} failed: ${failure.message ?? String(err)}`);
  return oauthError(
    ctx,
    503,
    'temporarily_unavailable',
    'The authorisation server is not reachable, please try again later',
  );
}

function oauthError(
  ctx: RequestContext,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): typeof DONE {
  sendJson(ctx.res, status, { error, error_description: description }, { ...NO_STORE, ...headers });
  ctx.answered = true;
  return DONE;
}

function objectOf<T>(value: unknown): T | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as T) : undefined;
}
