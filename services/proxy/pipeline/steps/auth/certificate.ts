import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import { clientCertificate, MutualTlsMessages } from '../mutual-tls';
import { admit, checkCredential, type Authenticator, type AuthStepDeps } from './key-check';

/**
 * Dynamic mutual TLS (`auth_configs.authToken.use_certificate`): a client that presents a
 * certificate is identified by it: the key bound to that certificate (a key created with
 * `certificate`) is its session. A client without one goes through the auth token as usual.
 * Wraps the API's auth token authenticator; without `use_certificate` it is that authenticator.
 * The certificate must still be in the store: once deleted, its key is refused (403), as the
 * reference gateway does (its ErrAuthCertNotFound), on every node (`certs.changed`).
 */
export function withCertificateIdentity(
  definition: ApiDefinition,
  token: Authenticator,
  deps: AuthStepDeps,
  now: () => number = Date.now,
): Authenticator {
  const authConfigs = (definition.auth_configs ?? {}) as { authToken?: { use_certificate?: unknown } };
  if (authConfigs.authToken?.use_certificate !== true) return token;
  const orgId = definition.org_id ?? '';
  return {
    mode: token.mode,
    step: async (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      const presented = clientCertificate(ctx.req);
      if (!presented) return token.step(ctx);
      if (presented.notAfter <= now()) return refuse(ctx, 403, MutualTlsMessages.expired);
      const certId = `${orgId}${presented.fingerprint}`;
      const result = await checkCredential(deps, { kind: 'certificate', org_id: orgId, cert_id: certId });
      if (!(result instanceof Error) && result.ok) {
        let stored;
        try {
          stored = await deps.certificates.get([certId], orgId);
        } catch {
          return refuse(ctx, 503, MutualTlsMessages.storeUnavailable);
        }
        if (!stored.has(certId)) {
          deps.emitEvent('AuthFailure', ctx, 'Attempted access with non-existent cert.');
          return refuse(ctx, 403, GatewayMessages.accessDisallowed);
        }
      }
      return admit(ctx, deps, result, undefined);
    },
  };
}
