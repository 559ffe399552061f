import { strict as assert } from 'node:assert';
import { ServiceBroker } from 'moleculer';
import type { AuthCheckParams, AuthCheckResult } from '../../../contracts/auth/actions';
import type { LimiterCheckParams, LimiterCheckResult } from '../../../contracts/limiter/actions';
import { callerOf } from '../../../lib/bus/call';
import { hotCaller } from '../../../lib/bus/hot-call';
import { createHandOffs } from '../../../lib/hand-offs';

/** The gateway's per-request checks: this node's own service through its hand-off, another node's over the bus. */
describe('hot calls (auth.check, limiter.check)', function () {
  const namespace = `hot-call-${process.pid}-${Date.now()}`;
  const brokers: ServiceBroker[] = [];
  const bus: string[] = [];
  const session = { rate: 5 };

  before(async () => {
    const remote = new ServiceBroker({ nodeID: 'remote', namespace, transporter: 'Fake', logger: false });
    remote.createService({
      name: 'auth',
      actions: {
        check: (ctx: { params: AuthCheckParams }): AuthCheckResult => {
          bus.push('auth.check');
          return ctx.params.kind === 'token' && ctx.params.key === 'remote-key'
            ? { ok: true, key_hash: 'h', session }
            : { ok: false, reason: 'unknown' };
        },
      },
    });
    remote.createService({
      name: 'limiter',
      actions: {
        check: (): LimiterCheckResult => {
          bus.push('limiter.check');
          return { ok: false, reason: 'api_rate' };
        },
      },
    });
    const gateway = new ServiceBroker({ nodeID: 'gateway', namespace, transporter: 'Fake', logger: false });
    brokers.push(remote, gateway);
    await Promise.all(brokers.map((broker) => broker.start()));
    await gateway.waitForServices(['auth', 'limiter']);
  });
  after(async () => {
    for (const broker of brokers) await broker.stop();
  });
  beforeEach(() => {
    bus.length = 0;
  });

  const limits: LimiterCheckParams = { api_id: 'api', org_id: 'org', api_limit: { counter: 'c', rate: 1, per: 1 } };

  it('answers through the local hand-off, synchronously when it answers so, without a bus call', () => {
    const handOffs = createHandOffs();
    handOffs.provide('auth', {
      check: (params) =>
        params.kind === 'token' && params.key === 'local-key'
          ? { ok: true, key_hash: 'l', session }
          : { ok: false, reason: 'unknown' },
    });
    handOffs.provide('limiter', { check: () => ({ ok: true }) });
    const check = hotCaller(callerOf(brokers[1]), handOffs);
    assert.deepEqual(check('auth.check', { kind: 'token', key: 'local-key' }), { ok: true, key_hash: 'l', session });
    assert.deepEqual(check('limiter.check', limits), { ok: true });
    assert.deepEqual(bus, []);
  });

  it('calls the action of another node when this node offers no hand-off', async () => {
    const check = hotCaller(callerOf(brokers[1]), createHandOffs());
    const auth = check('auth.check', { kind: 'token', key: 'remote-key' });
    assert.ok(auth instanceof Promise);
    assert.deepEqual(await auth, { ok: true, key_hash: 'h', session });
    assert.deepEqual(await check('limiter.check', limits), { ok: false, reason: 'api_rate' });
    assert.deepEqual(bus, ['auth.check', 'limiter.check']);
  });

  it('goes back to the bus once the local service withdrew its hand-off (it is stopping)', async () => {
    const handOffs = createHandOffs();
    handOffs.provide('limiter', { check: () => ({ ok: true }) });
    const check = hotCaller(callerOf(brokers[1]), handOffs);
    handOffs.withdraw('limiter');
    assert.deepEqual(await check('limiter.check', limits), { ok: false, reason: 'api_rate' });
    assert.deepEqual(bus, ['limiter.check']);
  });
});
