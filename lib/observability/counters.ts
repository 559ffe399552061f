/**
 * A minimal in-process counter registry shared by the services of one node.
 *
 * Producers call `count(name, labels)`; the metrics module reads every counter with `read()` and
 * exposes it (Prometheus). Kept dependency-free so any service can count without importing the
 * metrics stack. Label values are strings; one series per distinct label set.
 */

export type CounterLabels = Readonly<Record<string, string>>;

export interface CounterSeries {
  readonly labels: CounterLabels;
  readonly value: number;
}

export interface CounterReading {
  readonly name: string;
  readonly series: readonly CounterSeries[];
}

/** Counter names used across services (the metrics module may describe them). */
export const COUNTERS = {
  /** Analytics records dropped: buffer full, or the analytics service unreachable. */
  analyticsRecordsDropped: 'analytics_records_dropped',
  /** Finished trace spans that never reached the collector, by reason (queue_full, export_failed). */
  traceSpansDropped: 'trace_spans_dropped',
  /** Trace spans the collector accepted. */
  traceSpansExported: 'trace_spans_exported',
} as const;

const counters = new Map<string, Map<string, CounterSeries>>();

function seriesKey(labels: CounterLabels): string {
  const names = Object.keys(labels).sort();
  return names.map((name) => `${name}=${labels[name]}`).join(',');
}

/** Adds `by` (default 1) to the counter `name` for the given label set. */
export function count(name: string, labels: CounterLabels = {}, by = 1): void {
  let series = counters.get(name);
  if (!series) {
    series = new Map();
    counters.set(name, series);
  }
  const key = seriesKey(labels);
  const current = series.get(key);
  series.set(key, { labels: current?.labels ?? { ...labels }, value: (current?.value ?? 0) + by });
}

/** Every counter with its series, as a snapshot. */
export function read(): CounterReading[] {
  return [...counters].map(([name, series]) => ({ name, series: [...series.values()] }));
}

/** The value of one series (0 when never counted); summed over all series when `labels` is omitted. */
export function valueOf(name: string, labels?: CounterLabels): number {
  const series = counters.get(name);
  if (!series) return 0;
  if (labels) return series.get(seriesKey(labels))?.value ?? 0;
  let total = 0;
  for (const one of series.values()) total += one.value;
  return total;
}
