import { strict as assert } from 'node:assert';
import { keylessApi, type Tenant } from './bootstrap';
import { http, type HttpOptions, type HttpResult } from './http';

export const LOGIN_APP = 'http://login.example.test/login';
export const REDIRECT_URI = 'http://client.example.test/callback';

/** A tenant's dashboard calls. */
export function dashboardOf(dashboardUrl: string, tenant: Tenant) {
  return (path: string, options: HttpOptions = {}): Promise<HttpResult> =>
    http(`${dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...(options.headers ?? {}) } });
}

/** Creates an OAuth API through the dashboard; returns its public api_id. */
export async function createOAuthApi(
  dashboard: ReturnType<typeof dashboardOf>,
  name: string,
  listenPath: string,
  targetUrl: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await dashboard('/apis', {
    method: 'POST',
    body: keylessApi(name, listenPath, targetUrl, {
      use_keyless: false,
      use_oauth2: true,
      oauth_meta: {
        allowed_access_types: ['authorization_code', 'refresh_token', 'client_credentials', 'password'],
        allowed_authorize_types: ['code', 'token'],
        auth_login_redirect: LOGIN_APP,
      },
      ...extra,
    }),
  });
  assert.equal(res.status, 200, res.text);
  return res.json.ID as string;
}

/** A form-encoded body, as OAuth endpoints take it. */
export function form(fields: Record<string, string>): HttpOptions {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}
