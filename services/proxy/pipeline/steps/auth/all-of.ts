import { DONE, type Step } from '../../compose';
import type { RequestContext } from '../../request-context';
import type { Authenticator, IdentityMode } from './key-check';

/**
 * Several modes on one API, as the reference gateway chains them: every authenticator must
 * pass, in order, and the session the request carries on is the one of the mode named by
 * `base_identity_provided_by`; unset, each mode's session replaces the previous one, so the
 * last mode that found one wins.
 */
export function allOf(authenticators: Authenticator[], base: IdentityMode | undefined): Step {
  return async (ctx) => {
    let chosen: Pick<RequestContext, 'session' | 'keyHash' | 'sessionFromPlugin'> | undefined;
    for (const { mode, step } of authenticators) {
      ctx.session = undefined;
      ctx.keyHash = undefined;
      ctx.sessionFromPlugin = false;
      if ((await step(ctx)) === DONE) return DONE;
      if (ctx.session !== undefined && (base === undefined || mode === base))
        chosen = { session: ctx.session, keyHash: ctx.keyHash, sessionFromPlugin: ctx.sessionFromPlugin };
    }
    ctx.session = chosen?.session;
    ctx.keyHash = chosen?.keyHash;
    ctx.sessionFromPlugin = chosen?.sessionFromPlugin ?? false;
  };
}
