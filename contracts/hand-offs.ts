import type { AuthHandOff } from './auth/hand-off';
import type { GraphqlEngineHandOff } from './graphql-engine/hand-off';
import type { LimiterHandOff } from './limiter/hand-off';
import type { StreamsHandOff } from './streams/hand-off';

/**
 * The in-process hand-offs a service offers the others of its node, by the name of the
 * service that offers it. They stay in process (they carry sockets and requests, or they are
 * the per-request checks whose bus overhead would cost more than the check), so they are
 * not actions (or not only); lib/hand-offs.ts keeps them on the node's Runtime.
 */
export interface HandOffMap {
  auth: AuthHandOff;
  'graphql-engine': GraphqlEngineHandOff;
  limiter: LimiterHandOff;
  streams: StreamsHandOff;
}
