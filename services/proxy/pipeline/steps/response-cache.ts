import { createHash } from 'node:crypto';
import { DONE, type Step } from '../compose';
import type { CacheOptions, CachePlan } from '../cache/cache-rules';
import type { ResponseCache } from '../cache/response-cache';
import type { HeldResponse, RequestContext } from '../request-context';

export const CACHED_HEADER = 'x-gw-cached-response';
/** with `enable_upstream_cache_control`, only answers carrying this header are cached */
const UPSTREAM_CACHE_ACTION = 'x-gw-cache-action-set';

/**
 * The response cache (`cache_options`). A cached answer is sent with `X-Gw-Cached-Response: 1`
 * and the upstream is not called. Otherwise the upstream's answer is stored when its status is
 * one of the plan's codes and it is not personal: answers that set a cookie or say
 * `Cache-Control: private`/`no-store` are never stored. The key covers the API (and its
 * definition as it is now), version, method, path, query, the client's key, the
 * `cache_by_headers` values and, for requests with a body, the body (or its `cache_key_regex` part).
 */
export function responseCacheStep(options: CacheOptions, cache: ResponseCache): Step {
  return (ctx) => {
    const method = ctx.req.method ?? 'GET';
    const plan = ctx.version?.cacheRules?.planFor(method, ctx.relativePath);
    if (!plan || ctx.upgrade) return;
    // A session an auth plugin made has no key hash to keep callers apart: never cache for it.
    if (ctx.session && !ctx.keyHash) return;
    return cacheKey(ctx, method, plan, options).then(async (key) => {
      const apiId = ctx.api.definition.api_id;
      const hit = await cache.get(apiId, key);
      if (hit) return sendCached(ctx, hit);
      ctx.addResponseFilter((response) => {
        const ttl = storableFor(response, plan, options);
        if (ttl > 0)
          void cache.set(
            apiId,
            key,
            { status: response.status, headers: { ...response.headers }, body: response.body },
            ttl,
          );
        return response;
      });
      return undefined;
    });
  };
}

async function cacheKey(ctx: RequestContext, method: string, plan: CachePlan, options: CacheOptions): Promise<string> {
  const hash = createHash('sha256');
  const part = (value: string) => hash.update(value).update('\0');
  part(options.fingerprint);
  part(ctx.version?.name ?? '');
  part(method);
  part(ctx.path);
  part(ctx.search);
  // where a url_rewrite sends the request (a trigger may pick another path or host per caller)
  part(ctx.rewrittenUrl ?? '');
  part(ctx.targetOverride?.origin ?? '');
  part(ctx.keyHash ?? '');
  for (const name of options.byHeaders) {
    const value = ctx.req.headers[name];
    part(Array.isArray(value) ? value.join(',') : (value ?? ''));
  }
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    const body = (await ctx.readBody()).toString('utf8');
    part(plan.bodyKey ? (plan.bodyKey.exec(body)?.[0] ?? '') : body);
  }
  return hash.digest('base64url');
}

/** Seconds to keep the answer, or 0 to not store it. */
function storableFor(response: HeldResponse, plan: CachePlan, options: CacheOptions): number {
  if (plan.codes.length > 0 && !plan.codes.includes(response.status)) return 0;
  const headers = response.headers;
  if (headers['set-cookie'] !== undefined) return 0;
  const control = String(headers['cache-control'] ?? '').toLowerCase();
  if (/\b(private|no-store)\b/.test(control)) return 0;
  if (!options.upstreamControl) return plan.ttlSeconds;
  if (headers[UPSTREAM_CACHE_ACTION] === undefined) return 0;
  const ttl = Number(headers[options.ttlHeader]);
  return ttl > 0 ? ttl : plan.ttlSeconds;
}

function sendCached(ctx: RequestContext, hit: HeldResponse): typeof DONE {
  const headers = {
    ...hit.headers,
    ...ctx.responseHeaders,
    [CACHED_HEADER]: '1',
    'content-length': String(hit.body.length),
  };
  ctx.res.writeHead(hit.status, headers);
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : hit.body);
  return DONE;
}
