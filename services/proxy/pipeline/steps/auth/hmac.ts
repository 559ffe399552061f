import type { ApiDefinition } from '../../../../../contracts/apis/api-definition';
import type { Session } from '../../../../../contracts/keys/session';
import type { AuthCheckResult } from '../../../../../contracts/auth/actions';
import { DONE, type StepResult } from '../../compose';
import { findCredential, type CredentialLocations, type FoundCredential } from '../../credentials';
import { GatewayMessages } from '../../gateway-errors';
import { refuse } from '../../refuse';
import type { RequestContext } from '../../request-context';
import { MutualTlsMessages } from '../mutual-tls';
import {
  dateWithinSkew,
  HMAC_ALGORITHMS,
  hmacMatches,
  parseSignatureHeader,
  signatureBytes,
  signedDate,
  signingString,
  type HmacAlgorithm,
  type SignatureFields,
} from './http-signature';
import { admit, checkCredential, type Authenticator, type AuthStepDeps } from './key-check';
import { RSA_ALGORITHM, rsaMatches, rsaPublicKey, RsaSignatureMessages } from './rsa-signature';

/** The reference gateway answers every refused signature alike: 400 with this message. */
export const HMAC_REFUSED = 'Authorization field missing, malformed or invalid';

/**
 * HMAC request signatures (`enable_signature_checking`, `hmac_key`): the `keyId` is a key with
 * `hmac_enabled`, whose `hmac_string` signs the request. `hmac_allowed_algorithms` limits the
 * algorithms, `hmac_allowed_clock_skew` (ms, ≤ 0 = unlimited) how old or new the signed date may be.
 * `rsa-sha256` signatures are checked against the public key of the key's `rsa_certificate_id`,
 * a certificate in the store (fetched through the node's certificate cache).
 */
