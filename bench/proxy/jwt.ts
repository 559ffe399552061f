import { join } from 'node:path';
import { freePort } from '../support';
import { startNode } from './systems';

const jose = () => import('jose');

/**
 * The JWT row of bench:proxy: an API with `enable_jwt`, `jwt_signing_method: rsa` and a key set
 * by URL, served by a small process of its own (jwks-server.js); a policy created through
 * `POST /gw/policies` opening the API, named by the token's `pol` claim; one RS256 token signed
 * with jose up front, valid for a day. wrk sends that token on every request, so after the first
 * one the verification is remembered (services/proxy/pipeline/steps/auth/verified-tokens.ts):
 * the row measures a known token, as a client reusing its access token sends it. The policy has
 * no rate limit or quota, as the auth-token row's key has none, so the two rows differ only in
 * how the client is authenticated.
 */
export async function createJwtApi(
  gwUrl: string,
  upstreamPort: number,
  apiId: string,
): Promise<Record<string, string>> {
  const { generateKeyPair, exportJWK, SignJWT } = await jose();
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const kid = 'bench-rs256';
  const jwksPort = await freePort();
  await startNode(join(__dirname, 'jwks-server.js'), {
    PORT: String(jwksPort),
    JWKS_BODY: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] }),
  });

  const headers = { 'x-gw-authorization': 'bench', 'content-type': 'application/json' };
  const definition = {
    api_id: apiId,
    name: apiId,
    use_keyless: false,
    enable_jwt: true,
    jwt_signing_method: 'rsa',
    jwt_source: `http://127.0.0.1:${jwksPort}/.well-known/jwks.json`,
    jwt_policy_field_name: 'pol',
    proxy: { listen_path: `/${apiId}/`, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
  };
  const api = await fetch(`${gwUrl}/gw/apis`, { method: 'POST', headers, body: JSON.stringify(definition) });
  if (!api.ok) throw new Error(`creating the JWT API failed: ${await api.text()}`);
  const policy = await fetch(`${gwUrl}/gw/policies`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: `${apiId} clients`, access_rights: { [apiId]: { api_id: apiId } } }),
  });
  if (!policy.ok) throw new Error(`creating the JWT API's policy failed: ${await policy.text()}`);
  const { key: policyId } = (await policy.json()) as { key: string };

  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ sub: 'bench-client', pol: policyId })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 24 * 3600)
    .sign(privateKey);
  return { authorization: `Bearer ${token}` };
}
