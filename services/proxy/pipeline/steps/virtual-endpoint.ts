import { isDeepStrictEqual } from 'node:util';
import type { LoggerInstance } from 'moleculer';
import type { Call } from '../../../../lib/bus/call';
import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import { SANDBOX_UNAVAILABLE } from '../virtual/isolated-vm';
import type { VirtualEndpoint } from '../virtual/virtual-endpoints';

/** tenant code cannot grow a key's stored session without bound */
const MAX_SESSION_META_CHARS = 64 * 1024;

interface VirtualAnswer {
  Response?: { Code?: unknown; Body?: unknown; Headers?: Record<string, unknown> };
  SessionMeta?: unknown;
}

/**
 * `extended_paths.virtual`: the tenant's function answers the endpoint. It gets the request
 * (`{Method, URL, RequestURI, Scheme, Headers, Params, Body}`, headers and params as lists), the
 * session (with `use_session`) and `{config_data}` of the API, and returns
 * `TykJsResponse({Code, Body, Headers}, sessionMeta)`. A function that throws, overruns its
 * time or memory answers 500 (or goes upstream with `proxy_on_error`); the failure is logged.
 * With `use_session`, a `sessionMeta` that differs from the key's `meta_data` is written back to
 * the key, as the reference gateway does. Without isolated-vm (an optional dependency) the
 * endpoint answers 500 saying virtual endpoints are not available.
 */
export function virtualEndpointStep(logger: LoggerInstance, call: Call): Step {
  return (ctx) => {
    const endpoint = ctx.version?.virtualEndpoints?.find(ctx.req.method ?? 'GET', ctx.relativePath);
    if (!endpoint) return;
    const saveMeta = (meta: unknown) => saveSessionMeta(ctx, endpoint, meta, call, logger);
    return run(ctx, endpoint, saveMeta).catch((err: unknown) => {
      logger.error(`API ${ctx.api.definition.api_id}: virtual endpoint ${endpoint.program.functionName} failed: ${(err as Error).message}`);
      if (endpoint.proxyOnError) return undefined;
      const unavailable = (err as { code?: unknown }).code === SANDBOX_UNAVAILABLE;
      sendGatewayError(ctx.res, 500, unavailable ? GatewayMessages.virtualUnavailable : GatewayMessages.internal);
      return DONE;
    });
  };
}

async function run(ctx: RequestContext, endpoint: VirtualEndpoint, saveMeta: (meta: unknown) => Promise<void>): Promise<typeof DONE> {
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
  await saveMeta(answer.SessionMeta);
  const text = typeof response.Body === 'string' ? response.Body : response.Body === undefined ? '' : JSON.stringify(response.Body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.Headers ?? {})) if (/^[!#$%&'*+.^`|~\w-]+$/.test(name)) headers[name] = String(value).replace(/[\r\n]/g, ' ');
  const code = Number(response.Code);
  ctx.res.writeHead(Number.isInteger(code) && code >= 200 && code <= 599 ? code : 200, { ...headers, ...ctx.responseHeaders, 'content-length': String(Buffer.byteLength(text)) });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : text);
  return DONE;
}

/**
 * Only a key from the key store (not an `auth_check` plugin's session), only an object of at
 * most MAX_SESSION_META_CHARS as JSON, only when it changed. A failed write is logged; the function's answer is still sent.
 */
async function saveSessionMeta(ctx: RequestContext, endpoint: VirtualEndpoint, meta: unknown, call: Call, logger: LoggerInstance): Promise<void> {
  if (!endpoint.useSession || !ctx.keyHash || ctx.sessionFromPlugin || !ctx.session) return;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return;
  if (isDeepStrictEqual(meta, ctx.session.meta_data ?? {})) return;
  if (JSON.stringify(meta).length > MAX_SESSION_META_CHARS) {
    logger.warn(`API ${ctx.api.definition.api_id}: a virtual endpoint returned session metadata over ${MAX_SESSION_META_CHARS} characters; not saved`);
    return;
  }
  try {
    await call('keys.updateMeta', { key_hash: ctx.keyHash, meta_data: meta as Record<string, unknown> });
    ctx.session = { ...ctx.session, meta_data: meta };
  } catch (err) {
    logger.error(`API ${ctx.api.definition.api_id}: could not save the session metadata of a virtual endpoint: ${(err as Error).message}`);
  }
}

function listMap(entries: Array<[string, string | string[] | undefined]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    (out[name] ??= []).push(...(Array.isArray(value) ? value : [value]));
  }
  return out;
}
