import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type WebSocket from 'ws';
import type { Session } from '../../../contracts/keys/session';
import type { AnalysedOperation } from './analyse-operation';
import type { GraphqlGate } from './graphql-gate';
import {
  runOverHttp,
  subscribeUpstream,
  type OperationPayload,
  type OperationSink,
  type UpstreamTarget,
} from './upstream-operations';

/** Runs one checked operation of a client's socket; returns what stops it. */
export type OperationRunner = (
  payload: OperationPayload,
  analysed: AnalysedOperation,
  sink: OperationSink,
) => () => void;

/** `graphql-transport-ws` (the graphql-ws library) and the legacy `graphql-ws` (subscriptions-transport-ws). */
export type ClientProtocol = 'graphql-transport-ws' | 'graphql-ws';

export interface SessionOptions {
  gate: GraphqlGate;
  session: Session | undefined;
  /** how operations run: forwarded to the upstream (proxy-only) or executed by a combined graph */
  run: OperationRunner;
  /** a connection without `connection_init` is closed after this long (GW_GRAPHQL_WS_INIT_TIMEOUT) */
  initTimeoutMs: number;
}

/** The close codes of the graphql-ws protocol. */
const CLOSE = { badRequest: 4400, initTimeout: 4408, duplicateId: 4409, tooManyInits: 4429, unauthorised: 4401 };

/**
 * One client's GraphQL WebSocket connection: the `connection_init` handshake within the timeout,
 * operations checked by the API's rules (validation, depth, field permissions, introspection),
 * queries and mutations answered once, subscriptions streamed from the upstream until it ends
 * them or the client completes them. A duplicate operation id or an invalid message type
 * closes the connection.
 */
export function runSubscriptionSession(socket: WebSocket, protocol: ClientProtocol, options: SessionOptions): void {
  const legacy = protocol === 'graphql-ws';
  const operations = new Map<string, () => void>();
  let initialised = false;
  const initTimer = setTimeout(() => {
    if (!initialised) socket.close(CLOSE.initTimeout, 'Connection initialisation timeout');
  }, options.initTimeoutMs);
  const send = (message: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const stopAll = () => {
    clearTimeout(initTimer);
    for (const stop of operations.values()) stop();
    operations.clear();
  };
  socket.on('close', stopAll);
  socket.on('error', stopAll);

  socket.on('message', (data) => {
    let message: { id?: string; type?: string; payload?: unknown };
    try {
      message = JSON.parse(data.toString());
    } catch {
      return socket.close(CLOSE.badRequest, 'Invalid message received');
    }
    if (!message || typeof message !== 'object' || Array.isArray(message))
      return socket.close(CLOSE.badRequest, 'Invalid message received');
    switch (message.type) {
      case 'connection_init':
        if (initialised) return socket.close(CLOSE.tooManyInits, 'Too many initialisation requests');
        initialised = true;
        clearTimeout(initTimer);
        return send({ type: 'connection_ack' });
      case 'ping':
        return send({ type: 'pong' });
      case 'pong':
        return undefined;
      case 'connection_terminate':
        return legacy ? socket.close(1000) : socket.close(CLOSE.badRequest, 'Invalid message received');
      case 'subscribe':
      case 'start': {
        if ((message.type === 'start') !== legacy)
          return socket.close(CLOSE.badRequest, `Invalid message type: ${message.type}`);
        if (!initialised) return socket.close(CLOSE.unauthorised, 'Unauthorized');
        const id = message.id;
        if (typeof id !== 'string' || id === '') return socket.close(CLOSE.badRequest, 'Invalid message received');
        if (operations.has(id)) return socket.close(CLOSE.duplicateId, `Subscriber for ${id} already exists`);
        return start(id, message.payload as OperationPayload);
      }
      case 'complete':
      case 'stop': {
        if ((message.type === 'stop') !== legacy)
          return socket.close(CLOSE.badRequest, `Invalid message type: ${message.type}`);
        const stop = operations.get(message.id ?? '');
        operations.delete(message.id ?? '');
        return stop?.();
      }
      default:
        return socket.close(CLOSE.badRequest, `Invalid message type: ${String(message.type)}`);
    }
  });

  function start(id: string, payload: OperationPayload): void {
    if (!payload || typeof payload.query !== 'string')
      return void socket.close(CLOSE.badRequest, 'Invalid message received');
    // An operation that ended (error, complete, stopped) sends nothing more for its id.
    const sink: OperationSink = {
      next: (result) => {
        if (operations.has(id)) send({ id, type: legacy ? 'data' : 'next', payload: result });
      },
      error: (errors) => {
        if (!operations.delete(id)) return;
        send({ id, type: 'error', payload: errors });
      },
      complete: () => {
        if (!operations.delete(id)) return;
        send({ id, type: 'complete' });
      },
    };
    const analysed = options.gate.analyse(payload.query, payload.operationName);
    const refusal = options.gate.refusal(analysed, options.session);
    operations.set(id, () => undefined);
    if (refusal) return sink.error(refusalErrors(refusal.body));
    operations.set(id, options.run(payload, analysed, sink));
  }
}

/** A proxy-only API's operations: subscriptions streamed from its upstream, the rest one HTTP POST each. */
export function forwardingRunner(upstream: UpstreamTarget): OperationRunner {
  return (payload, _analysed, sink) => {
    if (isSubscription(payload)) return subscribeUpstream(upstream, payload, sink);
    void runOverHttp(upstream, payload, sink);
    return () => undefined;
  };
}

export function isSubscription(payload: OperationPayload): boolean {
  const operations = parse(payload.query).definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = payload.operationName
    ? operations.find((o) => o.name?.value === payload.operationName)
    : operations[0];
  return operation?.operation === 'subscription';
}

/** The gate's refusal bodies, as the GraphQL errors of an `error` message. */
function refusalErrors(body: unknown): Array<{ message: string }> {
  const shaped = body as { errors?: Array<{ message: string }>; error?: string };
  return shaped.errors ?? [{ message: shaped.error ?? 'refused' }];
}
