import { fetchJson as fetchOverNetwork, type FetchJson } from './fetch-json';
import { DEFAULT_KEY_SET_LIMITS, KeySets, type KeySetLimits } from './key-sets';
import { OpenIdDiscovery } from './openid-discovery';

/**
 * What a gateway node knows of the identity providers its APIs trust: key sets by URL and
 * OpenID Connect discovery by issuer. One per node, kept across reloads (a changed API does not
 * refetch keys it already has); flushed by `DELETE /gw/cache/jwks`.
 */
export class IdentityProviders {
  readonly keySets: KeySets;
  readonly discovery: OpenIdDiscovery;

  constructor(fetchJson: FetchJson = fetchOverNetwork, limits: KeySetLimits = DEFAULT_KEY_SET_LIMITS) {
    this.keySets = new KeySets(fetchJson, limits);
    this.discovery = new OpenIdDiscovery(fetchJson);
  }

  /** Forget the keys one API's tokens were verified with, or every provider's when `apiId` is undefined. */
  flush(apiId?: string): void {
    this.keySets.flush(apiId);
    if (apiId === undefined) this.discovery.flush();
  }
}
