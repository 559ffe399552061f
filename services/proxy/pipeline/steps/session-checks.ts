import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { Session } from '../../../../contracts/keys/session';
import { compileTenantPattern, type TenantPattern } from '../../../../lib/patterns/tenant-pattern';
import type { Step } from '../compose';
import { GatewayMessages } from '../gateway-errors';
import { refuse } from '../refuse';
import type { RequestContext } from '../request-context';

/** Compiled `allowed_urls` patterns, shared by every key that lists the same one. */
const urlPatterns = new Map<string, TenantPattern>();
const NOTHING: TenantPattern = { test: () => false, exec: () => null, groupCount: 0 };

/**
 * After authentication and the `post_key_auth` plugins: an inactive key is 403, an expired one
 * 401, and the key's access rights must name this API (and the request's version, and, when it
 * lists `allowed_urls`, the path and method). A key with no access rights has access to nothing.
 * Sessions made by an `auth_check` plugin without access rights are the plugin's decision.
 */
export function sessionChecksStep(
  definition: ApiDefinition,
  emitEvent: (event: 'KeyExpired', ctx: RequestContext, message: string) => void,
): Step | undefined {
  if (definition.use_keyless === true) return undefined;
  const apiId = definition.api_id;
  return (ctx) => {
    if (ctx.endpoint.kind === 'ignored' || !ctx.session) return;
    const session = ctx.session as Session;
    if (ctx.sessionFromPlugin && session.access_rights === undefined) return;
    if (session.is_inactive === true) return refuse(ctx, 403, GatewayMessages.keyInactive);
    if (typeof session.expires === 'number' && session.expires > 0 && session.expires * 1000 < Date.now()) {
      emitEvent('KeyExpired', ctx, 'Attempted access from expired key');
      return refuse(ctx, 401, GatewayMessages.keyExpired);
    }
    const access = session.access_rights?.[apiId];
    if (!access) return refuse(ctx, 403, GatewayMessages.accessDisallowed);
    if (access.versions && access.versions.length > 0 && !access.versions.includes(ctx.version?.name ?? ''))
      return refuse(ctx, 403, GatewayMessages.accessDisallowed);
    if (access.allowed_urls && access.allowed_urls.length > 0 && !urlAllowed(access.allowed_urls, ctx))
      return refuse(ctx, 403, GatewayMessages.resourceDisallowed);
  };
}

/** As in the reference gateway: each `url` is a regular expression (RE2, linear time) searched in the request path. */
function urlAllowed(allowed: Array<{ url: string; methods?: string[] }>, ctx: RequestContext): boolean {
  const method = ctx.req.method ?? 'GET';
  return allowed.some(
    ({ url, methods }) => pattern(url).test(ctx.path) && (!methods || methods.length === 0 || methods.includes(method)),
  );
}

function pattern(url: string): TenantPattern {
  let compiled = urlPatterns.get(url);
  if (!compiled) {
    try {
      compiled = compileTenantPattern(url);
    } catch {
      compiled = NOTHING; // a pattern that does not compile allows nothing
    }
    if (urlPatterns.size > 10_000) urlPatterns.clear();
    urlPatterns.set(url, compiled);
  }
  return compiled;
}
