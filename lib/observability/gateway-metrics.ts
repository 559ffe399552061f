import type { Registry } from 'prom-client';
import { customMetric, type MetricValue } from './custom-metric';

/** Methods with a series of their own; any other method is counted as `OTHER`. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'OTHER'] as const;
const OTHER_METHOD = METHODS.length - 1;
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** Upper bounds of the latency histograms, in seconds (a proxy answers in ms; a slow upstream in s). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

/** What happened to one MCP primitive call, in the order of the tallies' slots. */
export const MCP_OUTCOMES = ['allowed', 'denied', 'rate_limited', 'quota_exceeded', 'error'] as const;
export type McpCallOutcome = (typeof MCP_OUTCOMES)[number];
/**
 * Primitives with a series of their own per API; calls of any further ones are counted as
 * `other`, so a client naming made-up tools cannot grow the series without bound.
 */
export const MAX_MCP_PRIMITIVES_PER_API = 100;

/** Which part of the chain answered: set by the pipeline, read when the response finished. */
export type RefusalStage = 'auth' | 'limits' | undefined;

class Histogram {
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length);
  count = 0;
  sum = 0;

  observe(seconds: number): void {
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++;
    if (i < LATENCY_BUCKETS.length) this.buckets[i]++;
    this.count++;
    this.sum += seconds;
  }
}

/** One API's tallies: plain numbers in fixed slots, so recording a request allocates nothing. */
class ApiTally {
  /** by method × status class */
  readonly requests = new Float64Array(METHODS.length * STATUS_CLASSES.length);
  readonly latency = new Histogram();
  readonly upstreamLatency = new Histogram();
  /** [rate limit (429), quota (403)] */
  readonly limiterRefusals = new Float64Array(2);
  /** [401, 403] */
  readonly authFailures = new Float64Array(2);
}

/**
 * The gateway's request metrics. Kept as numbers per API and turned into Prometheus series
 * only when scraped, so the request path pays a map lookup and a few increments: no label
 * objects, no label hashing (prom-client's labelled `inc` builds and hashes one per call).
 * Label values are bounded: the API id, a method from a fixed list, a status class.
 */
export class GatewayMetrics {
  private readonly apis = new Map<string, ApiTally>();
  /** api_id → `kind:name` → calls by outcome (MCP_OUTCOMES) */
  private readonly mcpCalls = new Map<string, Map<string, Float64Array>>();

  /** Counts one MCP primitive call (`tool:get_weather`) by what the gateway did with it. */
  countMcpCall(apiId: string, primitive: string, outcome: McpCallOutcome): void {
    let calls = this.mcpCalls.get(apiId);
    if (!calls) {
      calls = new Map();
      this.mcpCalls.set(apiId, calls);
    }
    let tally = calls.get(primitive);
    if (!tally) {
      const label = calls.size < MAX_MCP_PRIMITIVES_PER_API ? primitive : 'other';
      tally = calls.get(label) ?? new Float64Array(MCP_OUTCOMES.length);
      calls.set(label, tally);
    }
    tally[MCP_OUTCOMES.indexOf(outcome)]++;
  }

  /** Counts one finished request. `upstreamSeconds` is undefined when no upstream answered. */
  record(
    apiId: string,
    method: string | undefined,
    status: number,
    seconds: number,
    upstreamSeconds: number | undefined,
    stage: RefusalStage,
  ): void {
    let tally = this.apis.get(apiId);
    if (!tally) {
      tally = new ApiTally();
      this.apis.set(apiId, tally);
    }
    const statusClass = Math.floor(status / 100) - 1;
    if (statusClass >= 0 && statusClass < STATUS_CLASSES.length)
      tally.requests[methodIndex(method) * STATUS_CLASSES.length + statusClass]++;
    tally.latency.observe(seconds);
    if (upstreamSeconds !== undefined) tally.upstreamLatency.observe(upstreamSeconds);
    if (stage === 'limits') {
      if (status === 429) tally.limiterRefusals[0]++;
      else if (status === 403) tally.limiterRefusals[1]++;
    } else if (stage === 'auth') {
      if (status === 401) tally.authFailures[0]++;
      else if (status === 403) tally.authFailures[1]++;
    }
  }

