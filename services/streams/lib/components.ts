import type { Duplex } from 'node:stream';
import type { StreamRequest } from '../../../contracts/streams/hand-off';
import type { StreamMessage } from './message';

/**
 * What an input hands its messages to: resolves, with the processed messages (or the response
 * an output propagated), once the output accepted every one of them; rejects when the stream
 * stopped before that (the input then tells its client, who may send again: at-least-once).
 */
export type Sink = (messages: StreamMessage[]) => Promise<StreamMessage[]>;

export interface Input {
  start(sink: Sink): void;
  /** stops taking new messages (those in flight finish) */
  stop(): Promise<void>;
}

/** An output accepts one message at a time per call; a rejected write is retried by the stream. */
export interface Output {
  /** resolves once the message is accepted (written, delivered); may resolve with a response message */
  write(message: StreamMessage): Promise<StreamMessage | void>;
  close(): Promise<void>;
}

export interface Processor {
  /** returns the messages that go on (fewer when a mapping deleted one) */
  process(messages: StreamMessage[]): Promise<StreamMessage[]>;
}

/** HTTP endpoints a connector serves below the API's listen path. */
export interface Endpoint {
  path: string;
  /** answers a plain request; undefined when the endpoint takes upgrades only */
  request?(request: StreamRequest): void;
  /** takes over a WebSocket upgrade */
  upgrade?(request: Omit<StreamRequest, 'res' | 'readBody'>, socket: Duplex, head: Buffer): void;
}
