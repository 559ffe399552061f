import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiDefinition } from '../apis/api-definition';
import type { Session } from '../keys/session';

/**
 * The in-process hand-off from proxy to graphql-engine (docs/architecture.md#the-request-path):
 * proxy runs an API's chain (version, IP rules, authentication, limits) and hands GraphQL requests
 * and WebSocket upgrades over to the engine of the same node. Types only: the engine registers its
 * implementation on the node's Runtime (lib/hand-offs.ts), proxy looks it up there.
 */
export interface GraphqlEngineHandOff {
  /**
   * Compiles the GraphQL side of an API, once, with its chain. Throws when its GraphQL settings
   * can not be served (an unsupported execution mode, no schema): the API is then not served.
   */
  compile(definition: ApiDefinition, lookup?: ApiLookup): GraphqlApi;
}

/**
 * Another API this node knows, by internal id, api_id or name, in one organisation: how a
 * supergraph finds the subgraph APIs its `gw://<name or id>` URLs name. proxy notes each lookup
 * and compiles the API again when an API it looked up changes.
 */
export type ApiLookup = (ref: string, orgId: string) => ApiDefinition | undefined;

/** How the upstream of a GraphQL API speaks subscriptions (`graphql.proxy.subscription_type`). */
export type GraphqlSubscriptionType = 'graphql-ws' | 'graphql-transport-ws' | 'sse';

export interface GraphqlUpstream {
  /** the API's target URL (http or https) */
  url: string;
  /** headers sent with every upstream operation (`graphql.proxy.request_headers`) */
  headers: Record<string, string>;
  subscriptionType: GraphqlSubscriptionType;
}

/** A refusal in the shape the reference gateway uses for it. */
export interface GraphqlRefusal {
  status: number;
  body: unknown;
}

/** A reply the engine gives whole: a page or asset of the API's playground. */
export interface GraphqlPageReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A GraphQL operation as a client sent it (POST body or GET query string). */
export interface GraphqlOperation {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string;
}

/** One GraphQL API, compiled. */
export interface GraphqlApi {
  /**
   * false: proxy forwards checked operations to the API's target (proxy-only, exposed
   * subgraphs); true: the engine answers them itself through `execute` (a combined graph or a
   * supergraph).
   */
  readonly executesOperations: boolean;
  /**
   * Runs an operation that passed `refusal` (or a persisted query) and gives the GraphQL response.
   * `headers` are the client's; `globalHeaders` the API's global headers for this request (a
   * supergraph sends them to every subgraph it touches).
   */
  execute(
    operation: GraphqlOperation,
    request: { headers: IncomingHttpHeaders; globalHeaders: Record<string, string>; trace?: OutboundTrace },
  ): Promise<{ status: number; body: unknown }>;
  /** What /gw/health should say about this API (parts that can not run on this node yet); empty when nothing. */
  readonly notices: readonly string[];
  /** The playground page or asset for a GET of this path below the listen path; undefined when it is not the playground's. */
  playground(relativePath: string): GraphqlPageReply | undefined;
  /** Why this caller may not run this operation (invalid, too deep, a restricted field, introspection), or undefined. */
  refusal(query: string, operationName: string | undefined, session: Session | undefined): GraphqlRefusal | undefined;
  /** Whether the client offers a WebSocket subprotocol gw speaks (`sec-websocket-protocol`). */
  speaksProtocol(offered: string | undefined): boolean;
  /** Takes over an upgrade that passed the API's chain: operations run against `upstream` (proxy-only) or the graph's data sources. */
  acceptSubscriptions(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    options: { session: Session | undefined; upstream: GraphqlUpstream },
  ): void;
}

/**
 * Puts the engine's calls for one request (subgraph fetches, data sources) in that request's
 * trace; given only when the gateway traces the request.
 */
export interface OutboundTrace {
  /**
   * Starts a client span named `name` for one call to `url` (with `method`, POST when not
   * given), writes its trace context into `headers` (which go with the call), and returns what
   * ends it: with the error when the call got no answer.
   */
  start(name: string, url: string, headers: Record<string, string>, method?: string): (failure?: Error) => void;
  /**
   * Starts a producer span for one message sent to `destination` (a topic, subject or exchange)
   * of a message broker (`system`: kafka, nats, rabbitmq), writes its trace context into
   * `headers` (which go with the message), and returns what ends it: with the error when the
   * broker did not take the message.
   */
  publish(system: string, destination: string, headers: Record<string, string>): (failure?: Error) => void;
}
