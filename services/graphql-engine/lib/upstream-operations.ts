import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { fetch as undiciFetch, request } from 'undici';
import WebSocket from 'ws';
import { tenantAgent, tenantWebSocketConnection } from '../../../lib/net/tenant-agent';

/**
 * Upstream URLs here are a tenant's (a data source, a subgraph, an API's target): every
 * connection, HTTP, SSE or WebSocket, follows the outbound policy on the address it reaches
 * (no cloud-metadata address, none of this node's own ports).
 */
const upstreamAgent = tenantAgent({ keepAliveTimeout: 10_000 });
// graphql-sse keeps only the message of a failed fetch ("fetch failed"): hand it the reason instead
const sseFetch = (input: string | URL, init?: Record<string, unknown>) =>
  undiciFetch(input, { ...init, dispatcher: upstreamAgent }).catch((err: Error) => {
    throw err.cause instanceof Error ? err.cause : err;
  });

/** ws options that connect through the outbound policy (before the upgrade request is written). */
function wsOptions(url: string, headers: Record<string, string>): WebSocket.ClientOptions {
  return {
    headers,
    createConnection: tenantWebSocketConnection(/^wss:/i.test(url)) as WebSocket.ClientOptions['createConnection'],
  };
}

export type UpstreamSubscriptionType = 'graphql-ws' | 'graphql-transport-ws' | 'sse';

export interface OperationPayload {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface OperationSink {
  next(result: unknown): void;
  error(errors: Array<{ message: string }>): void;
  complete(): void;
}

export interface UpstreamTarget {
  /** the API's target_url (http or https) */
  url: string;
  headers: Record<string, string>;
  subscriptionType: UpstreamSubscriptionType;
}

/** A query or mutation received over WebSocket: one HTTP POST to the upstream. */
export async function runOverHttp(
  target: UpstreamTarget,
  payload: OperationPayload,
  sink: OperationSink,
): Promise<void> {
  try {
    const response = await request(target.url, {
      dispatcher: upstreamAgent,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: JSON.stringify(payload),
    });
    sink.next(await response.body.json());
    sink.complete();
  } catch (err) {
    sink.error([{ message: `upstream request failed: ${(err as Error).message}` }]);
  }
}

/**
 * A subscription to the upstream over the protocol the API names
 * (`graphql.proxy.subscription_type`). Returns the function that stops it. An upstream that
 * drops the connection ends the operation with an error, never a silent hang.
 */
export function subscribeUpstream(target: UpstreamTarget, payload: OperationPayload, sink: OperationSink): () => void {
  if (target.subscriptionType === 'sse') return subscribeSse(target, payload, sink);
  if (target.subscriptionType === 'graphql-transport-ws') return subscribeTransportWs(target, payload, sink);
  return subscribeLegacyWs(target, payload, sink);
}

function wsUrl(url: string): string {
  return url.replace(/^http/i, 'ws');
}

function subscribeTransportWs(target: UpstreamTarget, payload: OperationPayload, sink: OperationSink): () => void {
  const headers = target.headers;
  class WithHeaders extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, wsOptions(address, headers));
    }
  }
  const client = createWsClient({ url: wsUrl(target.url), webSocketImpl: WithHeaders, lazy: true, retryAttempts: 0 });
  const dispose = () => void client.dispose();
  return relay(sink, dispose, (observer) => client.subscribe(payload, observer));
}

function subscribeSse(target: UpstreamTarget, payload: OperationPayload, sink: OperationSink): () => void {
  const client = createSseClient({
    url: target.url,
    headers: target.headers,
    singleConnection: false,
    retryAttempts: 0,
    fetchFn: sseFetch,
  });
  return relay(
    sink,
    () => client.dispose(),
    (observer) => client.subscribe(payload, observer),
  );
}

interface Observer {
  next(value: unknown): void;
  error(err: unknown): void;
  complete(): void;
}

/**
 * Connects a client library's subscription (graphql-ws, graphql-sse) to the sink: an error or
 * the end reaches the sink once, and the client is disposed when the operation ends or is stopped.
 */
function relay(sink: OperationSink, dispose: () => void, subscribe: (observer: Observer) => () => void): () => void {
  let ended = false;
  const end = (outcome: () => void) => {
    if (ended) return;
    ended = true;
    outcome();
    dispose();
  };
  const unsubscribe = subscribe({
    next: (value) => {
      if (!ended) sink.next(value);
    },
    error: (err) => end(() => sink.error([{ message: `upstream subscription failed: ${describe(err)}` }])),
    complete: () => end(() => sink.complete()),
  });
  return () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    dispose();
  };
}

/** The one operation a legacy upstream connection carries. */
const OPERATION_ID = '1';

/** The legacy `graphql-ws` protocol (subscriptions-transport-ws), the reference's default. */
function subscribeLegacyWs(target: UpstreamTarget, payload: OperationPayload, sink: OperationSink): () => void {
  const socket = new WebSocket(wsUrl(target.url), 'graphql-ws', wsOptions(wsUrl(target.url), target.headers));
  let ended = false;
  const finish = (outcome: () => void) => {
    if (ended) return;
    ended = true;
    outcome();
    socket.close();
  };
  socket.on('open', () => {
    socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    socket.send(JSON.stringify({ id: OPERATION_ID, type: 'start', payload }));
  });
  socket.on('message', (data) => {
    // Frames already read when the operation ended (its error, say) are not relayed.
    if (ended) return;
    const message = parseFrame(data);
    if (!message) return finish(() => sink.error([{ message: 'upstream subscription sent an invalid message' }]));
    if (message.id !== undefined && message.id !== OPERATION_ID) return;
    if (message.type === 'data') sink.next(message.payload);
    else if (message.type === 'error')
      finish(() =>
        sink.error(Array.isArray(message.payload) ? message.payload : [{ message: describe(message.payload) }]),
      );
    else if (message.type === 'complete') finish(() => sink.complete());
    else if (message.type === 'connection_error')
      finish(() => sink.error([{ message: `upstream refused the connection: ${describe(message.payload)}` }]));
  });
  socket.on('error', (err) => finish(() => sink.error([{ message: `upstream subscription failed: ${err.message}` }])));
  socket.on('close', () => finish(() => sink.error([{ message: 'upstream subscription connection closed' }])));
  return () => {
    if (ended) return;
    ended = true;
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ id: OPERATION_ID, type: 'stop' }));
    socket.close();
  };
}

/** A frame from the upstream: JSON, an object, with a string `type`; anything else is undefined. */
function parseFrame(data: WebSocket.RawData): { type: string; id?: unknown; payload?: unknown } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data.toString());
  } catch {
    return undefined;
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const frame = message as { type?: unknown; id?: unknown; payload?: unknown };
  return typeof frame.type === 'string' ? { type: frame.type, id: frame.id, payload: frame.payload } : undefined;
}

function describe(err: unknown): string {
  // fetch (SSE) fails with "fetch failed" and the reason as its cause
  if (err instanceof Error) return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
  if (Array.isArray(err)) return err.map((e) => (e as { message?: string }).message ?? String(e)).join('; ');
  if (err && typeof err === 'object' && 'reason' in err) return String(err.reason || (err as { code?: unknown }).code);
  // a WebSocket ErrorEvent (graphql-ws hands the socket's over): the error it carries
  if (err && typeof err === 'object' && 'error' in err && err.error instanceof Error)
    return (err as { error: Error }).error.message;
  return String(err);
}
