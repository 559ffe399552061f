import type { GraphqlEngineHandOff } from './graphql-engine/hand-off';
import type { StreamsHandOff } from './streams/hand-off';

/**
 * The in-process hand-offs a service offers the others of its node, by the name of the
 * service that offers it. They stay in process (they carry sockets and requests), so they are
 * not actions; lib/hand-offs.ts keeps them on the node's Runtime.
 */
export interface HandOffMap {
  'graphql-engine': GraphqlEngineHandOff;
  streams: StreamsHandOff;
}
