import { readCookie } from './credentials';
import type { RequestContext } from './request-context';

const REFERENCE = /\$gw_context\.([A-Za-z0-9_.-]+)/g;

/**
 * Context variables (`enable_context_vars`): `$gw_context.<name>` in header values and persisted
 * queries. Names as in the reference gateway: `headers_<Header_Name>` (dashes written as
 * underscores), `cookies_<name>`, `request_data` (the query parameters), `path_parts`, `path`,
 * `remote_addr`, `request_id`, `api_id`, `org_id`, `version`, and `jwt_claims_<claim>` (the
 * verified JWT's claims and header fields; objects and arrays as JSON).
 */
export function contextVariable(ctx: RequestContext, name: string): string | undefined {
  if (name.startsWith('headers_')) {
    const value = ctx.req.headers[name.slice('headers_'.length).replace(/_/g, '-').toLowerCase()];
    return Array.isArray(value) ? value.join(',') : value;
  }
  if (name.startsWith('cookies_')) return readCookie(ctx.req.headers.cookie, name.slice('cookies_'.length));
  if (name.startsWith('jwt_claims_')) return claimText(ctx.jwtClaims?.[name.slice('jwt_claims_'.length)]);
  switch (name) {
    case 'path':
      return ctx.path;
    case 'path_parts':
      return ctx.path.split('/').filter(Boolean).join(',');
    case 'remote_addr':
      return ctx.clientIp;
    case 'request_id':
      return ctx.requestId;
    case 'request_data':
      return ctx.search.slice(1);
    case 'api_id':
      return ctx.api.definition.api_id;
    case 'org_id':
      return ctx.api.definition.org_id;
    case 'version':
      return ctx.version?.name;
    default:
      return undefined;
  }
}

export function hasContextReference(value: string): boolean {
  return value.includes('$gw_context.');
}

/** Replaces every `$gw_context.<name>` in `value`; unknown names become empty. */
export function expandContextVars(value: string, ctx: RequestContext): string {
  return value.replace(REFERENCE, (_match, name: string) => contextVariable(ctx, name) ?? '');
}

function claimText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
