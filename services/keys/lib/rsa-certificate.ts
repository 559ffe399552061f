import type { Session } from '../../../contracts/keys/session';
import { KeysErrors } from '../errors';

/**
 * `rsa_certificate_id`: the certificate whose RSA public key checks a key's `rsa-sha256`
 * request signatures (the reference gateway's RSACertificateId). Checked when it is set or
 * changed: it must be in the certificate store of the key's organisation and hold an RSA public
 * key. `publicKeyType` answers the key type of a stored certificate, undefined when the
 * organisation's store does not hold it.
 */
export async function checkRsaCertificate(
  session: Session,
  previous: Session | undefined,
  orgId: string,
  publicKeyType: (id: string, orgId: string) => Promise<string | undefined>,
): Promise<void> {
  const id = session.rsa_certificate_id;
  if (id === undefined || id === '' || id === previous?.rsa_certificate_id) return;
  if (typeof id !== 'string')
    throw KeysErrors.invalid('rsa_certificate_id must be the id of a certificate in the certificate store');
  const type = await publicKeyType(id, orgId);
  if (type === undefined)
    throw KeysErrors.invalid(`rsa_certificate_id ${id} is not in the certificate store of this organisation`);
  if (type !== 'rsa')
    throw KeysErrors.invalid(
      `rsa_certificate_id ${id} does not hold an RSA public key (it holds ${type}); rsa-sha256 signatures need one`,
    );
}
