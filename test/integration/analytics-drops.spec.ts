import { strict as assert } from 'node:assert';
import { COUNTERS, valueOf } from '../../lib/observability/counters';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { eventually } from '../support/eventually';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { analyticsService } from '../../services/analytics/analytics.service';
import { AnalyticsRecorder } from '../../services/proxy/analytics/analytics-recorder';

describe('analytics: the analytics service goes away mid-traffic', () => {
  let gw: GatewayFixture;
  const dropped = () => valueOf(COUNTERS.analyticsRecordsDropped);
  const stored = async () => (await new AnalyticsStore(gw.node.runtime.database()).rawRecords('', 'drops')).length;

  before(async () => {
    gw = await startGatewayFixture({ analyticsFlushInterval: 0.05 });
    await gw.addApi(apiDefinition('drops', '/drops', gw.upstream.url));
  });
  after(() => gw.stop());

  it('keeps answering every request and counts the records it drops', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await gw.call('/drops/before')).status, 200);
    await eventually(async () => assert.equal(await stored(), 5), 5000);
    const droppedBefore = dropped();

    const burst = () => Promise.all(Array.from({ length: 20 }, () => gw.call('/drops/during')));
    const started = Date.now();
    // One burst in flight while the service is destroyed, one after it is gone.
    const [during] = await Promise.all([
      burst(),
      gw.node.broker.destroyService(gw.node.broker.getLocalService('analytics')),
    ]);
    const after = await burst();
    assert.deepEqual(
      [...during, ...after].map((res) => res.status),
      Array(40).fill(200),
    );
    assert.ok(Date.now() - started < 2000, 'requests do not wait for analytics');
    // Every record of the 40 requests is either stored (before the service went) or dropped and counted, never both.
    await eventually(async () => assert.equal((await stored()) - 5 + (dropped() - droppedBefore), 40), 5000);
    assert.ok(dropped() - droppedBefore >= 20, `dropped ${dropped() - droppedBefore}`);
  });

  it('builds no record while the registry shows no analytics service, and records again when it comes back', async () => {
    // The service is gone (previous test). Count the records the gateway node builds.
    const recorderProto = AnalyticsRecorder.prototype as unknown as { record(...args: unknown[]): unknown };
    const build = recorderProto.record;
    let built = 0;
    recorderProto.record = function (this: unknown, ...args: unknown[]) {
      built += 1;
      return build.apply(this, args);
    };
    try {
      const droppedBefore = dropped();
      const storedBefore = await stored();
      for (let i = 0; i < 10; i++) assert.equal((await gw.call('/drops/absent')).status, 200);
      await eventually(() => assert.equal(dropped() - droppedBefore, 10), 5000);
      assert.equal(built, 0, 'no record was built for a service known to be absent');

      gw.node.broker.createService(analyticsService(gw.node.runtime));
      await gw.node.broker.waitForServices('analytics', 5000);
      for (let i = 0; i < 3; i++) assert.equal((await gw.call('/drops/back')).status, 200);
      await eventually(async () => assert.equal(await stored(), storedBefore + 3), 5000);
      assert.equal(built, 3);
      assert.equal(dropped() - droppedBefore, 10, 'the counted drops are the 10 requests made while it was absent');
    } finally {
      recorderProto.record = build;
    }
  });
});
