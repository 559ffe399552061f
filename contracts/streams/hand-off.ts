import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiDefinition } from '../apis/api-definition';
import type { StreamsApiStats } from './actions';
import type { OutboundTrace } from '../graphql-engine/hand-off';

/**
 * The in-process hand-off from proxy to streams (docs/architecture.md#the-request-path): proxy runs
 * a stream API's chain (authentication, limits) and hands the requests of its `http_server`
 * endpoints over to the streams of the same node, which answer instead of an upstream. Types only:
 * the streams service registers its implementation on the node's Runtime (lib/hand-offs.ts).
 */
export interface StreamsHandOff {
  /**
   * Starts the streams of an API (`streaming`), keeps them when unchanged, or replaces them
   * (draining the old ones) when changed. Throws when they can not run: the API is then not served.
   */
  compile(definition: ApiDefinition): StreamApi;
  /** Stops, after draining, the streams of every API not in `apiIds` (deleted, deactivated). */
  retain(apiIds: ReadonlySet<string>): void;
  /** Counters of every running stream, by API id (for /gw/health). */
  stats(): Record<string, StreamsApiStats>;
}

/** One request to a path below a stream API's listen path, after the API's chain let it through. */
export interface StreamRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** the path below the listen path */
  relativePath: string;
  /** the query string with its `?`, or '' */
  search: string;
  /** the body, read once by whoever reads it first */
  readBody(): Promise<Buffer>;
  /** the request's trace, when the gateway traces it: the message's HTTP outputs are spans of it */
  trace?: OutboundTrace;
}

/** The endpoints of one API's streams. */
export interface StreamApi {
  /** Answers a request to one of the streams' endpoints; false when the path is none of theirs. */
  handle(request: StreamRequest): boolean;
  /** Takes over a WebSocket upgrade of a `ws_path`; false when the path is none of theirs. */
  upgrade(request: Omit<StreamRequest, 'res' | 'readBody'>, socket: Duplex, head: Buffer): boolean;
}
