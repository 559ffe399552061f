import { isDeepStrictEqual } from 'node:util';
import type { LoggerInstance } from 'moleculer';
import type { Call } from '../../../../lib/bus/call';
import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import { VirtualAnswerTooLarge } from '../virtual/bounded-answer';
import { SANDBOX_UNAVAILABLE } from '../virtual/isolated-vm';
import type { VirtualEndpoint } from '../virtual/virtual-endpoints';

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
    const saveMeta = (meta: string | null | undefined) => saveSessionMeta(ctx, endpoint, meta, call, logger);
    return run(ctx, endpoint, saveMeta).catch((err: unknown) => {
      logger.error(
        `API ${ctx.api.definition.api_id}: virtual endpoint ${endpoint.program.functionName} failed: ${(err as Error).message}`,
      );
      if (endpoint.proxyOnError) return undefined;
      sendGatewayError(ctx.res, 500, failureMessage(err));
      return DONE;
    });
  };
}

async function run(
  ctx: RequestContext,
  endpoint: VirtualEndpoint,
  saveMeta: (meta: string | null | undefined) => Promise<void>,
): Promise<typeof DONE> {
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
  const args = [request, session, config];
  const answer = await endpoint.pool.answer(endpoint.program, args, endpoint.useSession);
  await saveMeta(answer.sessionMeta);
  // no prototype: a header named __proto__ stays a header
  const headers = Object.create(null) as Record<string, string>;
  for (let i = 0; i < answer.headers.length; i += 2) headers[answer.headers[i]] = answer.headers[i + 1];
  const code = answer.code;
  const status = Number.isInteger(code) && code >= 200 && code <= 599 ? code : 200;
  const length = String(Buffer.byteLength(answer.body));
  ctx.res.writeHead(status, { ...headers, ...ctx.responseHeaders, 'content-length': length });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : answer.body);
  return DONE;
}

/**
 * Only a key from the key store (not an `auth_check` plugin's session), only an object within
 * the session metadata limit as JSON (measured in the isolate), only when it changed. A failed
 * write is logged; the function's answer is still sent.
 */
async function saveSessionMeta(
  ctx: RequestContext,
  endpoint: VirtualEndpoint,
  json: string | null | undefined,
  call: Call,
  logger: LoggerInstance,
): Promise<void> {
  if (!endpoint.useSession || !ctx.keyHash || ctx.sessionFromPlugin || !ctx.session) return;
  if (json === undefined) return;
  if (json === null) {
    const limit = endpoint.pool.answerLimits.maxSessionMetaChars;
    const api = ctx.api.definition.api_id;
    logger.warn(`API ${api}: a virtual endpoint returned session metadata over ${limit} characters; not saved`);
    return;
  }
  const meta = JSON.parse(json) as unknown;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return;
  if (isDeepStrictEqual(meta, ctx.session.meta_data ?? {})) return;
  try {
    await call('keys.updateMeta', { key_hash: ctx.keyHash, meta_data: meta as Record<string, unknown> });
    ctx.session = { ...ctx.session, meta_data: meta };
  } catch (err) {
    logger.error(
      `API ${ctx.api.definition.api_id}: could not save the session metadata of a virtual endpoint: ${(err as Error).message}`,
    );
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

/** What the client is told: a limit or a missing sandbox is the operator's or tenant's to fix, so it is named. */
function failureMessage(err: unknown): string {
  if (err instanceof VirtualAnswerTooLarge) return err.message;
  if ((err as { code?: unknown }).code === SANDBOX_UNAVAILABLE) return GatewayMessages.virtualUnavailable;
  return GatewayMessages.internal;
}
