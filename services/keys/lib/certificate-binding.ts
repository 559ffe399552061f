import type { Session } from '../../../contracts/keys/session';
import { KeysErrors } from '../errors';

/**
 * The key of a session bound to a client certificate (dynamic mutual TLS): the organisation id
 * followed by the certificate id, as the reference gateway names it, so the gateway finds the
 * key from the certificate a client presents. Such a key is refused as a plain token (the auth
 * service checks `certificate`), since its name is derived from public data.
 */
export function certificateKey(orgId: string, certificateId: string): string {
  return `${orgId}${certificateId}`;
}

/** A new key's certificate, checked to be in the store for the key's organisation; undefined when none. */
export async function boundCertificate(
  session: Session,
  orgId: string,
  exists: (id: string, orgId: string) => Promise<boolean>,
): Promise<string | undefined> {
  const certificate = session.certificate;
  if (certificate === undefined || certificate === '') return undefined;
  if (!(await exists(certificate, orgId)))
    throw KeysErrors.invalid(`certificate ${certificate} is not in the certificate store of this organisation`);
  return certificate;
}

/** An update keeps the certificate the key was created with: it is the key's identity. */
export function keepCertificate(updated: Session, current: Session): Session {
  const was = current.certificate ?? '';
  const sent = updated.certificate ?? was;
  if (sent !== was)
    throw KeysErrors.invalid(
      'certificate can not be changed: the key is named after it; create a new key for another certificate',
    );
  const { certificate: _dropped, ...rest } = updated;
  return was === '' ? rest : { ...rest, certificate: was };
}
