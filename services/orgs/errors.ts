import { GwError } from '../../lib/errors';

export const OrgsErrors = {
  notFound: (id: string) => new GwError('GW_ERR_ORGS_NOT_FOUND', 404, `Organisation not found: ${id}`, { id }),
  invalid: (message: string) => new GwError('GW_ERR_ORGS_INVALID', 400, message),
  idTaken: (id: string) => new GwError('GW_ERR_ORGS_ID_TAKEN', 400, `An organisation with id ${id} already exists`, { id }),
};
