import type { AccessDefinition } from '../../../contracts/keys/session';
import { compileTenantPattern } from '../../../lib/patterns/tenant-pattern';
import { KeysErrors } from '../errors';

/**
 * Every `allowed_urls[].url` must compile the way the gateway compiles it (RE2, lib/patterns: no
 * backreferences, no lookarounds); one that does not would allow nothing, so a key or policy
 * holding it is refused when it is saved, naming the field.
 */
export function assertAllowedUrlsCompile(apiId: string, access: Pick<AccessDefinition, 'allowed_urls'>): void {
  for (const [i, rule] of (access.allowed_urls ?? []).entries()) {
    try {
      compileTenantPattern(rule.url);
    } catch (err) {
      throw KeysErrors.invalid(
        `access_rights.${apiId}.allowed_urls[${i}].url is not a valid pattern: ${(err as Error).message}`,
      );
    }
  }
}
