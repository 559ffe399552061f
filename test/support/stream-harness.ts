import type { ConnectorEnv, Input, Output, Sink, StreamMessage } from '../../services/streams/connectors/contract';

/**
 * The smallest stream for connector tests: an input's messages go straight to what the test
 * decides (accept, hold, refuse). The runtime's own Stream class is tested on its own.
 */
export const testEnv = (ownPorts: number[] = []): ConnectorEnv & { warnings: string[] } => {
  const warnings: string[] = [];
  return { ownPorts: () => new Set(ownPorts), warnings, log: (_level, message) => void warnings.push(message) };
};

export interface Received {
  text: string;
  metadata: Record<string, unknown>;
}

/** starts an input whose sink records every message and accepts it unless `hold` says otherwise */
export function collectFrom(
  input: Input,
  hold: (text: string) => boolean = () => false,
): { received: Received[]; held: Array<() => void> } {
  const received: Received[] = [];
  const held: Array<() => void> = [];
  const sink: Sink = async (messages) => {
    for (const m of messages) received.push({ text: m.content.toString(), metadata: m.metadata });
    if (messages.some((m) => hold(m.content.toString()))) await new Promise<void>((resolve) => held.push(resolve));
    return messages;
  };
  input.start(sink);
  return { received, held };
}

/** pipes an input into an output, retrying a failing write as the runtime does */
export function pipe(input: Input, output: Output): void {
  input.start(async (messages: StreamMessage[]) => {
    for (const m of messages) {
      for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
        try {
          await output.write(m);
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    }
    return messages;
  });
}

export const texts = (list: Received[]) => list.map((r) => r.text);
