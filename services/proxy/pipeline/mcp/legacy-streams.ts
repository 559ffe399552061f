import type { JsonRpcId, JsonRpcResponse } from './jsonrpc';

/** An open older-transport stream: its list requests, and how to send it the gateway's own answers. */
export interface LegacyStream {
  lists: Map<JsonRpcId, string>;
  send(message: JsonRpcResponse): void;
}

/**
 * The older HTTP+SSE transport answers a POSTed message on the client's GET stream, not on the
 * POST: the list requests a POST carries are noted against the stream whose `endpoint` it was
 * sent to, so the stream can filter their answers, and the gateway's refusals of them go on that stream too.
 * Entries live while their stream is open, and are kept by API id and endpoint outside the
 * compiled API, so a reload of the API in between does not lose them (the endpoint holds the
 * upstream's session id, which no other client knows).
 */
export class LegacyStreams {
  private readonly streams = new Map<string, LegacyStream>();

  open(endpoint: string, stream: LegacyStream): void {
    this.streams.set(endpoint, stream);
  }

  close(endpoint: string): void {
    this.streams.delete(endpoint);
  }

  /** The stream whose endpoint is `pathAndQuery` (below the listen path). */
  streamFor(pathAndQuery: string): LegacyStream | undefined {
    return this.streams.get(pathAndQuery);
  }
}

/** The streams of every MCP API of this process (entries are keyed by api_id and endpoint). */
export const legacyStreams = new LegacyStreams();
