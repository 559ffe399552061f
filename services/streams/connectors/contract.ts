/**
 * The connector interface of the streams runtime (services/streams/lib/components.ts on the
 * runtime's branch), repeated structurally here so the broker connectors build on their own;
 * once both branches are merged this file should re-export the runtime's types instead.
 */

export interface StreamMessage {
  content: Buffer;
  metadata: Record<string, unknown>;
  error?: string | null;
  receivedAt: number;
}

/** resolves once the output accepted every message; rejects when the stream stopped first */
export type Sink = (messages: StreamMessage[]) => Promise<StreamMessage[]>;

export interface Input {
  start(sink: Sink): void;
  stop(): Promise<void>;
}

export interface Output {
  write(message: StreamMessage): Promise<StreamMessage | void>;
  close(): Promise<void>;
}

export interface ConnectorEnv {
  /** ports of this node a tenant's stream may not reach on a local address */
  ownPorts: ReadonlySet<number>;
  log(level: 'warn' | 'info', message: string): void;
}

export function newMessage(content: Buffer | string, metadata: Record<string, unknown> = {}): StreamMessage {
  return { content: typeof content === 'string' ? Buffer.from(content) : content, metadata, receivedAt: performance.now() };
}
