import {
  KEYED_API,
  KEYED_API_V2,
  KEYED_FIELDS,
  OAUTH_API,
  OAUTH_FIELDS,
  classicApi,
  need,
  type WalkContext,
  type WalkStep,
} from './walk-step';

const withoutExtension = (_ctx: WalkContext, body: any) =>
  body && typeof body === 'object' && 'x-gw-api-gateway' in body ? ['mode=public still has x-gw-api-gateway'] : [];

/** The document's OAS example, with the walk's upstream and listen path. */
function oasApi(ctx: WalkContext, operation: string, name: string, id?: string) {
  const document = ctx.example(operation);
  const extension = document['x-gw-api-gateway'];
  document.servers = [{ url: ctx.upstreamUrl }];
  document['x-gw-api-gateway'] = {
    ...extension,
    info: { ...extension.info, name, ...(id ? { id } : {}) },
    server: { listenPath: { strip: true, value: `/${name}/` } },
    upstream: { url: ctx.upstreamUrl },
  };
  return document;
}

export const apiSteps: WalkStep[] = [
  { operation: 'hello', request: () => ({}) },
  {
    operation: 'createApi',
    what: "an OAuth API (the document's example)",
    request: (ctx) => ({ body: classicApi(ctx, 'createApi', OAUTH_API, OAUTH_FIELDS) }),
  },
  {
    operation: 'createApi',
    what: 'an API taking keys, with batch requests',
    request: (ctx) => ({ body: classicApi(ctx, 'createApi', KEYED_API, KEYED_FIELDS) }),
  },
  {
    operation: 'createApi',
    what: 'a second version of it',
    request: (ctx) => ({
      query: { base_api_id: KEYED_API, base_api_version_name: 'Default', new_version_name: 'v2', set_default: 'false' },
      body: classicApi(ctx, 'createApi', KEYED_API_V2, KEYED_FIELDS),
    }),
  },
  { operation: 'getApi', request: () => ({ params: { apiID: KEYED_API } }) },
  { operation: 'listApis', request: () => ({}) },
  {
    operation: 'updateApi',
    request: (ctx) => ({ params: { apiID: OAUTH_API }, body: classicApi(ctx, 'updateApi', OAUTH_API, OAUTH_FIELDS) }),
  },
  {
    operation: 'listApiVersions',
    request: () => ({ params: { apiID: KEYED_API } }),
    answers: (_ctx, body) =>
      body?.apis?.some((version: any) => version.id === KEYED_API_V2) ? [] : [`${KEYED_API_V2} is not listed`],
  },
  {
    operation: 'createApiOAS',
    request: (ctx) => ({ body: oasApi(ctx, 'createApiOAS', 'conformance-oas') }),
    remember: (ctx, body) => (ctx.ids.oasApi = body.key),
  },
  { operation: 'getOASApi', request: (ctx) => ({ params: { apiID: need(ctx, 'oasApi') } }) },
  {
    operation: 'getOASApi',
    what: 'mode=public',
    request: (ctx) => ({ params: { apiID: need(ctx, 'oasApi') }, query: { mode: 'public' } }),
    answers: withoutExtension,
  },
  { operation: 'listApisOAS', request: () => ({}) },
  {
    operation: 'updateApiOAS',
    request: (ctx) => ({
      params: { apiID: need(ctx, 'oasApi') },
      body: oasApi(ctx, 'updateApiOAS', 'conformance-oas', need(ctx, 'oasApi')),
    }),
  },
  {
    operation: 'patchApiOAS',
    request: (ctx) => ({
      params: { apiID: need(ctx, 'oasApi') },
      query: { upstreamURL: ctx.upstreamUrl, listenPath: '/conformance-oas-patched/' },
      body: oasApi(ctx, 'patchApiOAS', 'conformance-oas', need(ctx, 'oasApi')),
    }),
  },
  {
    operation: 'downloadApiOASPublic',
    request: (ctx) => ({ params: { apiID: need(ctx, 'oasApi') }, query: { mode: 'public' } }),
    answers: withoutExtension,
  },
  { operation: 'downloadApisOASPublic', request: () => ({ query: { mode: 'public' } }) },
  {
    operation: 'importOAS',
    request: (ctx) => ({
      query: { upstreamURL: ctx.upstreamUrl, listenPath: '/conformance-imported/' },
      body: ctx.example('importOAS'),
    }),
    remember: (ctx, body) => (ctx.ids.importedOas = body.key),
  },
  {
    operation: 'createApiOAS',
    what: 'a second version of the OAS API',
    request: (ctx) => ({
      query: {
        base_api_id: need(ctx, 'oasApi'),
        base_api_version_name: 'v1',
        new_version_name: 'v2',
        set_default: 'false',
      },
      body: oasApi(ctx, 'createApiOAS', 'conformance-oas-v2'),
    }),
    remember: (ctx, body) => (ctx.ids.oasVersion = body.key),
  },
  { operation: 'listOASApiVersions', request: (ctx) => ({ params: { apiID: need(ctx, 'oasApi') } }) },
];
