import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { OAuthApiSettings } from '../../../contracts/oauth/actions';

/** What the oauth service reads of a definition, or undefined when the API does not use OAuth 2.0. */
export function oauthSettingsOf(definition: ApiDefinition): OAuthApiSettings | undefined {
  if (definition.use_oauth2 !== true) return undefined;
  return {
    api_id: definition.api_id,
    org_id: definition.org_id ?? '',
    name: definition.name,
    oauth_meta: objectOrUndefined(definition.oauth_meta),
    notifications: objectOrUndefined(definition.notifications),
  };
}

function objectOrUndefined<T>(value: unknown): T | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as T) : undefined;
}
