import { endWhenSettled } from '../../../lib/observability/tracing/end-when-settled';
import type { StreamMessage } from './contract';

/**
 * Sends a message to a broker, as a producer span of the gateway request it came in with when
 * that request is traced: `send` gets the trace context headers to put on the message (none for
 * a message from an untraced request or from a broker input).
 */
export function tracedPublish<T>(
  message: StreamMessage,
  system: string,
  destination: string,
  send: (traceHeaders: Record<string, string> | undefined) => Promise<T>,
): Promise<T> {
  if (!message.trace) return send(undefined);
  const headers: Record<string, string> = {};
  // the span first: it writes its context into the headers the message is sent with
  const end = message.trace.publish(system, destination, headers);
  return endWhenSettled(send(headers), end);
}
