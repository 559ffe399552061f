import { strict as assert } from 'node:assert';
import { ServiceBroker } from 'moleculer';
import type { LimiterCheckParams, LimiterCheckResult } from '../../../contracts/limiter/actions';
import { createHandOffs } from '../../../lib/hand-offs';
import type { Runtime } from '../../../lib/runtime';
import { workerNodeId, type WorkerHost } from '../../../lib/workers/worker-host';
import { limiterService } from '../../../services/limiter/limiter.service';
import { createSharedCounterBuffers } from '../../../services/limiter/lib/shared/shared-counter-store';
import { eventually } from '../../support/eventually';

const WORKERS = 4;

function limiterNodes(broker: ServiceBroker): string[] {
  const services = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as Array<{
    name: string;
    nodeID: string;
  }>;
  return services.filter((service) => service.name === 'limiter').map((service) => service.nodeID);
}
const T0 = 1_700_000_000_000;

/**
 * The limiter of 4 gateway workers of one host (brokers over Moleculer's in-process Fake
 * transporter, each with the runtime a worker thread gets), sharing the host's memory.
 */
describe('limiter: the gateway workers of a host answer as one node', function () {
  const brokers: ServiceBroker[] = [];
  const logged: string[] = [];
  let round = 0;

  async function startHost(drlThreshold: number): Promise<ServiceBroker[]> {
    const namespace = `workers-of-a-host-${process.pid}-${round++}`;
    const limiterMemory = createSharedCounterBuffers(1 << 20);
    const workers: ServiceBroker[] = [];
    for (let index = 0; index < WORKERS; index++) {
      const host: WorkerHost = { index, count: WORKERS, hostId: 'h', limiterMemory, roster: new SharedArrayBuffer(64) };
      const runtime = { config: { drlThreshold }, handOffs: createHandOffs(), host } as unknown as Runtime;
      const broker = new ServiceBroker({
        nodeID: workerNodeId('h', index),
        namespace,
        transporter: 'Fake',
        logger: false,
      });
      // A frozen clock: a bucket of 10 per second must not refill while the test runs.
      const service = broker.createService(limiterService(runtime, () => T0));
      service.logger.info = (...args: unknown[]) => void logged.push(args.join(' '));
      workers.push(broker);
    }
    brokers.push(...workers);
    await Promise.all(workers.map((broker) => broker.start()));
    // Every worker knows the others' limiters (and so counts them in the DRL) before the first request.
    await eventually(() => {
      for (const broker of workers) assert.equal(limiterNodes(broker).length, WORKERS, broker.nodeID);
    }, 5000);
    return workers;
  }
  afterEach(async () => {
    for (const broker of brokers.splice(0)) await broker.stop();
  });

  /** `total` requests, 50 at a time, spread over the workers as reusePort spreads connections. */
  async function allowed(workers: ServiceBroker[], params: LimiterCheckParams, total: number): Promise<number> {
    let ok = 0;
    for (let sent = 0; sent < total; sent += 50) {
      const batch = Array.from({ length: Math.min(50, total - sent) }, (_, i) => {
        const broker = workers[(sent + i) % workers.length];
        return broker.call<LimiterCheckResult, LimiterCheckParams>('limiter.check', params, { nodeID: broker.nodeID });
      });
      for (const result of await Promise.all(batch)) if (result.ok) ok++;
    }
    return ok;
  }

  it(`a rate limit of 100 per minute, 400 requests over ${WORKERS} workers: exactly 100 allowed (the shared sliding log)`, async () => {
    // 100 per minute is below the DRL threshold of 5 × one host.
    const workers = await startHost(5);
    const params = { api_id: 'api', org_id: 'org', api_limit: { counter: `rate-${round}`, rate: 100, per: 60 } };
    assert.equal(await allowed(workers, params, 400), 100);
  });

  it(`a rate limit of 600 per minute, 2,400 requests over ${WORKERS} workers: exactly 600 allowed (the host's token bucket)`, async () => {
    // 10 per second is above the DRL threshold of 2 × one host (and would be above 2 × 4 workers).
    const workers = await startHost(2);
    const params = { api_id: 'api', org_id: 'org', api_limit: { counter: `rate-${round}`, rate: 600, per: 60 } };
    assert.equal(await allowed(workers, params, 2400), 600);
  });

  it(`a quota of 100, 400 requests over ${WORKERS} workers: exactly 100 allowed, and each worker reports what is left`, async () => {
    const workers = await startHost(5);
    const quota = { counter: `quota-${round}`, max: 100, renewal_rate: 3600 };
    assert.equal(await allowed(workers, { api_id: 'api', org_id: 'org', key_hash: 'k', quota }, 400), 100);
    for (const broker of workers) {
      const state = await broker.call<{ quota_remaining: number }, typeof quota>('limiter.quotaState', quota, {
        nodeID: broker.nodeID,
      });
      assert.equal(state.quota_remaining, 0, broker.nodeID);
    }
  });

  it('says where its counters live', async () => {
    logged.length = 0;
    await startHost(5);
    assert.equal(logged.filter((line) => line.endsWith('counters in shared memory of 4 workers')).length, WORKERS);
  });
});
