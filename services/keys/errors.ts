import { GwError } from '../../lib/errors';

/** Errors of the `keys` service (keys, basic-auth users and policies). */
export const KeysErrors = {
  notFound: (key: string) =>
    new GwError('GW_ERR_KEYS_NOT_FOUND', 404, 'Key not found', { key: key.length > 12 ? `${key.slice(0, 6)}…` : key }),
  hashedLookupWithoutHashing: () =>
    new GwError('GW_ERR_KEYS_INVALID', 400, 'Key requested by hash but key hashing is not enabled'),
  invalid: (message: string) => new GwError('GW_ERR_KEYS_INVALID', 400, message),
  taken: () => new GwError('GW_ERR_KEYS_TAKEN', 400, 'Key already exists'),
  basicUserTaken: (username: string) =>
    new GwError('GW_ERR_KEYS_TAKEN', 400, `Basic auth user ${username} already exists; use PUT to update it`),
  wrongOrg: (orgId: string) =>
    new GwError(
      'GW_ERR_KEYS_WRONG_ORG',
      400,
      `org_id '${orgId}' is not your organisation; leave it out or send your own`,
      { org_id: orgId },
    ),
  listingDisabled: () =>
    new GwError(
      'GW_ERR_KEYS_LISTING_DISABLED',
      400,
      'Keys are hashed, so they can not be listed; set GW_ENABLE_HASHED_KEYS_LISTING=true to list key hashes (enable_hashed_keys_listing)',
    ),
  // the reference gateway's text for an organisation without a session
  orgSessionNotFound: (orgId: string) =>
    new GwError('GW_ERR_KEYS_ORG_SESSION_NOT_FOUND', 404, 'Org not found', { org_id: orgId }),
  // the reference gateway's text; the id stays in the error's data
  policyNotFound: (id: string) => new GwError('GW_ERR_POLICIES_NOT_FOUND', 404, 'Policy not found', { id }),
  unknownPolicy: (id: string) =>
    new GwError('GW_ERR_KEYS_INVALID', 400, `apply_policies names a policy that does not exist: ${id}`, { id }),
  policyTaken: (id: string) =>
    new GwError('GW_ERR_POLICIES_TAKEN', 400, `A policy with id ${id} already exists`, { id }),
};
