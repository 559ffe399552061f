import type { Registry } from 'prom-client';
import type { StreamsApiStats } from '../../../contracts/streams/actions';
import { customMetric, type MetricValue } from '../../../lib/observability/custom-metric';

type Field = 'received' | 'sent' | 'errors' | 'connection_attempts' | 'connection_failures';

const SERIES: Array<[string, string, Field]> = [
  ['gw_stream_messages_received_total', 'Messages a stream connector received', 'received'],
  ['gw_stream_messages_sent_total', 'Messages a stream connector accepted or sent on', 'sent'],
  ['gw_stream_errors_total', 'Errors of a stream connector (failed writes, flagged messages)', 'errors'],
  [
    'gw_stream_connection_attempts_total',
    'Connections and requests an HTTP stream connector tried',
    'connection_attempts',
  ],
  [
    'gw_stream_connection_failures_total',
    'Connections and requests of an HTTP stream connector that failed',
    'connection_failures',
  ],
];

/** The streams' counters in the node's Prometheus registry, read from the running streams when scraped. */
export function registerStreamMetrics(registry: Registry, stats: () => Record<string, StreamsApiStats>): void {
  for (const [name, help, field] of SERIES) {
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
    registry.registerMetric(customMetric(name, help, 'counter', () => values(stats(), (c) => c[field])));
  }
}

function values(
  all: Record<string, StreamsApiStats>,
  pick: (c: StreamsApiStats['streams'][string]['connectors'][number]) => number,
): MetricValue[] {
  const out: MetricValue[] = [];
  for (const [apiId, api] of Object.entries(all)) {
    for (const [stream, stats] of Object.entries(api.streams)) {
      for (const c of stats.connectors)
        out.push({ labels: { api_id: apiId, stream, connector: c.role, type: c.type }, value: pick(c) });
    }
  }
  return out;
}
