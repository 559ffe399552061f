import type { JsonRpcId } from './jsonrpc';

/**
 * The older HTTP+SSE transport answers a POSTed message on the client's GET stream, not on the
 * POST: the list requests a POST carries are noted against the stream whose `endpoint` it was
 * sent to, so the stream can filter their answers. Entries live while their stream is open.
 */
export class LegacyStreams {
  private readonly streams = new Map<string, Map<JsonRpcId, string>>();

  open(endpoint: string, lists: Map<JsonRpcId, string>): void {
    this.streams.set(endpoint, lists);
  }

  close(endpoint: string): void {
    this.streams.delete(endpoint);
  }

  /** The list requests of the stream whose endpoint is `pathAndQuery` (below the listen path). */
  listsFor(pathAndQuery: string): Map<JsonRpcId, string> | undefined {
    return this.streams.get(pathAndQuery);
  }
}
