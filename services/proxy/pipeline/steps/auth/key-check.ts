import type { LoggerInstance } from 'moleculer';
import type { IdentityMode } from '../../../../../contracts/apis/api-definition';
import type { HotCall } from '../../../../../lib/bus/hot-call';
import type { IdentityProviders } from '../../../../../lib/jwt/identity-providers';
import type { AuthCheckParams, AuthCheckResult } from '../../../../../contracts/auth/actions';
import { type DONE, type Step } from '../../compose';
import { stripCredential, type CredentialLocations, type FoundCredential } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import type { RequestContext } from '../../request-context';
import type { CertificateSource } from '../mutual-tls';

export interface AuthStepDeps {
  /** `auth.check`, in process when this node runs the auth service */
  check: HotCall;
  logger: LoggerInstance;
  emitEvent(event: 'AuthFailure', ctx: RequestContext, message: string): void;
  /** the certificate store as this node sees it (dynamic mutual TLS, rsa-sha256 signatures) */
  certificates: CertificateSource;
  /** the key sets and OpenID Connect providers this node fetched (JWT, OpenID Connect) */
  identityProviders: IdentityProviders;
}

export type { IdentityMode } from '../../../../../contracts/apis/api-definition';

/**
 * One client authentication mode. Its step refuses the request (DONE) or records the session it
 * found on the context (`session`, `keyHash`, `sessionFromPlugin`); ignored endpoints pass.
 */
export interface Authenticator {
  mode: IdentityMode;
  step: Step;
}

/**
 * Asks the auth service; an unreachable key store is a 503, never a pass or a refusal. A cached
 * session is answered synchronously (no promise on the request's way).
 */
export function checkCredential(
  deps: AuthStepDeps,
  params: AuthCheckParams,
): AuthCheckResult | Error | Promise<AuthCheckResult | Error> {
  try {
    const answer = deps.check('auth.check', params);
    return answer instanceof Promise ? answer.catch((err: unknown) => checkFailed(deps, err)) : answer;
  } catch (err) {
    return checkFailed(deps, err);
  }
}

function checkFailed(deps: AuthStepDeps, err: unknown): Error {
  deps.logger.error(`credential check failed: ${(err as Error).message}`);
  return err as Error;
}

/** Records a verified session on the context, or refuses: 503 key store down, 403 unknown key. */
export function admit(
  ctx: RequestContext,
  deps: AuthStepDeps,
  result: AuthCheckResult | Error,
  strip: [CredentialLocations, FoundCredential] | undefined,
): typeof DONE | void {
  if (result instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
  if (!result.ok) {
    deps.emitEvent(
      'AuthFailure',
      ctx,
      result.reason === 'wrong_password'
        ? 'Wrong password for a basic-auth user'
        : 'Attempted access with an unknown key',
    );
    return refuse(ctx, 403, GatewayMessages.accessDisallowed);
  }
  ctx.session = result.session;
  ctx.keyHash = result.key_hash;
  if (strip) stripCredential(ctx, strip[0], strip[1]);
}
