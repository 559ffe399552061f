import { GwError } from '../../lib/errors';

export const OrgsErrors = {
  notFound: (id: string) => new GwError('GW_ERR_ORGS_NOT_FOUND', 404, `Organisation not found: ${id}`, { id }),
  /** a rule file that is not Rego, or not in the subset gw evaluates: names the construct and where */
  badRules: (detail: string, line: number, column: number) =>
    new GwError('GW_ERR_ORGS_INVALID', 400, `Invalid policy rules: ${detail}`, { line, column }),
  invalid: (message: string) => new GwError('GW_ERR_ORGS_INVALID', 400, message),
  idTaken: (id: string) =>
    new GwError('GW_ERR_ORGS_ID_TAKEN', 400, `An organisation with id ${id} already exists`, { id }),
};
