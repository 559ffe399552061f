import { strict as assert } from 'node:assert';
import { ServiceBroker } from 'moleculer';
import type { LimiterCheckParams, LimiterCheckResult } from '../../../contracts/limiter/actions';
import { createHandOffs } from '../../../lib/hand-offs';
import type { Runtime } from '../../../lib/runtime';
import { limiterService } from '../../../services/limiter/limiter.service';
import { eventually } from '../../support/eventually';

/** Two limiter nodes over Moleculer's in-process Fake transporter. */
describe('limiter: the number of limiter nodes behind the DRL share', function () {
  const brokers: ServiceBroker[] = [];
  const runtime = { config: { drlThreshold: 1 }, handOffs: createHandOffs() } as unknown as Runtime;
  const namespace = `drl-nodes-${process.pid}-${Date.now()}`;

  async function startLimiterNode(nodeID: string): Promise<ServiceBroker> {
    const broker = new ServiceBroker({ nodeID, namespace, transporter: 'Fake', logger: false });
    broker.createService(limiterService(runtime));
    brokers.push(broker);
    await broker.start();
    return broker;
  }
  afterEach(async () => {
    for (const broker of brokers.splice(0)) await broker.stop();
  });

  // 10 per second: above drl_threshold (1) × gateways, so each node enforces its bucket's share.
  const check = (broker: ServiceBroker, counter: string) =>
    broker.call<LimiterCheckResult, LimiterCheckParams>(
      'limiter.check',
      { api_id: 'api', org_id: 'org', api_limit: { counter, rate: 10, per: 1 } },
      { nodeID: broker.nodeID },
    );
  async function passed(broker: ServiceBroker, counter: string, times: number): Promise<number> {
    let ok = 0;
    for (let i = 0; i < times; i++) if ((await check(broker, counter)).ok) ok++;
    return ok;
  }

  it('does not ask the registry on the request path', async () => {
    const broker = await startLimiterNode('drl-a');
    const original = broker.registry.getServiceList.bind(broker.registry);
    let calls = 0;
    broker.registry.getServiceList = (opts: object) => {
      calls++;
      return original(opts);
    };
    assert.equal(await passed(broker, 'spy', 15), 10);
    assert.equal(calls, 0, 'limiter.check listed the services');
  });

  it('shares the allowance once a second limiter node joins, and takes it back when it leaves', async () => {
    const a = await startLimiterNode('drl-a');
    assert.equal(await passed(a, 'alone', 15), 10, 'alone, a node enforces the whole allowance');
    const b = await startLimiterNode('drl-b');
    let round = 0;
    // a's share is its load over both loads (b idle counts as 1): less than the whole, more than none.
    await eventually(async () => {
      const shared = await passed(a, `pair-${round++}`, 15);
      assert.ok(shared > 0 && shared < 10, `a let ${shared} of 15 through; b's part of the allowance is missing`);
    }, 3000);
    await b.stop();
    brokers.splice(brokers.indexOf(b), 1);
    await eventually(async () => assert.equal(await passed(a, `alone-again-${round++}`, 15), 10), 3000);
  });
});
