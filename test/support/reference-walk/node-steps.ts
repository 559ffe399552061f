import { client } from './oauth-steps';
import { CUSTOM_KEY, KEYED_API, KEYED_API_V2, OAUTH_API, need, session, type WalkStep } from './walk-step';

export const orgCertAndNodeSteps: WalkStep[] = [
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

export const deleteSteps: WalkStep[] = [
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
