import { createHmac } from 'node:crypto';

/**
 * The HMAC row of bench:proxy. wrk sends the same request over and over, so the request is
 * signed once, up front, with node's crypto: `Date` and `Authorization: Signature …` are fixed
 * headers, and the API allows a clock skew of a day so the fixed date stays valid for the whole
 * run (the skew check still runs on every request). The gateway verifies the signature on every
 * request; the key's session comes from the auth service's cache, as for tokens.
 */
export async function createHmacApi(
  gwUrl: string,
  upstreamPort: number,
  apiId: string,
): Promise<Record<string, string>> {
  const headers = { 'x-gw-authorization': 'bench', 'content-type': 'application/json' };
  const definition = {
    api_id: apiId,
    name: apiId,
    use_keyless: false,
    enable_signature_checking: true,
    hmac_allowed_clock_skew: 86_400_000,
    proxy: { listen_path: `/${apiId}/`, target_url: `http://127.0.0.1:${upstreamPort}/api`, strip_listen_path: true },
  };
  const api = await fetch(`${gwUrl}/gw/apis`, { method: 'POST', headers, body: JSON.stringify(definition) });
  if (!api.ok) throw new Error(`creating the HMAC API failed: ${await api.text()}`);
  const key = await fetch(`${gwUrl}/gw/keys/create`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ hmac_enabled: true, access_rights: { [apiId]: { api_id: apiId } } }),
  });
  if (!key.ok) throw new Error(`creating the HMAC key failed: ${await key.text()}`);
  const { key: keyId, hmac_string: secret } = (await key.json()) as { key: string; hmac_string: string };
  const date = new Date().toUTCString();
  const signed = `(request-target): get /${apiId}/hello\ndate: ${date}`;
  const signature = createHmac('sha256', secret).update(signed).digest('base64');
  return {
    date,
    authorization: `Signature keyId="${keyId}",algorithm="hmac-sha256",headers="(request-target) date",signature="${signature}"`,
  };
}
