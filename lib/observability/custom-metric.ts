import type { Metric } from 'prom-client';

/** One exposition line: prom-client's value shape (`metricName` for `_bucket`, `_sum`, `_count`). */
export interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A metric whose series are computed when the registry is scraped, from tallies kept
 * elsewhere. prom-client's registry only reads `name` and calls `get()` (and `reset()`).
 */
export function customMetric(
  name: string,
  help: string,
  type: 'counter' | 'histogram' | 'gauge',
  values: () => MetricValue[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => undefined,
  };
  return metric as unknown as Metric;
}
