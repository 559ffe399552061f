import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type {
  GraphqlApi,
  GraphqlOperation,
  GraphqlSubscriptionType,
} from '../../../../contracts/graphql-engine/hand-off';
import { DONE, type Step } from '../compose';
import { GatewayMessages } from '../gateway-errors';
import { MALFORMED_PATH } from '../persisted-queries';
import { answerJson, refuse } from '../refuse';
import { compileHeaderTransform, applyHeaderTransform, type HeaderTransform } from '../header-transform';
import type { RequestContext } from '../request-context';
import { outboundTrace } from '../tracing/outbound-trace';

/**
 * GraphQL in the request path. A persisted query (REST path → fixed operation) becomes a
 * GraphQL POST to the target. On a proxy-only GraphQL API every other request is a GraphQL
 * operation: parsed and validated against the API's schema (never forwarded when invalid),
 * checked against the key's depth limits, field permissions and introspection right, then
 * forwarded as received with `graphql.proxy.request_headers` added (`auth_headers` are for
 * schema introspection by the dashboard only, never sent here). The checks, the playground and
 * subscriptions are graphql-engine's, handed over in process (`engine`, contracts/graphql-engine).
 * A combined graph's operations (and persisted queries) are answered by the engine itself.
 * Subscriptions and persisted queries go to the target `chooseTarget` picks (load balancing),
 * like every other proxied request.
 */
export function graphqlStep(
  definition: ApiDefinition,
  engine: GraphqlApi | undefined,
  hasPersistedQueries: boolean,
  chooseTarget: Step | undefined,
): Step | undefined {
  if (!engine && !hasPersistedQueries) return undefined;
  const proxy = ((definition.graphql as Record<string, unknown> | undefined)?.proxy ?? {}) as Record<string, unknown>;
  const supergraph = ((definition.graphql as Record<string, unknown> | undefined)?.supergraph ?? {}) as Record<
    string,
    unknown
  >;
  // a supergraph sends its global headers to every subgraph; a proxy-only API its request headers upstream
  const headerSettings = engine?.executesOperations ? supergraph.global_headers : proxy.request_headers;
  const requestHeaders = compileHeaderTransform(headerSettings, undefined, definition.enable_context_vars === true);
  const subscriptionType = (
    ['graphql-transport-ws', 'sse'].includes(String(proxy.subscription_type)) ? proxy.subscription_type : 'graphql-ws'
  ) as GraphqlSubscriptionType;
  return async (ctx) => {
    const persisted = ctx.version?.persistedQueryFor?.(ctx.req.method ?? 'GET', ctx.relativePath);
    if (persisted === MALFORMED_PATH) return refuse(ctx, 400, GatewayMessages.malformedPath);
    if (persisted && engine?.executesOperations)
      return answerExecuted(
        ctx,
        engine,
        { query: persisted.operation, variables: persisted.variables(ctx) },
        requestHeaders,
      );
    if (persisted) {
      if ((await chooseTarget?.(ctx)) === DONE) return DONE;
      return runPersisted(ctx, persisted.operation, persisted.variables(ctx));
    }
    if (!engine) return;
    const page = ctx.req.method === 'GET' ? engine.playground(ctx.relativePath) : undefined;
    if (page) {
      ctx.res.writeHead(page.status, { ...page.headers, 'content-length': page.body.length });
      ctx.res.end(page.body);
      return DONE;
    }
    if (ctx.upgrade) {
      if (!engine.speaksProtocol(ctx.req.headers['sec-websocket-protocol']))
        return answerJson(ctx, 400, {
          errors: [{ message: 'Use the graphql-transport-ws or graphql-ws subprotocol' }],
        });
      const headers: Record<string, string> = {};
      if (requestHeaders) applyHeaderTransform(requestHeaders, headers, ctx);
      // a supergraph's operations go to its subgraphs: it has no upstream of its own
      if (!engine.executesOperations && (await chooseTarget?.(ctx)) === DONE) return DONE;
      const target = ctx.target ?? ctx.version!.target;
      const upstream = {
        url: engine.executesOperations ? '' : target.origin + (target.fullPath || '/'),
        headers,
        subscriptionType,
      };
      engine.acceptSubscriptions(ctx.req, ctx.upgrade.socket, ctx.upgrade.head, { session: ctx.session, upstream });
      return DONE;
    }
    const request = await readOperation(ctx, engine.executesOperations);
    if ('error' in request) return answerJson(ctx, 400, { errors: [{ message: request.error }] });
    const refusal = engine.refusal(request.query, request.operationName, ctx.session);
    if (refusal) return answerJson(ctx, refusal.status, refusal.body);
    if (engine.executesOperations) return answerExecuted(ctx, engine, request, requestHeaders);
    if (requestHeaders) applyHeaderTransform(requestHeaders, ctx.upstreamHeaders(), ctx);
  };
}

/** A combined graph or a supergraph answers the operation itself; nothing is proxied. */
async function answerExecuted(
  ctx: RequestContext,
  engine: GraphqlApi,
  operation: GraphqlOperation,
  headerTransform: HeaderTransform | undefined,
): Promise<typeof DONE> {
  // the API's global headers of this request, which a supergraph sends to every subgraph it touches
  const globalHeaders: Record<string, string> = {};
  if (headerTransform) applyHeaderTransform(headerTransform, globalHeaders, ctx);
  const reply = await engine.execute(operation, {
    headers: ctx.req.headers,
    globalHeaders,
    trace: ctx.trace && outboundTrace(ctx.trace),
  });
  return answerJson(ctx, reply.status, reply.body);
}

function runPersisted(ctx: RequestContext, operation: string, variables: Record<string, unknown>): void {
  ctx.replacedBody = Buffer.from(JSON.stringify({ query: operation, variables }));
  ctx.upstreamMethod = 'POST';
  const headers = ctx.upstreamHeaders();
  headers['content-type'] = 'application/json';
  delete headers['transfer-encoding'];
  ctx.rewrittenUrl = (ctx.target ?? ctx.version!.target).fullPath || '/';
}

/** `{query, variables, operationName}` from a POST body, or from the query string of a GET (variables only when `withVariables`). */
async function readOperation(
  ctx: RequestContext,
  withVariables: boolean,
): Promise<GraphqlOperation | { error: string }> {
  if (ctx.req.method === 'GET') {
    const params = new URLSearchParams(ctx.search);
    const query = params.get('query');
    if (!query) return { error: 'Must provide query string.' };
    const operation = { query, operationName: params.get('operationName') ?? undefined };
    // A proxy-only upstream reads the variables itself; a combined graph needs them here.
    const variables = withVariables ? params.get('variables') : null;
    try {
      return variables ? { ...operation, variables: JSON.parse(variables) } : operation;
    } catch {
      return { error: 'Variables are invalid JSON.' };
    }
  }
  const raw = await ctx.readBody();
  let body: { query?: unknown; operationName?: unknown; variables?: unknown };
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { error: 'The request body must be JSON: {"query": ..., "variables": ..., "operationName": ...}' };
  }
  if (!body || typeof body.query !== 'string' || body.query.trim() === '')
    return { error: 'Must provide query string.' };
  const variables =
    body.variables && typeof body.variables === 'object' && !Array.isArray(body.variables)
      ? (body.variables as Record<string, unknown>)
      : undefined;
  return {
    query: body.query,
    variables,
    operationName: typeof body.operationName === 'string' && body.operationName !== '' ? body.operationName : undefined,
  };
}
