import type { LoggerInstance } from 'moleculer';
import type { GwPlugin } from '../../../../../plugins/sdk/define-plugin';
import { DONE } from '../../compose';
import { GatewayMessages } from '../../gateway-errors';
import { PluginFailure, requestHookContext } from '../../plugins/hook-context';
import { refuse } from '../../refuse';
import type { Authenticator } from './key-check';

/** An `auth_check` plugin (`custom_auth`): it answers, authorises (and may set a session), or the request is refused. */
export function pluginAuthenticator(authCheck: GwPlugin, logger: LoggerInstance): Authenticator {
  return {
    mode: 'custom_auth',
    step: async (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      try {
        await authCheck.hooks.auth_check!(requestHookContext(ctx, 'auth_check', authCheck, logger));
      } catch (err) {
        throw new PluginFailure(authCheck.name, 'auth_check', err);
      }
      if (ctx.answered) return DONE;
      if (!ctx.authorised) return refuse(ctx, 403, GatewayMessages.accessDisallowed);
    },
  };
}
