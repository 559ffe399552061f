import { strict as assert } from 'node:assert';
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { GatewayMetrics } from '../../../lib/observability/gateway-metrics';
import { parseExposition, sampleValue } from '../../support/prometheus';

/** Minor (scavenge) collections that ran while `work` ran: a measure of what it allocated. */
async function minorCollectionsDuring(work: () => void): Promise<number> {
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
        starts.push(entry.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  const from = performance.now();
  work();
  const to = performance.now();
  // gc entries are delivered asynchronously: wait until one made after the work has arrived.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  return starts.filter((start) => start >= from && start <= to).length;
}

describe('gateway request metrics (lib/observability/gateway-metrics)', () => {
  it('puts latencies in cumulative buckets with an upper bound inclusive, and counts per method and status class', async () => {
    const metrics = new GatewayMetrics();
    metrics.record('a', 'GET', 200, 0.003, 0.001, undefined);
    metrics.record('a', 'GET', 204, 0.005, 0.002, undefined);
    metrics.record('a', 'MKCOL', 503, 0.2, undefined, undefined);
    metrics.record('a', undefined, 302, 45, 44, undefined);
    metrics.record('b', 'DELETE', 429, 0.001, undefined, 'limits');
    metrics.record('b', 'DELETE', 403, 0.001, undefined, 'limits');
    metrics.record('b', 'GET', 403, 0.001, undefined, 'auth');
    metrics.record('b', 'GET', 401, 0.001, undefined, 'auth');
    metrics.record('b', 'GET', 403, 0.001, undefined, undefined);
    const registry = new Registry();
    metrics.registerIn(registry);
    const samples = parseExposition(await registry.metrics());
    const bucket = (le: string) => sampleValue(samples, 'gw_request_duration_seconds_bucket', { api_id: 'a', le });
    assert.deepEqual(
      [bucket('0.005'), bucket('0.01'), bucket('0.1'), bucket('0.25'), bucket('30'), bucket('+Inf')],
      [2, 2, 2, 3, 3, 4],
    );
    assert.equal(sampleValue(samples, 'gw_request_duration_seconds_sum', { api_id: 'a' }), 0.003 + 0.005 + 0.2 + 45);
    assert.equal(sampleValue(samples, 'gw_upstream_duration_seconds_count', { api_id: 'a' }), 3);
    assert.equal(sampleValue(samples, 'gw_upstream_duration_seconds_bucket', { api_id: 'a', le: '0.005' }), 2);
    assert.equal(sampleValue(samples, 'gw_requests_total', { api_id: 'a', method: 'GET', status_class: '2xx' }), 2);
    assert.equal(sampleValue(samples, 'gw_requests_total', { api_id: 'a', method: 'OTHER', status_class: '5xx' }), 1);
    assert.equal(sampleValue(samples, 'gw_requests_total', { api_id: 'a', method: 'OTHER', status_class: '3xx' }), 1);
    assert.equal(sampleValue(samples, 'gw_requests_total', { api_id: 'b', method: 'GET', status_class: '4xx' }), 3);
    assert.equal(sampleValue(samples, 'gw_limiter_refusals_total', { api_id: 'b', reason: 'rate_limit' }), 1);
    assert.equal(sampleValue(samples, 'gw_limiter_refusals_total', { api_id: 'b', reason: 'quota' }), 1);
    assert.equal(sampleValue(samples, 'gw_auth_failures_total', { api_id: 'b', status_code: '401' }), 1);
    assert.equal(
      sampleValue(samples, 'gw_auth_failures_total', { api_id: 'b', status_code: '403' }),
      1,
      'a 403 outside authentication is not an auth failure',
    );
    assert.equal(samples.filter((s) => s.name === 'gw_requests_total').length, 5, 'a series only for what was seen');
  });

  it('records a request without allocating: a million requests cause (almost) no minor collection', async () => {
    const metrics = new GatewayMetrics();
    const methods = ['GET', 'POST', 'PURGE'];
    const stages = ['auth', 'limits', undefined] as const;
    const run = (n: number) => {
      for (let i = 0; i < n; i++)
        metrics.record('api-1', methods[i % 3], 200 + (i % 4) * 100, 0.01, 0.002, stages[i % 3]);
    };
    run(10_000); // warmed up (optimised) first
    const collections = await minorCollectionsDuring(() => run(1_000_000));
    // One label object per request (prom-client's labelled inc) makes ~100 here.
    assert.ok(collections <= 3, `${collections} minor collections while recording a million requests`);
  });
});
