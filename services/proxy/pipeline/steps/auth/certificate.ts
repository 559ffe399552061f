import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import { refuse } from '../../refuse';
import { clientCertificate, MutualTlsMessages } from '../mutual-tls';
import { admit, checkCredential, type Authenticator, type AuthStepDeps } from './key-check';

/**
 * Dynamic mutual TLS (`auth_configs.authToken.use_certificate`): a client that presents a
 * certificate is identified by it: the key bound to that certificate (a key created with
 * `certificate`) is its session. A client without one goes through the auth token as usual.
 * Wraps the API's auth token authenticator; without `use_certificate` it is that authenticator.
 */
export function withCertificateIdentity(definition: ApiDefinition, token: Authenticator, deps: AuthStepDeps, now: () => number = Date.now): Authenticator {
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
      return admit(ctx, deps, await checkCredential(deps, { kind: 'certificate', org_id: orgId, cert_id: `${orgId}${presented.fingerprint}` }), undefined);
    },
  };
}
