import type { ServerResponse } from 'node:http';
import { AggregatorRegistry, Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { secretMatches } from '../http/credentials';
import { COUNTERS, read } from './counters';
import { customMetric, type MetricValue } from './custom-metric';
import { threadEventLoopDelay } from './event-loop-delay';
import { GatewayMetrics } from './gateway-metrics';

/**
 * One node's Prometheus metrics: its own registry (not prom-client's global one, so several
 * nodes in one process keep theirs apart) with the gateway's request metrics, webhook
 * deliveries and the analytics records dropped; the process metrics are added when scraped.
 */
export interface NodeMetrics {
  registry: Registry;
  /**
   * this node's series and the process metrics, in the Prometheus text format; with the series
   * of the node's other gateway workers (their `seriesOf`), each series is their sum
   */
  exposition(siblings?: NodeSeries[]): Promise<string>;
  gateway: GatewayMetrics;
  /** a webhook delivery finished: `delivered`, or `failed` after its retries */
  webhookDelivered(event: string, outcome: 'delivered' | 'failed'): void;
}

export function createNodeMetrics(): NodeMetrics {
  const registry = new Registry();
  const gateway = new GatewayMetrics();
  gateway.registerIn(registry);
  const webhooks = new Counter({
    name: 'gw_webhook_deliveries_total',
    help: 'Webhook deliveries, by gateway event and outcome',
    labelNames: ['event', 'outcome'],
    registers: [registry],
  });
  registry.registerMetric(
    customMetric(
      'gw_analytics_records_dropped_total',
      'Analytics records dropped (batch full or analytics service unreachable), in this process',
      'counter',
      () =>
        (read().find((counter) => counter.name === COUNTERS.analyticsRecordsDropped)?.series ?? []).map((series) => ({
          labels: { ...series.labels },
          value: series.value,
        })),
    ),
  );
  registry.registerMetric(
    customMetric(
      'gw_trace_spans_dropped_total',
      'Trace spans that never reached the OpenTelemetry collector (queue full, or the export failed), in this process',
      'counter',
      () => counterSeries(COUNTERS.traceSpansDropped),
    ),
  );
  registry.registerMetric(
    customMetric(
      'gw_trace_spans_exported_total',
      'Trace spans the OpenTelemetry collector accepted, in this process',
      'counter',
      () => counterSeries(COUNTERS.traceSpansExported),
    ),
  );
  return {
    registry,
    exposition: async (siblings = []) => {
      const series =
        siblings.length === 0
          ? await registry.metrics()
          : await AggregatorRegistry.aggregate([await seriesOf({ registry }), ...siblings]).metrics();
      return `${series}\n${await processMetrics().metrics()}`;
    },
    gateway,
    webhookDelivered: (event, outcome) => webhooks.inc({ event, outcome }),
  };
}

function counterSeries(name: string): MetricValue[] {
  return (read().find((counter) => counter.name === name)?.series ?? []).map((series) => ({
    labels: { ...series.labels },
    value: series.value,
  }));
}

/** A node's series as data, for a sibling worker to sum into its scrape (prom-client's JSON form). */
export type NodeSeries = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** What `exposition` of a sibling worker sums in. The process metrics stay the scraped thread's. */
export function seriesOf(metrics: Pick<NodeMetrics, 'registry'>): Promise<NodeSeries> {
  return metrics.registry.getMetricsAsJSON();
}

let processRegistry: Registry | undefined;

/**
 * The process metrics (CPU, memory, event loop lag, GC) and gw's event loop delay histogram,
 * collected once per process: they describe the process, however many nodes it runs, and the
 * monitors (event loop delay histograms, a GC observer) are per process, so one per node would
 * pile up.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    processRegistry.registerMetric(threadEventLoopDelay().metric);
  }
  return processRegistry;
}

/**
 * Writes the node's metrics in the Prometheus text format as a 200 answer (headers only for HEAD).
 * Rejects, with nothing sent, when a collector fails: the caller answers in its port's shape.
 */
export async function writeMetrics(
  metrics: NodeMetrics,
  res: ServerResponse,
  head: boolean,
  siblings?: () => Promise<NodeSeries[]>,
): Promise<void> {
  const text = await metrics.exposition(siblings ? await siblings() : []);
  res.writeHead(200, {
    'content-type': metrics.registry.contentType,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : text);
}

/** What a scrape without the right token is told (GW_METRICS_TOKEN itself is never echoed). */
export const METRICS_UNAUTHORISED = "Authorization: Bearer <GW_METRICS_TOKEN, or the port's secret> required";

/**
 * Whether a scrape may read the metrics: with `Authorization: Bearer <token>`, where the token is
 * GW_METRICS_TOKEN or, without it, the port's own secret. Never open: the metrics name every
 * organisation's APIs and their traffic.
 */
export function scrapeAllowed(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && secretMatches(match[1], token);
}
