import type { OutboundTrace } from '../../../contracts/graphql-engine/hand-off';

/** A message on its way through a stream: a body and metadata (HTTP headers, path, query, …). */
export interface StreamMessage {
  content: Buffer;
  metadata: Record<string, unknown>;
  /** the error a processor flagged on it (Bento's error flag), read by `error()` in mappings */
  error?: string | null;
  /** when the input received it (performance.now(), ms), for the latency counters */
  receivedAt: number;
  /** the trace of the gateway request it came in with (an http_server input), when traced */
  trace?: OutboundTrace;
}

export function newMessage(content: Buffer | string, metadata: Record<string, unknown> = {}): StreamMessage {
  return {
    content: typeof content === 'string' ? Buffer.from(content) : content,
    metadata,
    receivedAt: performance.now(),
  };
}

export function copyMessage(message: StreamMessage, changes: Partial<StreamMessage> = {}): StreamMessage {
  return { ...message, metadata: { ...message.metadata }, ...changes };
}
