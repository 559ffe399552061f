import type { ApiDefinition } from './api-definition';

/**
 * Broadcast (to every node, not balanced) after a definition is committed, so every gateway
 * node updates its routing table. `revision` is the store revision of the change: one more
 * than the previous change's, so a gateway node that sees a gap knows it missed one.
 */
export const APIS_CHANGED = 'apis.changed';

export type ApisChangedEvent =
  | { action: 'created' | 'updated'; definition: ApiDefinition; revision: number }
  | { action: 'deleted'; id: string; api_id: string; revision: number };

/**
 * Broadcast by a node running `apis` whenever the set of nodes or services it sees changes
 * (a gateway node joined or came back): the store's current revision, so a gateway node that
 * missed changes before the store node could reach it re-syncs.
 */
export const APIS_REVISION = 'apis.revision';
export interface ApisRevisionEvent {
  revision: number;
}

/** Broadcast by `GET /gw/reload/group`: every gateway node reloads its definitions. */
export const GATEWAY_RELOAD = 'gw.reload';
/** Broadcast by DELETE /gw/cache/{api_id}: every gateway node drops its cached responses of the API. */
/**
 * Every gateway node forgets the JSON Web Key Sets (and OpenID Connect discovery) it fetched for
 * an API, or for every API when `api_id` is absent (`DELETE /gw/cache/jwks[/{apiID}]`).
 */
export const GATEWAY_JWKS_FLUSH = 'gw.jwks.flush';
export interface GatewayJwksFlushEvent {
  api_id?: string;
}

export const GATEWAY_CACHE_INVALIDATE = 'gw.cache.invalidate';
export interface GatewayCacheInvalidateEvent {
  api_id: string;
}
