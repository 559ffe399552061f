import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { RequestContext } from './request-context';

/**
 * Where an API reads a credential from: a header (names are case-insensitive), a query
 * parameter and a cookie (names are case-sensitive), tried in that order.
 */
export interface CredentialLocations {
  header: string | undefined;
  query: string | undefined;
  cookie: string | undefined;
}

interface LocationToggle {
  enabled?: boolean;
  name?: string;
}

/**
 * Auth-token locations: `auth.auth_header_name` (default Authorization), `use_param` +
 * `param_name` and `use_cookie` + `cookie_name`; `auth_configs.authToken` takes precedence.
 */
export function tokenLocations(definition: ApiDefinition): CredentialLocations {
  const configs = definition.auth_configs as Record<string, Record<string, unknown>> | undefined;
  return locationsOf((configs?.authToken ?? definition.auth ?? {}) as Record<string, unknown>);
}

/**
 * Where a JWT (`auth_configs.jwt`) or an OpenID Connect token (`auth_configs.oidc`) is read: the
 * same fields as the auth token's, by default the Authorization header.
 */
export function bearerTokenLocations(definition: ApiDefinition, kind: 'jwt' | 'oidc'): CredentialLocations {
  const configs = definition.auth_configs as Record<string, Record<string, unknown>> | undefined;
  return locationsOf(configs?.[kind] ?? {});
}

function locationsOf(auth: Record<string, unknown>): CredentialLocations {
  const header =
    typeof auth.auth_header_name === 'string' && auth.auth_header_name !== '' ? auth.auth_header_name : 'Authorization';
  return {
    header,
    query:
      auth.use_param === true
        ? typeof auth.param_name === 'string' && auth.param_name !== ''
          ? auth.param_name
          : header
        : undefined,
    cookie:
      auth.use_cookie === true
        ? typeof auth.cookie_name === 'string' && auth.cookie_name !== ''
          ? auth.cookie_name
          : header
        : undefined,
  };
}

/**
 * Basic-auth locations, as the OAS extension describes them (`header`, `query`, `cookie`, each
 * `{enabled, name}`), read from `auth_configs.basic`; by default only the Authorization header.
 */
export function basicLocations(definition: ApiDefinition): CredentialLocations {
  const configs = definition.auth_configs as Record<string, Record<string, LocationToggle | undefined>> | undefined;
  const basic = configs?.basic ?? {};
  const pick = (toggle: LocationToggle | undefined, fallback: string | undefined) =>
    toggle === undefined ? fallback : toggle.enabled === false ? undefined : toggle.name || fallback;
  return {
    header: pick(basic.header, 'Authorization'),
    query: pick(basic.query, undefined),
    cookie: pick(basic.cookie, undefined),
  };
}

export interface FoundCredential {
  value: string;
  from: 'header' | 'query' | 'cookie';
}

export function findCredential(ctx: RequestContext, where: CredentialLocations): FoundCredential | undefined {
  if (where.header) {
    const value = ctx.req.headers[where.header.toLowerCase()];
    if (typeof value === 'string' && value !== '') return { value, from: 'header' };
  }
  if (where.query && ctx.search !== '') {
    const value = new URLSearchParams(ctx.search).get(where.query);
    if (value) return { value, from: 'query' };
  }
  if (where.cookie) {
    const value = readCookie(ctx.req.headers.cookie, where.cookie);
    if (value) return { value, from: 'cookie' };
  }
  return undefined;
}

/** `strip_auth_data`: the credential does not go upstream. */
export function stripCredential(ctx: RequestContext, where: CredentialLocations, found: FoundCredential): void {
  if (found.from === 'header') delete ctx.upstreamHeaders()[where.header!.toLowerCase()];
  if (found.from === 'query') {
    const params = new URLSearchParams(ctx.search);
    params.delete(where.query!);
    const rest = params.toString();
    ctx.search = rest === '' ? '' : `?${rest}`;
  }
  if (found.from === 'cookie') {
    const headers = ctx.upstreamHeaders();
    const kept = String(headers.cookie ?? '')
      .split(';')
      .filter((part) => part.split('=')[0].trim() !== where.cookie);
    if (kept.length === 0) delete headers.cookie;
    else headers.cookie = kept.join(';').trim();
  }
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name)
      return decodeURIComponent(part.slice(separator + 1).trim());
  }
  return undefined;
}
