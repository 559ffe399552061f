/**
 * The OAuth 2.0 row of bench:proxy: an API with `use_oauth2`, a client registered through the
 * gateway management API (`POST /gw/oauth/clients/create`), and an access token from the API's
 * own token endpoint (`POST {listen_path}/oauth/token`, client_credentials grant, the client
 * authenticated with HTTP Basic, RFC 6749 §4.4). wrk then sends `Authorization: Bearer <token>`.
 */
export async function createOAuthApi(
  gwUrl: string,
  upstreamPort: number,
  apiId: string,
): Promise<Record<string, string>> {
  const headers = { 'x-gw-authorization': 'bench', 'content-type': 'application/json' };
  const definition = {
    api_id: apiId,
    name: apiId,
    use_keyless: false,
    use_oauth2: true,
    oauth_meta: {
      allowed_access_types: ['client_credentials'],
      allowed_authorize_types: ['code'],
      auth_login_redirect: 'http://login.bench.test/',
    },
    proxy: { listen_path: `/${apiId}/`, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
  };
  const api = await fetch(`${gwUrl}/gw/apis`, { method: 'POST', headers, body: JSON.stringify(definition) });
  if (!api.ok) throw new Error(`creating the OAuth API failed: ${await api.text()}`);
  const client = await fetch(`${gwUrl}/gw/oauth/clients/create`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ api_id: apiId, redirect_uri: 'http://client.bench.test/callback' }),
  });
  if (!client.ok) throw new Error(`creating the OAuth client failed: ${await client.text()}`);
  const { client_id: clientId, secret } = (await client.json()) as { client_id: string; secret: string };
  const token = await fetch(`${gwUrl}/${apiId}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
  });
  if (!token.ok) throw new Error(`the token endpoint refused the client: ${await token.text()}`);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  return { authorization: `Bearer ${accessToken}` };
}
