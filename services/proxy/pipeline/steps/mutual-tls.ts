import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { CertificateMaterial } from '../../../../contracts/certs/actions';
import type { Step } from '../compose';
import { refuse } from '../refuse';

export interface CertificateSource {
  get(ids: readonly string[], orgId: string | undefined): Promise<Map<string, CertificateMaterial>>;
}

/** The reference gateway's messages (its ValidateRequestCerts). */
export const MutualTlsMessages = {
  notTls: 'TLS not enabled',
  required: 'Client TLS certificate is required',
  notAllowed: (fingerprint: string) => `Certificate with SHA256 ${fingerprint} not allowed`,
  expired: 'Certificate has expired',
  storeUnavailable: 'The certificate store is not reachable, please try again later',
} as const;

/** The client certificate of a request over TLS: `undefined` when none was sent, `null` when the request is not over TLS. */
export function clientCertificate(req: IncomingMessage): { fingerprint: string; notAfter: number } | undefined | null {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket)) return null;
  const peer = socket.getPeerX509Certificate();
  if (!peer) return undefined;
  return { fingerprint: hash('sha256', peer.raw, 'hex'), notAfter: Date.parse(peer.validTo) };
}

/**
 * `use_mutual_tls_auth`: the client must present a certificate whose id (the API's organisation
 * id + the certificate's SHA-256) is in `client_certificates` and still in the store, and that
 * has not expired. Its own step, before any authentication; a refusal is 403, as in the
 * reference gateway. The chain of trust is not checked: the list names the certificates.
 */
export function mutualTlsStep(
  definition: ApiDefinition,
  certificates: CertificateSource,
  now: () => number = Date.now,
): Step | undefined {
  if (definition.use_mutual_tls_auth !== true) return undefined;
  const orgId = definition.org_id ?? '';
  const allowed = new Set(
    (Array.isArray(definition.client_certificates) ? definition.client_certificates : []).filter(
      (id): id is string => typeof id === 'string',
    ),
  );
  return async (ctx) => {
    const presented = clientCertificate(ctx.req);
    if (presented === null) return refuse(ctx, 403, MutualTlsMessages.notTls);
    if (!presented) return refuse(ctx, 403, MutualTlsMessages.required);
    const id = `${orgId}${presented.fingerprint}`;
    if (!allowed.has(id)) return refuse(ctx, 403, MutualTlsMessages.notAllowed(presented.fingerprint));
    let stored: Map<string, CertificateMaterial>;
    try {
      stored = await certificates.get([id], orgId);
    } catch {
      return refuse(ctx, 503, MutualTlsMessages.storeUnavailable);
    }
    // Listed, but removed from the store since: no longer allowed.
    if (!stored.has(id)) return refuse(ctx, 403, MutualTlsMessages.notAllowed(presented.fingerprint));
    if (presented.notAfter <= now()) return refuse(ctx, 403, MutualTlsMessages.expired);
  };
}
