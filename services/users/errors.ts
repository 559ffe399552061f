import { GwError } from '../../lib/errors';

export const UsersErrors = {
  notFound: (id: string) => new GwError('GW_ERR_USERS_NOT_FOUND', 404, `User not found: ${id}`, { id }),
  emailTaken: (email: string) =>
    new GwError('GW_ERR_USERS_EMAIL_TAKEN', 400, `User email already exists for this organisation: ${email}`, {
      email_address: email,
    }),
  unknownOrg: (orgId: string) =>
    new GwError('GW_ERR_USERS_UNKNOWN_ORG', 400, `Organisation ${orgId} does not exist`, { org_id: orgId }),
  badAccessKey: () => new GwError('GW_ERR_USERS_BAD_ACCESS_KEY', 403, 'Access key not recognised'),
  inactive: () => new GwError('GW_ERR_USERS_INACTIVE', 403, 'User account is inactive'),
  invalid: (message: string) => new GwError('GW_ERR_USERS_INVALID', 400, message),
  orgRequired: () => new GwError('GW_ERR_USERS_INVALID', 400, 'org_id is required'),
  wrongOrg: (orgId: string) =>
    new GwError(
      'GW_ERR_USERS_INVALID',
      400,
      `org_id '${orgId}' is not your organisation; leave it out or send your own`,
    ),
  wrongPassword: () => new GwError('GW_ERR_USERS_BAD_PASSWORD', 403, 'Current password is not correct'),
  badLogin: () => new GwError('GW_ERR_USERS_BAD_LOGIN', 401, 'Email address or password not correct'),
  badSession: () => new GwError('GW_ERR_USERS_BAD_ACCESS_KEY', 403, 'Session expired or not recognised; log in again'),
  badNonce: () =>
    new GwError(
      'GW_ERR_USERS_BAD_LOGIN',
      401,
      'Single sign-on nonce is not valid: it was used already, has expired, or never existed',
    ),
  portalUnsupported: () =>
    new GwError(
      'GW_ERR_USERS_INVALID',
      400,
      "ForSection 'portal' is not supported: gw has no developer portal; use 'dashboard'",
    ),
  groupNotFound: (id: string) =>
    new GwError('GW_ERR_USERS_GROUP_NOT_FOUND', 404, `User group not found: ${id}`, { id }),
  /** a right the actor does not hold itself, given to a user or group */
  grantBeyondOwn: (permission: string) =>
    new GwError(
      'GW_ERR_USERS_FORBIDDEN',
      403,
      permission === 'IsAdmin'
        ? 'Access denied: only administrators can make an administrator'
        : `Access denied: you can not grant the '${permission}' permission at a level you do not hold`,
      { permission },
    ),
  /** a user or group holding what the actor does not: it may not be changed by the actor */
  outranks: (subject: 'user' | 'user group', permission: string) =>
    new GwError(
      'GW_ERR_USERS_FORBIDDEN',
      403,
      permission === 'IsAdmin'
        ? `Access denied: this ${subject} is an administrator; only administrators can change it`
        : `Access denied: this ${subject} holds the '${permission}' permission at a level you do not`,
      { permission },
    ),
  unknownGroup: (id: string) =>
    new GwError(
      'GW_ERR_USERS_INVALID',
      400,
      `group_id names a user group that does not exist in this organisation: ${id}`,
      { id },
    ),
};
