import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import { DONE, type Step } from '../compose';
import { GatewayMessages, sendGatewayError } from '../gateway-errors';
import { PluginFailure, requestHookContext } from '../plugins/hook-context';

/**
 * Authentication of a protected API (not `use_keyless`). An `auth_check` plugin replaces the
 * built-in check: it must let the request through (`allow`) or answer it. Without one, no
 * credential can be valid until access keys exist (the keys and auth services), so the gateway
 * answers as the reference does for a missing (401) or unknown (403) credential; a protected
 * API is never proxied open. Ignored endpoints skip authentication, as in the reference.
 */
export function authenticationStep(definition: ApiDefinition, authCheck: GwPlugin | undefined, logger: LoggerInstance): Step | undefined {
  if (definition.use_keyless === true) return undefined;
  if (authCheck) {
    return async (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      try {
        await authCheck.hooks.auth_check!(requestHookContext(ctx, 'auth_check', authCheck, logger));
      } catch (err) {
        throw new PluginFailure(authCheck.name, 'auth_check', err);
      }
      if (ctx.answered) return DONE;
      if (!ctx.authorised) {
        sendGatewayError(ctx.res, 403, GatewayMessages.accessDisallowed);
        return DONE;
      }
    };
  }
  const headerName = (((definition.auth as { auth_header_name?: string } | undefined)?.auth_header_name || 'Authorization') as string).toLowerCase();
  return (ctx) => {
    if (ctx.endpoint.kind === 'ignored') return;
    if (ctx.req.headers[headerName] === undefined) sendGatewayError(ctx.res, 401, GatewayMessages.authFieldMissing);
    else sendGatewayError(ctx.res, 403, GatewayMessages.accessDisallowed);
    return DONE;
  };
}
