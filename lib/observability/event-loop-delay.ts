import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Metric } from 'prom-client';
import { customMetric, type MetricValue } from './custom-metric';

export const EVENT_LOOP_DELAY_METRIC = 'gw_event_loop_delay_seconds';

/** Upper bounds, in seconds: from a tenth of a millisecond (a healthy loop) to a second (a stall). */
export const EVENT_LOOP_DELAY_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
] as const;

const NS_PER_SECOND = 1e9;

export interface EventLoopDelayOptions {
  /** how often the monitor's timer samples the loop, in ms (Node's default is 10) */
  resolutionMs?: number;
  /** put on every series, e.g. `{ worker: '2' }` once each thread has its own monitor */
  labels?: Record<string, string>;
}

export interface EventLoopDelayHistogram {
  /** `gw_event_loop_delay_seconds`, for a registry */
  metric: Metric;
  /** the series as they stand now */
  values(): MetricValue[];
  /** stops sampling; the counts stay as they were */
  stop(): void;
}

/**
 * A Prometheus histogram of how late the event loop ran a timer, from `monitorEventLoopDelay`.
 *
 * Node's histogram only answers percentiles, so each scrape finds how many samples fall at or under
 * each bucket bound by binary search over `percentile()`. Node's histogram is never reset: Prometheus
 * wants counts that only grow, which it already holds, and after a `reset()` the monitor drops its
 * next sample (it becomes the new starting time), which would lose a stall that began before a
 * scrape. The monitor's samples are the time between two of its timer runs, which includes the
 * resolution itself: the bounds are shifted by it, so a bucket holds the delay alone.
 */
export function createEventLoopDelayHistogram(options: EventLoopDelayOptions = {}): EventLoopDelayHistogram {
  const resolutionMs = options.resolutionMs ?? 10;
  const labels = options.labels ?? {};
  const resolutionNs = resolutionMs * 1e6;
  const monitor = monitorEventLoopDelay({ resolution: resolutionMs });
  // The monitor's libuv timer is unreferenced: it never keeps the process (or a thread) alive.
  monitor.enable();

  // Prometheus sums must never go down; see `values`.
  let sumSeconds = 0;

  const values = (): MetricValue[] => {
    const count = monitor.count;
    // The bounds ascend, so each search starts from the count under the bound before.
    let under = 0;
    const atOrUnder = EVENT_LOOP_DELAY_BUCKETS.map(
      (bound) => (under = samplesAtOrUnder(monitor, count, bound * NS_PER_SECOND + resolutionNs, under)),
    );
    // All samples less the resolution each. A sample can come a little early (libuv's timers are
    // in whole ms), which would pull the total down for a while: it is held until it grows again.
    // (Node's mean is NaN until the first sample.)
    if (count > 0) sumSeconds = Math.max(sumSeconds, ((monitor.mean - resolutionNs) * count) / NS_PER_SECOND);
    const bucket = `${EVENT_LOOP_DELAY_METRIC}_bucket`;
    return [
      ...EVENT_LOOP_DELAY_BUCKETS.map((bound, i) => ({
        metricName: bucket,
        labels: { ...labels, le: bound },
        value: atOrUnder[i],
      })),
      { metricName: bucket, labels: { ...labels, le: '+Inf' }, value: count },
      { metricName: `${EVENT_LOOP_DELAY_METRIC}_sum`, labels: { ...labels }, value: sumSeconds },
      { metricName: `${EVENT_LOOP_DELAY_METRIC}_count`, labels: { ...labels }, value: count },
    ];
  };

  return {
    metric: customMetric(
      EVENT_LOOP_DELAY_METRIC,
      `How late the event loop ran a timer (monitorEventLoopDelay, less its ${resolutionMs} ms resolution)`,
      'histogram',
      values,
    ),
    values,
    stop: () => monitor.disable(),
  };
}

/**
 * How many of the `samples` recorded are at most `boundNs`. `percentile(100 * k / samples)` is the
 * k-th smallest sample (HDR histograms round the rank to the nearest whole sample), which grows with
 * k, so the answer is the largest k whose value is within the bound (`atLeast` of them are known to be).
 */
function samplesAtOrUnder(monitor: IntervalHistogram, samples: number, boundNs: number, atLeast: number): number {
  let within = atLeast;
  let beyond = samples + 1;
  while (beyond - within > 1) {
    const rank = Math.floor((within + beyond) / 2);
    if (monitor.percentile((100 * rank) / samples) <= boundNs) within = rank;
    else beyond = rank;
  }
  return within;
}

let threadHistogram: EventLoopDelayHistogram | undefined;

/**
 * This thread's loop delay histogram, started on first use. Module state is per thread, so each
 * worker thread that asks gets its own monitor (and can pass its `worker` label then).
 */
export function threadEventLoopDelay(options?: EventLoopDelayOptions): EventLoopDelayHistogram {
  threadHistogram ??= createEventLoopDelayHistogram(options);
  return threadHistogram;
}
