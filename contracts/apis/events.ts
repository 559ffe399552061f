import type { ApiDefinition } from './api-definition';

/**
 * Broadcast (to every node, not balanced) after a definition is committed, so every gateway
 * node updates its routing table.
 */
export const APIS_CHANGED = 'apis.changed';

export type ApisChangedEvent =
  | { action: 'created' | 'updated'; definition: ApiDefinition }
  | { action: 'deleted'; id: string; api_id: string };

/** Broadcast by `GET /gw/reload/group`: every gateway node reloads its definitions. */
export const GATEWAY_RELOAD = 'gw.reload';
