import { GwError } from '../../lib/errors';

/** Errors of the `certs` service. */
export const CertsErrors = {
  notFound: (id: string) => new GwError('GW_ERR_CERTS_NOT_FOUND', 404, `Certificate with id ${id} not found`, { id }),
  invalid: (message: string) => new GwError('GW_ERR_CERTS_INVALID', 400, message),
  keyUnreadable: (id: string) =>
    new GwError(
      'GW_ERR_CERTS_INVALID',
      500,
      `The private key of certificate ${id} can not be decrypted: was GW_SECRET changed since it was stored?`,
      { id },
    ),
  /** the reference gateway answers a duplicate with 403 and this message */
  exists: (id: string) => new GwError('GW_ERR_CERTS_EXISTS', 403, `Certificate with ${id} id already exists`, { id }),
};