export function hmacAuthenticator(definition: ApiDefinition, deps: AuthStepDeps): Authenticator {
  const configs = definition.auth_configs as Record<string, Record<string, unknown> | undefined> | undefined;
  const headerName = configs?.hmac?.auth_header_name;
  const where: CredentialLocations = {
    header: typeof headerName === 'string' && headerName !== '' ? headerName : 'Authorization',
    query: undefined,
    cookie: undefined,
  };
  const allowed =
    Array.isArray(definition.hmac_allowed_algorithms) && definition.hmac_allowed_algorithms.length > 0
      ? new Set(definition.hmac_allowed_algorithms.map(String))
      : undefined;
  const skewMs = Number(definition.hmac_allowed_clock_skew) || 0;
  const strip = definition.strip_auth_data === true;

  const refuseSignature = (ctx: RequestContext, why: string): typeof DONE => {
    deps.emitEvent('AuthFailure', ctx, `HMAC signature refused: ${why}`);
    return refuse(ctx, 400, HMAC_REFUSED);
  };

  /** The key of a well-formed signature is known (or the store is down): the signature is checked against it. */
  const verify = (
    ctx: RequestContext,
    fields: SignatureFields,
    algorithm: string,
    signature: Buffer,
    found: FoundCredential,
    result: AuthCheckResult | Error,
  ): StepResult | Promise<StepResult> => {
    if (result instanceof Error) return refuse(ctx, 503, GatewayMessages.keyStoreUnavailable);
    if (!result.ok) return refuseSignature(ctx, 'unknown keyId');
    if (algorithm === RSA_ALGORITHM)
      return rsaVerifier(ctx, result.session).then((matches) => decide(ctx, fields, signature, found, result, matches));
    return decide(ctx, fields, signature, found, result, hmacVerifier(result.session, algorithm as HmacAlgorithm));
  };

  /** Whether the signature and its date hold, with the key's verifier (or why it has none). */
  const decide = (
    ctx: RequestContext,
    fields: SignatureFields,
    signature: Buffer,
    found: FoundCredential,
    result: AuthCheckResult,
    matches: Verifier | string | typeof DONE,
  ): typeof DONE | void => {
    if (matches === DONE) return DONE;
    if (typeof matches === 'string') return refuseSignature(ctx, matches);
    if (!signatureMatches(ctx, fields, (signed) => matches(signed, signature)))
      return refuseSignature(ctx, 'signature does not match');
    if (!dateWithinSkew(signedDate(ctx.req.headers)?.value, skewMs, Date.now()))
      return refuseSignature(ctx, 'date missing or outside the allowed clock skew');
    return admit(ctx, deps, result, strip ? [where, found] : undefined);
  };

  return {
    mode: 'hmac_key',
    // Synchronous when the key's session is cached and the signature is an HMAC: no promise on the request's way then.
    step: (ctx) => {
      if (ctx.endpoint.kind === 'ignored') return;
      const found = findCredential(ctx, where);
      const fields = found ? parseSignatureHeader(found.value) : undefined;
      if (!found || !fields) return refuseSignature(ctx, found ? 'malformed signature header' : 'no signature header');
      // No algorithm named: the reference signs with hmac-sha1, unless it limits the algorithms.
      const algorithm = fields.algorithm === '' && !allowed ? 'hmac-sha1' : fields.algorithm;
      if (!(algorithm in HMAC_ALGORITHMS || algorithm === RSA_ALGORITHM) || (allowed && !allowed.has(algorithm)))
        return refuseSignature(ctx, `algorithm not allowed: ${fields.algorithm}`);
      const signature = signatureBytes(fields.signature);
      if (!signature) return refuseSignature(ctx, 'signature is not base64');
      const result = checkCredential(deps, { kind: 'token', key: fields.keyId });
      if (result instanceof Promise)
        return result.then((settled) => verify(ctx, fields, algorithm, signature, found, settled));
      return verify(ctx, fields, algorithm, signature, found, result);
    },
  };

  /** Checks a signature made with the key's HMAC secret; a string says why the key can not sign. */
  function hmacVerifier(session: Session, algorithm: HmacAlgorithm): Verifier | string {
    const secret = session.hmac_string;
    if (session.hmac_enabled !== true || typeof secret !== 'string' || secret === '')
      return 'the key has no HMAC secret';
    return (signed, signature) => hmacMatches(algorithm, secret, signed, signature);
  }

  /**
   * Checks a signature with the public key of the key's `rsa_certificate_id`. A certificate gone
   * from the store or without an RSA key is the reference gateway's 500; an unreachable store 503.
   */
  async function rsaVerifier(ctx: RequestContext, session: Session): Promise<Verifier | string | typeof DONE> {
    const certId = session.rsa_certificate_id;
    if (
      (session.hmac_enabled !== true && session.enable_http_signature_validation !== true) ||
      typeof certId !== 'string' ||
      certId === ''
    )
      return 'the key has no RSA certificate';
    const orgId = typeof session.org_id === 'string' ? session.org_id : (definition.org_id ?? '');
    let material;
    try {
      material = (await deps.certificates.get([certId], orgId)).get(certId);
    } catch {
      return refuse(ctx, 503, MutualTlsMessages.storeUnavailable);
    }
    if (!material) return refuse(ctx, 500, RsaSignatureMessages.certificateNotFound);
    const key = rsaPublicKey(material);
    if (!key) return refuse(ctx, 500, RsaSignatureMessages.notRsa);
    return (signed, signature) => rsaMatches(key, signed, signature);
  }
}

type Verifier = (signed: string, signature: Buffer) => boolean;

/**
 * `(request-target)` is the path and query as the draft (and the npm `http-signature` client)
 * signs it; the reference gateway signs the path alone, so that is accepted too.
 */
function signatureMatches(ctx: RequestContext, fields: SignatureFields, matches: (signed: string) => boolean): boolean {
  const url = ctx.req.url ?? ctx.path;
  const headers = ctx.req.headers;
  if (matches(signingString(fields, ctx.req.method ?? 'GET', url, headers))) return true;
  const query = url.indexOf('?');
  return (
    query !== -1 &&
    fields.headers.includes('(request-target)') &&
    matches(signingString(fields, ctx.req.method ?? 'GET', url.slice(0, query), headers))
  );
}
