import type { Policy } from '../../../contracts/keys/session';
import { KeysErrors } from '../errors';
import { assertAllowedUrlsCompile } from './allowed-urls';
import { assertMcpAccessValid } from './mcp-access-checks';

export type FindApi = (
  apiId: string,
  orgScope: string | undefined,
) => Promise<{ api_id: string; name: string; org_id: string } | undefined>;

/**
 * A policy may only grant access to APIs that exist in its organisation (any organisation for a
 * policy without one, made on the gateway API). Each access right is keyed by its API's id, and
 * its allowed_urls compile.
 */
export async function assertPolicyApisExist(policy: Policy, findApi: FindApi): Promise<void> {
  const scope = policy.org_id === '' ? undefined : policy.org_id;
  for (const [apiId, access] of Object.entries(policy.access_rights ?? {})) {
    if (access.api_id !== undefined && access.api_id !== apiId)
      throw KeysErrors.invalid(`access_rights.${apiId}.api_id must be ${apiId}`);
    assertAllowedUrlsCompile(apiId, access);
    assertMcpAccessValid(apiId, access);
    if (!(await findApi(apiId, scope)))
      throw KeysErrors.invalid(`access_rights names an API that does not exist in the policy's organisation: ${apiId}`);
  }
}
