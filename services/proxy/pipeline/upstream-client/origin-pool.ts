import type { buildConnector } from 'undici';
import type { UpstreamRequest, UpstreamResponseHandler } from './exchange';

/** What the upstream step and UpstreamPools need of the pool for one origin, whichever client it is. */
export interface OriginPool {
  /** Sends a request; its handler hears onConnect at once, then the response or an error. */
  dispatch(request: UpstreamRequest, handler: UpstreamResponseHandler): void;
  /** whether a request is in flight or waiting */
  readonly busy: boolean;
  /** Closes the connections that have sat idle past their reuse. */
  closeExpired(): void;
  /** Stops taking requests and closes each connection once its exchange is done. */
  close(): Promise<void>;
  /** Closes every connection now, failing what is in flight. */
  destroy(): void;
}

export interface UpstreamPoolOptions {
  /** opens a connection (the tenant policy's connector: lib/net/tenant-agent.ts) */
  connect: buildConnector.connector;
  /** the most connections open to the origin at once; more requests wait their turn */
  maxConnections: number;
  /**
   * the longest a connection is reused after its last exchange (shorter when the upstream
   * announces a keep-alive timeout)
   */
  keepAliveMaxMs: number;
}
