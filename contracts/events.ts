/**
 * Gateway events (docs/webhooks-and-events.md#gateway-events), published on the bus as
 * `gw.event.<Name>` with one common envelope. Consumers (webhooks, analytics) subscribe to the
 * names they handle.
 */
export const GATEWAY_EVENT_PREFIX = 'gw.event.';

export type GatewayEventName =
  | 'QuotaExceeded'
  /** the reference gateway's spelling, lower-case l (its Go constant is RateLimitExceeded) */
  | 'RatelimitExceeded'
  /** an organisation session's quota or rate limit refused a request (key: the organisation id) */
  | 'OrgQuotaExceeded'
  | 'OrgRateLimitExceeded'
  | 'RateLimitSmoothingUp'
  | 'RateLimitSmoothingDown'
  | 'AuthFailure'
  | 'KeyExpired'
  | 'VersionExpired'
  /** an uptime test took a host out (meta: the check's report) */
  | 'HostDown'
  | 'HostUp'
  /** a circuit breaker changed state (meta.CircuitEvent: 0 tripped, 1 reset), sent with BreakerTripped or BreakerReset */
  | 'BreakerTriggered'
  | 'BreakerTripped'
  | 'BreakerReset'
  /** an MCP call used a tool, resource or prompt the API or the key does not allow (message: which one) */
  | 'MCPPrimitiveDenied';

export interface GatewayEvent {
  event: GatewayEventName;
  /** ISO 8601 */
  time: string;
  api_id: string;
  org_id: string;
  /** the key hash the event is about, when there is a key */
  key: string;
  message: string;
  /** the node that saw it */
  origin: string;
  /** event-specific details */
  meta?: Record<string, unknown>;
  /**
   * the trace context of the request the event is about, as propagation headers (`traceparent`,
   * `b3`), when the gateway traced it: a webhook delivery joins that trace. Not part of the
   * event a webhook receives.
   */
  trace_headers?: Record<string, string>;
}
