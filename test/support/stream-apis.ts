/** An OAS streams API document: `x-gw-api-gateway` (keyless unless given security) and `x-gw-streaming`. */
export function streamsDocument(
  name: string,
  listenPath: string,
  streams: Record<string, unknown>,
  options: { token?: boolean; apiId?: string } = {},
): Record<string, unknown> {
  const gateway: Record<string, unknown> = {
    info: { name, state: { active: true }, ...(options.apiId ? { id: options.apiId } : {}) },
    server: {
      listenPath: { value: listenPath, strip: true },
      ...(options.token ? { authentication: { enabled: true, securitySchemes: { token: { enabled: true } } } } : {}),
    },
    upstream: { url: 'http://127.0.0.1:9' },
  };
  return {
    openapi: '3.0.3',
    info: { title: name, version: '1.0.0' },
    paths: {},
    ...(options.token
      ? {
          components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
          security: [{ token: [] }],
        }
      : {}),
    'x-gw-api-gateway': gateway,
    'x-gw-streaming': { streams },
  };
}

export const STREAMS_TYPE = { 'content-type': 'application/vnd.gw.streams.oas' };
