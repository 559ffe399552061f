/**
 * The OAS row of bench:proxy: an API written as an OpenAPI 3 document with the gateway's
 * settings in `x-gw-api-gateway` (docs/apis.md#api-definitions-in-openapi-form), created through
 * `POST /gw/apis/oas`. Token auth (an apiKey security scheme in the Authorization header), and a
 * rate limit on the one operation wrk calls, far above what the machine can send, so it counts
 * every request and refuses none. The key comes from `POST /gw/keys`.
 */
export async function createOasApi(
  gwUrl: string,
  upstreamPort: number,
  apiId: string,
): Promise<Record<string, string>> {
  const headers = { 'x-gw-authorization': 'bench', 'content-type': 'application/json' };
  const document = {
    openapi: '3.0.3',
    info: { title: apiId, version: '1.0.0' },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    security: [{ token: [] }],
    paths: { '/hello': { get: { operationId: 'hello', responses: { '200': { description: 'a greeting' } } } } },
    'x-gw-api-gateway': {
      info: { name: apiId, id: apiId, state: { active: true } },
      upstream: { url: `http://127.0.0.1:${upstreamPort}/api` },
      server: {
        listenPath: { value: `/${apiId}/`, strip: true },
        authentication: { enabled: true, securitySchemes: { token: { enabled: true } } },
      },
      middleware: { operations: { hello: { rateLimit: { enabled: true, rate: 1_000_000, per: '1s' } } } },
    },
  };
  const api = await fetch(`${gwUrl}/gw/apis/oas`, { method: 'POST', headers, body: JSON.stringify(document) });
  if (!api.ok) throw new Error(`creating the OAS API failed: ${await api.text()}`);
  const key = await fetch(`${gwUrl}/gw/keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ access_rights: { [apiId]: { api_id: apiId } } }),
  });
  if (!key.ok) throw new Error(`creating the OAS API's key failed: ${await key.text()}`);
  return { authorization: ((await key.json()) as { key: string }).key };
}
