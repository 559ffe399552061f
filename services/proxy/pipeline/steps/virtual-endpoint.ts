import type { LoggerInstance } from 'moleculer';
import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import type { VirtualEndpoint } from '../virtual/virtual-endpoints';

interface VirtualAnswer {
  Response?: { Code?: unknown; Body?: unknown; Headers?: Record<string, unknown> };
}

/**
 * `extended_paths.virtual`: the tenant's function answers the endpoint. It gets the request
 * (`{Method, URL, RequestURI, Scheme, Headers, Params, Body}`, headers and params as lists), the
 * session (with `use_session`) and `{config_data}` of the API, and returns
 * `TykJsResponse({Code, Body, Headers}, sessionMeta)`. A function that throws, overruns its
 * time or memory answers 500 (or goes upstream with `proxy_on_error`); the failure is logged.
 */
export function virtualEndpointStep(logger: LoggerInstance): Step {
  return (ctx) => {
    const endpoint = ctx.version?.virtualEndpoints?.find(ctx.req.method ?? 'GET', ctx.relativePath);
    if (!endpoint) return;
    return run(ctx, endpoint).catch((err: unknown) => {
      logger.error(`API ${ctx.api.definition.api_id}: virtual endpoint ${endpoint.program.functionName} failed: ${(err as Error).message}`);
      if (endpoint.proxyOnError) return undefined;
      sendGatewayError(ctx.res, 500, GatewayMessages.internal);
      return DONE;
    });
  };
}

async function run(ctx: RequestContext, endpoint: VirtualEndpoint): Promise<typeof DONE> {
  const body = await ctx.readBody();
  const request = {
    Method: ctx.req.method ?? 'GET',
    URL: ctx.relativePath + ctx.search,
    RequestURI: ctx.path + ctx.search,
    Scheme: 'encrypted' in ctx.req.socket ? 'https' : 'http',
    Headers: listMap(Object.entries(ctx.req.headers)),
    Params: listMap([...new URLSearchParams(ctx.search)]),
    Body: body.toString('utf8'),
  };
  const session = endpoint.useSession ? (ctx.session ?? {}) : {};
  const config = { config_data: ctx.api.definition.config_data ?? {} };
  const answer = (await endpoint.pool.call(endpoint.program, [request, session, config])) as VirtualAnswer | undefined;
  const response = answer?.Response;
  if (!response || typeof response !== 'object') throw new Error('the function did not return TykJsResponse(...)');
  const text = typeof response.Body === 'string' ? response.Body : response.Body === undefined ? '' : JSON.stringify(response.Body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.Headers ?? {})) if (/^[!#$%&'*+.^`|~\w-]+$/.test(name)) headers[name] = String(value).replace(/[\r\n]/g, ' ');
  const code = Number(response.Code);
  ctx.res.writeHead(Number.isInteger(code) && code >= 200 && code <= 599 ? code : 200, { ...headers, ...ctx.responseHeaders, 'content-length': String(Buffer.byteLength(text)) });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : text);
  return DONE;
}

function listMap(entries: Array<[string, string | string[] | undefined]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    (out[name] ??= []).push(...(Array.isArray(value) ? value : [value]));
  }
  return out;
}
