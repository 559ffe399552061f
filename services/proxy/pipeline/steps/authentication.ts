import type { LoggerInstance } from 'moleculer';
import { compileTenantPattern, type TenantPattern } from '../../../../lib/patterns/tenant-pattern';
import type { AuthCheckParams, AuthCheckResult } from '../../../../contracts/auth/actions';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import { DONE, type Step } from '../compose';
import { basicLocations, findCredential, stripCredential, tokenLocations, type CredentialLocations, type FoundCredential } from '../credentials';
import { GatewayMessages } from '../gateway-errors';
import { refuse } from '../refuse';
import { PluginFailure, requestHookContext } from '../plugins/hook-context';
import type { RequestContext } from '../request-context';
import type { Call } from '../../../../lib/bus/call';

export interface AuthStepDeps {
  call: Call;
  logger: LoggerInstance;
  emitEvent(event: 'AuthFailure', ctx: RequestContext, message: string): void;
}

/**
 * Authentication of a protected API (not `use_keyless`): an `auth_check` plugin if the API names
 * one, else basic authentication (`use_basic_auth`), else an auth token. Credentials are checked
 * by the `auth` service. Ignored endpoints skip authentication, as in the reference gateway.
 */
export function authenticationStep(definition: ApiDefinition, authCheck: GwPlugin | undefined, deps: AuthStepDeps): Step | undefined {
  if (definition.use_keyless === true) return undefined;
  if (authCheck) return pluginAuthStep(authCheck, deps.logger);
  if (definition.use_basic_auth === true) return basicAuthStep(definition, deps);
  return tokenAuthStep(definition, deps);
}

function pluginAuthStep(authCheck: GwPlugin, logger: LoggerInstance): Step {
  return async (ctx) => {
    if (ctx.endpoint.kind === 'ignored') return;
    try {
      await authCheck.hooks.auth_check!(requestHookContext(ctx, 'auth_check', authCheck, logger));
    } catch (err) {
      throw new PluginFailure(authCheck.name, 'auth_check', err);
    }
    if (ctx.answered) return DONE;
    if (!ctx.authorised) return refuse(ctx, 403, GatewayMessages.accessDisallowed);
  };
}

function tokenAuthStep(definition: ApiDefinition, deps: AuthStepDeps): Step {
  const where = tokenLocations(definition);
  const strip = definition.strip_auth_data === true;
  return async (ctx) => {
    if (ctx.endpoint.kind === 'ignored') return;
    const found = findCredential(ctx, where);
    if (!found) return refuse(ctx, 401, GatewayMessages.authFieldMissing);
    const key = found.value.replace(/^Bearer\s+/i, '').trim();
    return admit(ctx, deps, await check(deps, { kind: 'token', key }), strip ? [where, found] : undefined);
  };
}

const MALFORMED_BASIC = 'Attempted access with malformed header, header not in basic auth format.';

function basicAuthStep(definition: ApiDefinition, deps: AuthStepDeps): Step {
  const where = basicLocations(definition);
  const settings = (definition.basic_auth ?? {}) as Record<string, unknown>;
  const fromBody = settings.extract_from_body === true ? bodyExtractors(settings) : undefined;
  const cacheTtl = Number(settings.cache_ttl) > 0 ? Number(settings.cache_ttl) : 60;
  const disableCaching = settings.disable_caching === true;
  const strip = definition.strip_auth_data === true;
  const challenge = { 'www-authenticate': `Basic realm="${definition.name.replace(/"/g, '')}"` };
  return async (ctx) => {
    if (ctx.endpoint.kind === 'ignored') return;
    const found = findCredential(ctx, where);
    let credentials: { username: string; password: string } | undefined;
    if (found) {
      credentials = decodeBasic(found.value);
      if (!credentials) return refuse(ctx, 400, MALFORMED_BASIC);
    } else if (fromBody) {
      const body = (await ctx.readBody()).toString('utf8');
      const username = fromBody.user.exec(body)?.[1];
      const password = fromBody.password.exec(body)?.[1];
      if (username !== undefined && password !== undefined) credentials = { username, password };
    }
    if (!credentials) return refuse(ctx, 401, GatewayMessages.authFieldMissing, challenge);
    const result = await check(deps, { kind: 'basic', org_id: definition.org_id, ...credentials, cache_ttl: cacheTtl, disable_caching: disableCaching });
    return admit(ctx, deps, result, strip && found ? [where, found] : undefined);
  };
}

/** `Basic <base64(username:password)>` (the word `Basic` may be left out in a query or cookie). */
function decodeBasic(value: string): { username: string; password: string } | undefined {
  const encoded = value.replace(/^Basic\s+/i, '').trim();
  if (!/^[A-Za-z0-9+/]+=*$/.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0) return undefined;
  return { username: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}

/** `extract_from_body`: each expression (RE2, linear in the body) must have exactly one group, the value. */
function bodyExtractors(settings: Record<string, unknown>): { user: TenantPattern; password: TenantPattern } {
  const compile = (field: string) => {
    const source = settings[field];
    if (typeof source !== 'string' || source === '') throw new Error(`basic_auth.${field} is required with extract_from_body`);
    const pattern = compileTenantPattern(source);
    if (pattern.groupCount !== 1) throw new Error(`basic_auth.${field} must have exactly one group, it has ${pattern.groupCount}`);
    return pattern;
  };
  return { user: compile('body_user_regexp'), password: compile('body_password_regexp') };
}

/** Asks the auth service; an unreachable key store is a 503, never a pass or a refusal. */
async function check(deps: AuthStepDeps, params: AuthCheckParams): Promise<AuthCheckResult | Error> {
  try {
    return await deps.call('auth.check', params);
  } catch (err) {
    deps.logger.error(`credential check failed: ${(err as Error).message}`);
    return err as Error;
  }
}

function admit(ctx: RequestContext, deps: AuthStepDeps, result: AuthCheckResult | Error, strip: [CredentialLocations, FoundCredential] | undefined): typeof DONE | void {
  if (result instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
  if (!result.ok) {
    deps.emitEvent('AuthFailure', ctx, result.reason === 'wrong_password' ? 'Wrong password for a basic-auth user' : 'Attempted access with an unknown key');
    return refuse(ctx, 403, GatewayMessages.accessDisallowed);
  }
  ctx.session = result.session;
  ctx.keyHash = result.key_hash;
  if (strip) stripCredential(ctx, strip[0], strip[1]);
}
