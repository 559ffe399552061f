/**
 * The walk of the reference gateway's API document: one step per request, in an order where what
 * a step needs (an API, a policy, a key, an OAuth client, a certificate, an organisation's key)
 * was made by an earlier one. Bodies start from the document's own examples, with its ids, hosts
 * and listen paths replaced by the walk's.
 */

/** What the walk started with, and the ids its steps made. */
export interface WalkContext {
  upstreamUrl: string;
  orgId: string;
  /** a certificate and its private key, PEM */
  pem: string;
  /** the request body example of an operation, copied */
  example(operationId: string, variant?: number): Record<string, any>;
  /** a request outside the document (the OAuth flow that issues a token) */
  gateway(path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<any>;
  ids: Record<string, string>;
}

export interface WalkRequest {
  /** values for the path template's `{names}` */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON unless `form` or `text` */
  body?: unknown;
  form?: Record<string, string>;
  text?: string;
}

export interface WalkStep {
  operation: string;
  /** says which call this is when an operation is walked more than once */
  what?: string;
  /** runs first: what the request needs that no operation of the document makes */
  prepare?(ctx: WalkContext): Promise<void>;
  request(ctx: WalkContext): WalkRequest;
  /** the status a gateway that does what was asked answers; 200 unless given */
  expect?: number;
  /** keeps the ids later steps need */
  remember?(ctx: WalkContext, body: any): void;
  /**
   * What the document says in words and its loose schemas cannot tell (every field of a session is
   * optional, so any object passes): problems with the answer, empty when it is the one asked for.
   */
  answers?(ctx: WalkContext, body: any): string[];
}

/** An id an earlier step made; the step fails saying so when that step did not make it. */
export function need(ctx: WalkContext, name: string): string {
  const id = ctx.ids[name];
  if (!id) throw new Error(`needs ${name}, which an earlier step did not make`);
  return id;
}

const grantsKeyedApi = (_ctx: WalkContext, body: any) =>
  body?.access_rights?.[KEYED_API] ? [] : [`the session does not grant ${KEYED_API}: not the key asked for`];
const withoutExtension = (_ctx: WalkContext, body: any) =>
  body && typeof body === 'object' && 'x-gw-api-gateway' in body ? ['mode=public still has x-gw-api-gateway'] : [];

export const OAUTH_API = 'conformance-oauth';
export const KEYED_API = 'conformance-keyed';
export const KEYED_API_V2 = 'conformance-keyed-v2';
const POLICY = 'conformance-policy';
const CUSTOM_KEY = 'conformance-custom-key';
const CLIENT = 'conformance-client';
const REDIRECT_URI = 'http://client.example.test/callback';

/** The document's classic API example, serving the walk's upstream. */
function classicApi(ctx: WalkContext, operation: string, apiId: string, fields: Record<string, unknown>) {
  const api = ctx.example(operation);
  return {
    ...api,
    api_id: apiId,
    org_id: ctx.orgId,
    proxy: { ...api.proxy, listen_path: `/${apiId}/`, target_url: ctx.upstreamUrl },
    ...fields,
  };
}

const OAUTH_FIELDS = {
  use_oauth2: true,
  oauth_meta: {
    allowed_access_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    allowed_authorize_types: ['code', 'token'],
    auth_login_redirect: 'http://login.example.test/login',
  },
};
const KEYED_FIELDS = { use_oauth2: false, use_keyless: false, enable_batch_request_support: true };

/** The document's session example, granting the keyed API. */
function session(ctx: WalkContext, operation: string, fields: Record<string, unknown> = {}) {
  const example = ctx.example(operation);
  const [rights] = Object.values(example.access_rights as Record<string, any>);
  return {
    ...example,
    org_id: ctx.orgId,
    apply_policies: [],
    access_rights: { [KEYED_API]: { ...rights, api_id: KEYED_API, api_name: KEYED_API } },
    ...fields,
  };
}

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

const apiSteps: WalkStep[] = [
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

/** The document's policy example, granting the keyed API. */
function policy(ctx: WalkContext, operation: string) {
  const example = ctx.example(operation);
  const [rights] = Object.values(example.access_rights as Record<string, any>);
  return {
    ...example,
    id: POLICY,
    org_id: ctx.orgId,
    access_rights: { [KEYED_API]: { ...rights, api_id: KEYED_API, api_name: KEYED_API } },
  };
}

const policyAndKeySteps: WalkStep[] = [
  {
    operation: 'addPolicy',
    request: (ctx) => ({ body: policy(ctx, 'addPolicy') }),
    remember: (ctx, body) => (ctx.ids.policy = body.key),
  },
  { operation: 'getPolicy', request: (ctx) => ({ params: { polID: need(ctx, 'policy') } }) },
  { operation: 'listPolicies', request: () => ({}) },
  {
    operation: 'updatePolicy',
    request: (ctx) => ({ params: { polID: need(ctx, 'policy') }, body: policy(ctx, 'updatePolicy') }),
  },
  {
    operation: 'createKey',
    request: (ctx) => ({ body: session(ctx, 'createKey') }),
    remember: (ctx, body) => {
      ctx.ids.key = body.key;
      ctx.ids.keyHash = body.key_hash;
    },
  },
  {
    operation: 'addKey',
    what: 'with a policy applied',
    request: (ctx) => ({ body: session(ctx, 'addKey', { apply_policies: [need(ctx, 'policy')] }) }),
    remember: (ctx, body) => (ctx.ids.policyKey = body.key),
  },
  {
    operation: 'createCustomKey',
    request: (ctx) => ({ params: { keyID: CUSTOM_KEY }, body: session(ctx, 'createCustomKey') }),
  },
  { operation: 'getKey', request: (ctx) => ({ params: { keyID: need(ctx, 'key') } }), answers: grantsKeyedApi },
  {
    operation: 'getKey',
    what: 'by its hash',
    request: (ctx) => ({ params: { keyID: need(ctx, 'keyHash') }, query: { hashed: 'true' } }),
    answers: grantsKeyedApi,
  },
  {
    operation: 'updateKey',
    request: (ctx) => ({ params: { keyID: need(ctx, 'key') }, body: session(ctx, 'updateKey') }),
  },
  { operation: 'listKeys', request: () => ({}) },
  {
    operation: 'validateAKeyDefinition',
    request: (ctx) => ({ body: session(ctx, 'validateAKeyDefinition') }),
    answers: grantsKeyedApi,
  },
  {
    operation: 'setPoliciesToHashedKey',
    request: (ctx) => ({
      params: { keyID: need(ctx, 'keyHash') },
      body: { ...ctx.example('setPoliciesToHashedKey'), apply_policies: [need(ctx, 'policy')] },
    }),
  },
];

/** An access and a refresh token for the walk's client: the authorisation code flow. */
async function issueTokens(ctx: WalkContext): Promise<void> {
  const authorised = await ctx.gateway('/gw/oauth/authorize-client', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      response_type: 'code',
      client_id: need(ctx, 'client'),
      redirect_uri: REDIRECT_URI,
    }).toString(),
  });
  const basic = Buffer.from(`${need(ctx, 'client')}:${need(ctx, 'clientSecret')}`).toString('base64');
  const token = await ctx.gateway(`/${OAUTH_API}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: String(authorised?.code),
      redirect_uri: REDIRECT_URI,
    }).toString(),
  });
  ctx.ids.accessToken = token?.access_token;
  ctx.ids.refreshToken = token?.refresh_token;
}

const client = (ctx: WalkContext) => ({ apiID: OAUTH_API, keyName: need(ctx, 'client') });

const oauthSteps: WalkStep[] = [
  {
    operation: 'createOAuthClient',
    request: (ctx) => ({
      body: { ...ctx.example('createOAuthClient'), api_id: OAUTH_API, client_id: CLIENT, redirect_uri: REDIRECT_URI },
    }),
    remember: (ctx, body) => {
      ctx.ids.client = body.client_id;
      ctx.ids.clientSecret = body.secret;
    },
  },
  { operation: 'getOAuthClient', request: (ctx) => ({ params: client(ctx) }) },
  { operation: 'listOAuthClients', request: () => ({ params: { apiID: OAUTH_API } }) },
  {
    operation: 'updateOAuthClient',
    request: (ctx) => ({
      params: client(ctx),
      body: {
        ...ctx.example('updateOAuthClient'),
        api_id: OAUTH_API,
        client_id: need(ctx, 'client'),
        redirect_uri: REDIRECT_URI,
      },
    }),
  },
  {
    operation: 'getApisForOauthApp',
    request: (ctx) => ({ params: { appID: need(ctx, 'client') }, query: { orgID: ctx.orgId } }),
  },
  { operation: 'getOAuthClientTokens', prepare: issueTokens, request: (ctx) => ({ params: client(ctx) }) },
  {
    operation: 'getOAuthClientTokens',
    what: 'a page of them',
    request: (ctx) => ({ params: client(ctx), query: { page: '1' } }),
    // gateway/api.go answers a page as {Pagination, Tokens}; the schema's oneOf also takes a list
    answers: (_ctx, body) =>
      Array.isArray(body?.Tokens) && body?.Pagination ? [] : ['not a page: {Pagination, Tokens}'],
  },
  {
    // The document calls keyName the client id; gateway/api.go reads it as the refresh token to drop.
    operation: 'invalidateOAuthRefresh',
    request: (ctx) => ({ params: { keyName: need(ctx, 'refreshToken') }, query: { api_id: OAUTH_API } }),
  },
  {
    operation: 'revokeSingleToken',
    request: (ctx) => ({
      form: {
        token: need(ctx, 'accessToken'),
        token_type_hint: 'access_token',
        client_id: need(ctx, 'client'),
        org_id: ctx.orgId,
      },
    }),
  },
  {
    operation: 'rotateOauthClient',
    request: (ctx) => ({ params: client(ctx) }),
    remember: (ctx, body) => (ctx.ids.clientSecret = body.secret),
  },
  {
    operation: 'revokeAllTokens',
    prepare: issueTokens,
    request: (ctx) => ({
      form: { client_id: need(ctx, 'client'), client_secret: need(ctx, 'clientSecret'), org_id: ctx.orgId },
    }),
  },
  { operation: 'purgeLapsedOAuthTokens', request: () => ({ query: { scope: 'lapsed' } }) },
];

const orgCertAndNodeSteps: WalkStep[] = [
  {
    operation: 'addOrgKey',
    request: (ctx) => ({ params: { keyID: ctx.orgId }, body: session(ctx, 'addOrgKey') }),
  },
  {
    operation: 'getOrgKey',
    request: (ctx) => ({ params: { keyID: ctx.orgId }, query: { orgID: ctx.orgId } }),
  },
  { operation: 'listOrgKeys', request: () => ({}) },
  {
    operation: 'updateOrgKey',
    request: (ctx) => ({
      params: { keyID: ctx.orgId },
      query: { reset_quota: '1' },
      body: session(ctx, 'updateOrgKey'),
    }),
  },
  {
    operation: 'addCert',
    request: (ctx) => ({ query: { org_id: ctx.orgId }, text: ctx.pem }),
    remember: (ctx, body) => (ctx.ids.cert = body.id),
  },
  { operation: 'listCerts', request: (ctx) => ({ query: { org_id: ctx.orgId } }) },
  {
    operation: 'listCerts',
    what: 'mode=detailed',
    request: (ctx) => ({ query: { org_id: ctx.orgId, mode: 'detailed' } }),
  },
  { operation: 'listCertsWithIDs', request: (ctx) => ({ params: { certID: need(ctx, 'cert') } }) },
  {
    operation: 'listCertsWithIDs',
    what: 'a comma list',
    request: (ctx) => ({ params: { certID: `${need(ctx, 'cert')},${need(ctx, 'cert')}` } }),
  },
  { operation: 'invalidateCache', request: () => ({ params: { apiID: KEYED_API } }) },
  { operation: 'invalidateJWKCache', request: () => ({ params: { apiID: KEYED_API } }) },
  { operation: 'invalidateJWKCacheForAllAPIs', request: () => ({}) },
  {
    operation: 'debugApiDefinition',
    what: 'a classic definition',
    request: (ctx) => {
      const example = ctx.example('debugApiDefinition');
      return {
        body: {
          request: { method: 'GET', path: '/conformance-debug/anything' },
          spec: {
            ...example.spec,
            api_id: 'conformance-debug',
            org_id: ctx.orgId,
            use_oauth2: false,
            use_keyless: true,
            proxy: { ...example.spec.proxy, listen_path: '/conformance-debug/', target_url: ctx.upstreamUrl },
          },
        },
      };
    },
  },
  {
    operation: 'debugApiDefinition',
    what: 'an OAS definition',
    request: (ctx) => {
      const example = ctx.example('debugApiDefinition', 1);
      const extension = example.oas['x-gw-api-gateway'];
      extension.upstream.url = ctx.upstreamUrl;
      extension.info.orgId = ctx.orgId;
      return { body: { ...example, request: { method: 'GET', path: '/testdebug/anything' } } };
    },
  },
  { operation: 'getSchema', request: () => ({ query: { oasVersion: '3.0.3' } }) },
  {
    operation: 'batch',
    request: (ctx) => {
      const example = ctx.example('batch');
      return {
        params: { listen_path: KEYED_API },
        body: {
          ...example,
          // the example's key may call GET /users only
          requests: (example.requests as Array<Record<string, any>>).map((request) => ({
            ...request,
            relative_url: 'users',
            headers: { ...request.headers, authorization: need(ctx, 'key') },
          })),
        },
      };
    },
  },
  { operation: 'hotReload', request: () => ({}) },
  { operation: 'hotReload', what: 'block=true', request: () => ({ query: { block: 'true' } }) },
  { operation: 'hotReloadGroup', request: () => ({}) },
];

const deleteSteps: WalkStep[] = [
  {
    operation: 'deleteCerts',
    request: (ctx) => ({ params: { certID: need(ctx, 'cert') }, query: { org_id: ctx.orgId } }),
  },
  { operation: 'deleteOrgKey', request: (ctx) => ({ params: { keyID: ctx.orgId } }) },
  { operation: 'deleteOAuthClient', request: (ctx) => ({ params: client(ctx) }) },
  { operation: 'deleteKey', request: (ctx) => ({ params: { keyID: need(ctx, 'key') } }) },
  { operation: 'deleteKey', what: 'a custom key', request: () => ({ params: { keyID: CUSTOM_KEY } }) },
  {
    operation: 'deleteKey',
    what: 'by its hash',
    prepare: async (ctx) => {
      const created = await ctx.gateway('/gw/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(session(ctx, 'addKey')),
      });
      ctx.ids.hashDeleted = created?.key_hash;
    },
    request: (ctx) => ({ params: { keyID: need(ctx, 'hashDeleted') }, query: { hashed: 'true' } }),
  },
  { operation: 'deletePolicy', request: (ctx) => ({ params: { polID: need(ctx, 'policy') } }) },
  {
    operation: 'deleteOASApi',
    what: 'the imported API',
    request: (ctx) => ({ params: { apiID: need(ctx, 'importedOas') } }),
  },
  {
    operation: 'deleteOASApi',
    what: 'the second version',
    request: (ctx) => ({ params: { apiID: need(ctx, 'oasVersion') } }),
  },
  { operation: 'deleteOASApi', request: (ctx) => ({ params: { apiID: need(ctx, 'oasApi') } }) },
  { operation: 'deleteApi', what: 'the second version', request: () => ({ params: { apiID: KEYED_API_V2 } }) },
  { operation: 'deleteApi', request: () => ({ params: { apiID: KEYED_API } }) },
  { operation: 'deleteApi', what: 'the OAuth API', request: () => ({ params: { apiID: OAUTH_API } }) },
];

export const WALK: WalkStep[] = [
  ...apiSteps,
  ...policyAndKeySteps,
  ...oauthSteps,
  ...orgCertAndNodeSteps,
  ...deleteSteps,
];

/** Requests with ids nothing has: the document's 404s. */
export const UNKNOWN_IDS: Array<{ operation: string; request: WalkRequest }> = [
  { operation: 'getApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'deleteApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'listApiVersions', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'getOASApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'deleteOASApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'downloadApiOASPublic', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'getPolicy', request: { params: { polID: 'no-such-policy' } } },
  { operation: 'getKey', request: { params: { keyID: 'no-such-key' } } },
  { operation: 'deleteKey', request: { params: { keyID: 'no-such-key' } } },
  { operation: 'getOAuthClient', request: { params: { apiID: OAUTH_API, keyName: 'no-such-client' } } },
  { operation: 'deleteOAuthClient', request: { params: { apiID: OAUTH_API, keyName: 'no-such-client' } } },
  { operation: 'getOrgKey', request: { params: { keyID: 'no-such-org' } } },
  { operation: 'listCertsWithIDs', request: { params: { certID: 'no-such-cert' } } },
];

/** Requests whose body is not what the operation takes: the document's 400s. */
export const MALFORMED: Array<{ operation: string; request: WalkRequest }> = [
  { operation: 'createApi', request: { text: '{"api_id": ' } },
  { operation: 'addPolicy', request: { text: '{"id": ' } },
  { operation: 'addKey', request: { text: '{"rate": ' } },
  { operation: 'createOAuthClient', request: { text: '{"api_id": ' } },
];
