import { GwError } from '../../lib/errors';

export const UsersErrors = {
  notFound: (id: string) => new GwError('GW_ERR_USERS_NOT_FOUND', 404, `User not found: ${id}`, { id }),
  emailTaken: (email: string) => new GwError('GW_ERR_USERS_EMAIL_TAKEN', 400, `User email already exists for this organisation: ${email}`, { email_address: email }),
  unknownOrg: (orgId: string) => new GwError('GW_ERR_USERS_UNKNOWN_ORG', 400, `Organisation ${orgId} does not exist`, { org_id: orgId }),
  badAccessKey: () => new GwError('GW_ERR_USERS_BAD_ACCESS_KEY', 403, 'Access key not recognised'),
  inactive: () => new GwError('GW_ERR_USERS_INACTIVE', 403, 'User account is inactive'),
};
