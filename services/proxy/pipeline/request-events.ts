import type { GatewayEventName } from '../../../contracts/events';
import type { LimiterEvent } from '../../../contracts/limiter/actions';
import type { RequestContext } from './request-context';

/**
 * Publishes a gateway event about a request: meta holds its path and client address (and what
 * `details.meta` adds), key the request's key hash unless `details.key` names another (an
 * organisation's events name the organisation).
 */
export type EmitRequestEvent = (
  event: GatewayEventName,
  ctx: RequestContext,
  message: string,
  details?: { key?: string; meta?: Record<string, unknown> },
) => void;

/** The event the limiter handed back for a refusal (`events: 'returned'`), published about the request it refused. */
export function emitLimiterEvent(emit: EmitRequestEvent, ctx: RequestContext, event: LimiterEvent, key?: string): void {
  emit(event.event, ctx, event.message, { meta: event.meta, ...(key === undefined ? {} : { key }) });
}
