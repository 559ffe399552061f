/**
 * What the broker connectors need of the streams runtime: its connector interface and message,
 * and what a connector may reach (the outbound policy's own ports) and where it logs.
 */
export type { Input, Output, Sink } from '../lib/components';
export { newMessage, type StreamMessage } from '../lib/message';

export interface ConnectorEnv {
  /** ports of this node a tenant's stream may not reach on a local address */
  ownPorts(): ReadonlySet<number>;
  log(level: 'warn' | 'info', message: string): void;
}
