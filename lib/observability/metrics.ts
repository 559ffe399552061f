import type { ServerResponse } from 'node:http';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { COUNTERS, read } from './counters';
import { customMetric } from './custom-metric';
import { GatewayMetrics } from './gateway-metrics';

/**
 * One node's Prometheus metrics: its own registry (not prom-client's global one, so several
 * nodes in one process keep theirs apart), the process metrics, the gateway's request
 * metrics, webhook deliveries and the analytics records dropped.
 */
export interface NodeMetrics {
  registry: Registry;
  gateway: GatewayMetrics;
  /** a webhook delivery finished: `delivered`, or `failed` after its retries */
  webhookDelivered(event: string, outcome: 'delivered' | 'failed'): void;
}

export function createNodeMetrics(): NodeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const gateway = new GatewayMetrics();
  gateway.registerIn(registry);
  const webhooks = new Counter({ name: 'gw_webhook_deliveries_total', help: 'Webhook deliveries, by gateway event and outcome', labelNames: ['event', 'outcome'], registers: [registry] });
  registry.registerMetric(
    customMetric('gw_analytics_records_dropped_total', 'Analytics records dropped (batch full or analytics service unreachable), in this process', 'counter', () =>
      (read().find((counter) => counter.name === COUNTERS.analyticsRecordsDropped)?.series ?? []).map((series) => ({ labels: { ...series.labels }, value: series.value })),
    ),
  );
  return {
    registry,
    gateway,
    webhookDelivered: (event, outcome) => webhooks.inc({ event, outcome }),
  };
}

/**
 * Writes the registry in the Prometheus text format as a 200 answer (headers only for HEAD).
 * Rejects, with nothing sent, when a collector fails: the caller answers in its port's shape.
 */
export async function writeMetrics(registry: Registry, res: ServerResponse, head: boolean): Promise<void> {
  const text = await registry.metrics();
  res.writeHead(200, { 'content-type': registry.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(head ? undefined : text);
}
