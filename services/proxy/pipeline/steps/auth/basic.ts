import { compileTenantPattern, type TenantPattern } from '../../../../../lib/patterns/tenant-pattern';
import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { basicLocations, findCredential, type FoundCredential } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import { admit, checkCredential, type Authenticator, type AuthStepDeps } from './key-check';

/** The reference gateway's answers (400) for a credential it cannot read, by what is wrong with it. */
const MALFORMED = {
  header: 'Attempted access with malformed header, header not in basic auth format',
  encoding: 'Attempted access with malformed header, auth data not encoded correctly',
  values: 'Attempted access with malformed header, values not in basic auth format',
};

/** Basic authentication (`use_basic_auth`): a user and password, from a header, query, cookie or the body. */
export function basicAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  const where = basicLocations(definition);
  const settings = (definition.basic_auth ?? {}) as Record<string, unknown>;
  const fromBody = settings.extract_from_body === true ? bodyExtractors(settings) : undefined;
  const cacheTtl = Number(settings.cache_ttl) > 0 ? Number(settings.cache_ttl) : 60;
  const disableCaching = settings.disable_caching === true;
  const strip = definition.strip_auth_data === true;
  const challenge = { 'www-authenticate': `Basic realm="${definition.name.replace(/"/g, '')}"` };
  return {
    mode: 'basic_auth_user',
    step: async (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      const found = findCredential(ctx, where);
      const decoded = found ? decodeBasic(found) : undefined;
      let credentials = typeof decoded === 'object' ? decoded : undefined;
      // as in the reference, a credential that can not be read gives way to one in the body
      if (!credentials && fromBody) {
        const body = (await ctx.readBody()).toString('utf8');
        const username = fromBody.user.exec(body)?.[1];
        const password = fromBody.password.exec(body)?.[1];
        if (username !== undefined && password !== undefined) credentials = { username, password };
      }
      if (!credentials && typeof decoded === 'string') return refuse(ctx, 400, decoded);
      if (!credentials) return refuse(ctx, 401, GatewayMessages.authFieldMissing, challenge);
      const result = await checkCredential(deps, {
        kind: 'basic',
        org_id: definition.org_id,
        ...credentials,
        cache_ttl: cacheTtl,
        disable_caching: disableCaching,
      });
      return admit(ctx, deps, result, strip && found && decoded === credentials ? [where, found] : undefined);
    },
  };
}

/**
 * `Basic <base64(username:password)>`: two words, standard base64 with its padding, and exactly
 * one `:` in what it decodes to. In a query or cookie the word `Basic` may be left out.
 */
function decodeBasic(found: FoundCredential): { username: string; password: string } | string {
  const words = found.value.split(' ');
  if (words.length === 1 && found.from !== 'header') words.unshift('Basic');
  if (words.length !== 2) return MALFORMED.header;
  const encoded = words[1];
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return MALFORMED.encoding;
  const values = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  if (values.length !== 2) return MALFORMED.values;
  return { username: values[0], password: values[1] };
}

/** `extract_from_body`: each expression (RE2, linear in the body) must have exactly one group, the value. */
function bodyExtractors(settings: Record<string, unknown>): { user: TenantPattern; password: TenantPattern } {
  const compile = (field: string) => {
    const source = settings[field];
    if (typeof source !== 'string' || source === '')
      throw new Error(`basic_auth.${field} is required with extract_from_body`);
    const pattern = compileTenantPattern(source);
    if (pattern.groupCount !== 1)
      throw new Error(`basic_auth.${field} must have exactly one group, it has ${pattern.groupCount}`);
    return pattern;
  };
  return { user: compile('body_user_regexp'), password: compile('body_password_regexp') };
}
