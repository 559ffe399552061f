import { strict as assert } from 'node:assert';
import { Registry } from 'prom-client';
import {
  EVENT_LOOP_DELAY_BUCKETS,
  createEventLoopDelayHistogram,
  type EventLoopDelayHistogram,
} from '../../../lib/observability/event-loop-delay';
import { createNodeMetrics } from '../../../lib/observability/metrics';
import { eventually } from '../../support/eventually';
import { parseExposition, sampleValue, type Sample } from '../../support/prometheus';

const NAME = 'gw_event_loop_delay_seconds';
const RESOLUTION_MS = 10;
/**
 * Each block delays the monitor's next timer by the block less the part of its 10 ms period that
 * had already passed: 80 ms leaves at least 70 ms of delay, clear of the 50 ms bucket bound.
 */
const BLOCK_MS = 80;
const BLOCKS = 3;

function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('event loop delay histogram (lib/observability/event-loop-delay)', () => {
  let histogram: EventLoopDelayHistogram;
  let registry: Registry;
  const scrape = async (): Promise<Sample[]> => parseExposition(await registry.metrics());
  /** The monitor's first timer run only sets its starting time: a block before it goes unseen. */
  const sampling = () =>
    eventually(async () => {
      const samples = await scrape();
      assert.ok(sampleValue(samples, `${NAME}_count`)! > 0, 'the monitor has sampled the idle loop');
      return samples;
    });
  const beyond50ms = (samples: Sample[]) =>
    sampleValue(samples, `${NAME}_count`)! - sampleValue(samples, `${NAME}_bucket`, { le: '0.05' })!;

  beforeEach(() => {
    histogram = createEventLoopDelayHistogram({ resolutionMs: RESOLUTION_MS });
    registry = new Registry();
    registry.registerMetric(histogram.metric);
  });
  afterEach(() => histogram.stop());

  it('counts synchronous blocks in the buckets above their delay, with _sum, _count and +Inf consistent', async () => {
    const first = await sampling();
    const sumBefore = sampleValue(first, `${NAME}_sum`)!;
    const beyondBefore = beyond50ms(first);
    for (let i = 1; i <= BLOCKS; i++) {
      blockLoop(BLOCK_MS);
      // The monitor records the block when its timer runs again after it: wait for that.
      await eventually(async () => assert.ok(beyond50ms(await scrape()) >= beyondBefore + i, `block ${i} counted`));
    }

    const text = await registry.metrics();
    assert.match(text, new RegExp(`^# TYPE ${NAME} histogram$`, 'm'));
    const samples = parseExposition(text);
    const count = sampleValue(samples, `${NAME}_count`)!;
    const buckets = [...EVENT_LOOP_DELAY_BUCKETS.map(String), '+Inf'].map((le) =>
      sampleValue(samples, `${NAME}_bucket`, { le })!,
    );
    assert.ok(
      buckets.every((value) => Number.isInteger(value)),
      `whole counts: ${buckets.join()}`,
    );
    buckets.slice(1).forEach((value, i) => assert.ok(value >= buckets[i], `monotonic: ${buckets.join()}`));
    assert.ok(sampleValue(samples, `${NAME}_bucket`, { le: '0.05' })! < count);
    assert.ok(sampleValue(samples, `${NAME}_bucket`, { le: '1' })! >= count - BLOCKS, 'no block lasted a second');
    assert.equal(sampleValue(samples, `${NAME}_bucket`, { le: '+Inf' }), count);
    const blockedSeconds = (BLOCKS * (BLOCK_MS - RESOLUTION_MS)) / 1000;
    assert.ok(
      sampleValue(samples, `${NAME}_sum`)! - sumBefore >= blockedSeconds * 0.99,
      `_sum grew by at least ${blockedSeconds} s`,
    );
  });

  it('keeps counting across scrapes: nothing a scrape saw is lost or counted twice', async () => {
    await sampling();
    blockLoop(BLOCK_MS);
    const once = await eventually(async () => {
      const samples = await scrape();
      assert.ok(beyond50ms(samples) >= 1);
      return samples;
    });
    const again = await eventually(async () => {
      const samples = await scrape();
      assert.ok(sampleValue(samples, `${NAME}_count`)! > sampleValue(once, `${NAME}_count`)!, 'new samples');
      return samples;
    });
    for (const le of [...EVENT_LOOP_DELAY_BUCKETS.map(String), '+Inf'])
      assert.ok(
        sampleValue(again, `${NAME}_bucket`, { le })! >= sampleValue(once, `${NAME}_bucket`, { le })!,
        `le=${le} never goes down`,
      );
    assert.equal(beyond50ms(again), beyond50ms(once), 'the one block is counted once, not again after the reset');
    assert.ok(sampleValue(again, `${NAME}_sum`)! >= sampleValue(once, `${NAME}_sum`)!);
  });

  it('puts extra labels (a worker) on every series', async () => {
    histogram.stop();
    histogram = createEventLoopDelayHistogram({ labels: { worker: '3' } });
    await eventually(() => assert.ok(histogram.values().some((v) => v.metricName === `${NAME}_count` && v.value > 0)));
    for (const value of histogram.values()) assert.equal(value.labels.worker, '3', value.metricName);
  });

  it("is in a node's exposition, once per process however many nodes", async () => {
    const [a, b] = [createNodeMetrics(), createNodeMetrics()];
    for (const text of [await a.exposition(), await b.exposition()])
      assert.equal(text.match(new RegExp(`^# TYPE ${NAME} histogram$`, 'gm'))?.length, 1);
  });
});
