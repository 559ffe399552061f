import { CLIENT, OAUTH_API, REDIRECT_URI, need, type WalkContext, type WalkStep } from './walk-step';

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
  if (!token?.access_token || !token?.refresh_token) {
    throw new Error(`the authorisation code flow issued no tokens: ${JSON.stringify(token)}`);
  }
  ctx.ids.accessToken = token.access_token;
  ctx.ids.refreshToken = token.refresh_token;
}

export const client = (ctx: WalkContext) => ({ apiID: OAUTH_API, keyName: need(ctx, 'client') });

export const oauthSteps: WalkStep[] = [
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
  {
    operation: 'getOAuthClientTokens',
    prepare: issueTokens,
    request: (ctx) => ({ params: client(ctx) }),
    answers: (_ctx, body) => (Array.isArray(body) && body.length > 0 ? [] : ['the token just issued is not listed']),
  },
  {
    operation: 'getOAuthClientTokens',
    what: 'a page of them',
    request: (ctx) => ({ params: client(ctx), query: { page: '1' } }),
    // gateway/api.go answers a page as {Pagination, Tokens}; the schema's oneOf also takes a list
    answers: (_ctx, body) =>
      Array.isArray(body?.Tokens) && body.Tokens.length > 0 && body?.Pagination
        ? []
        : ['not a page: {Pagination, Tokens}'],
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