  /** Drops the series of APIs no longer served, so deleted APIs do not pile up. */
  retain(apiIds: ReadonlySet<string>): void {
    for (const apiId of this.apis.keys()) if (!apiIds.has(apiId)) this.apis.delete(apiId);
    for (const apiId of this.mcpCalls.keys()) if (!apiIds.has(apiId)) this.mcpCalls.delete(apiId);
  }

  /** Adds this gateway's series to a registry. */
  registerIn(registry: Registry): void {
    registry.registerMetric(
      customMetric(
        'gw_requests_total',
        'Requests the gateway answered, by API, method and status class',
        'counter',
        () => this.requestValues(),
      ),
    );
    registry.registerMetric(
      customMetric(
        'gw_request_duration_seconds',
        'Time from the request reaching the gateway to the response finishing',
        'histogram',
        () => this.histogramValues('gw_request_duration_seconds', (t) => t.latency),
      ),
    );
    registry.registerMetric(
      customMetric(
        'gw_upstream_duration_seconds',
        'Time from sending the request upstream to the upstream response headers',
        'histogram',
        () => this.histogramValues('gw_upstream_duration_seconds', (t) => t.upstreamLatency),
      ),
    );
    registry.registerMetric(
      customMetric(
        'gw_limiter_refusals_total',
        'Requests refused by a rate limit (429) or an exhausted quota (403)',
        'counter',
        () => this.pairValues((t) => t.limiterRefusals, 'reason', ['rate_limit', 'quota']),
      ),
    );
    registry.registerMetric(
      customMetric(
        'gw_mcp_calls_total',
        'MCP tool, resource and prompt calls, by API, primitive (kind:name) and what the gateway did with them',
        'counter',
        () => this.mcpCallValues(),
      ),
    );
    registry.registerMetric(
      customMetric('gw_auth_failures_total', 'Requests refused by authentication (401 or 403)', 'counter', () =>
        this.pairValues((t) => t.authFailures, 'status_code', ['401', '403']),
      ),
    );
  }

  private mcpCallValues(): MetricValue[] {
    const values: MetricValue[] = [];
    for (const [api_id, calls] of this.mcpCalls)
      for (const [mcp_primitive, tally] of calls)
        tally.forEach((value, i) => {
          if (value > 0) values.push({ labels: { api_id, mcp_primitive, outcome: MCP_OUTCOMES[i] }, value });
        });
    return values;
  }

  private requestValues(): MetricValue[] {
    const values: MetricValue[] = [];
    for (const [api_id, tally] of this.apis) {
      tally.requests.forEach((value, slot) => {
        if (value === 0) return;
        const method = METHODS[Math.floor(slot / STATUS_CLASSES.length)];
        values.push({ labels: { api_id, method, status_class: STATUS_CLASSES[slot % STATUS_CLASSES.length] }, value });
      });
    }
    return values;
  }

  private pairValues(pick: (tally: ApiTally) => Float64Array, label: string, names: readonly string[]): MetricValue[] {
    const values: MetricValue[] = [];
    for (const [api_id, tally] of this.apis) {
      pick(tally).forEach((value, i) => {
        if (value > 0) values.push({ labels: { api_id, [label]: names[i] }, value });
      });
    }
    return values;
  }

  private histogramValues(name: string, pick: (tally: ApiTally) => Histogram): MetricValue[] {
    const values: MetricValue[] = [];
    for (const [api_id, tally] of this.apis) {
      const histogram = pick(tally);
      if (histogram.count === 0) continue;
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += histogram.buckets[i];
        values.push({ metricName: `${name}_bucket`, labels: { api_id, le }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { api_id, le: '+Inf' }, value: histogram.count });
      values.push({ metricName: `${name}_sum`, labels: { api_id }, value: histogram.sum });
      values.push({ metricName: `${name}_count`, labels: { api_id }, value: histogram.count });
    }
    return values;
  }
}

function methodIndex(method: string | undefined): number {
  switch (method) {
    case 'GET':
      return 0;
    case 'POST':
      return 1;
    case 'PUT':
      return 2;
    case 'PATCH':
      return 3;
    case 'DELETE':
      return 4;
    case 'HEAD':
      return 5;
    case 'OPTIONS':
      return 6;
    default:
      return OTHER_METHOD;
  }
}
