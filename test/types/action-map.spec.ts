import { strict as assert } from 'node:assert';
import type { ActionResult } from '../../contracts/actions';
import type { ApiRecord } from '../../contracts/apis/api-definition';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction, callerOf, type Bus, type Call } from '../../lib/bus/call';

/**
 * The action map is checked by the compiler: `npm test` runs `tsc` first, and each
 * `@ts-expect-error` below fails it when the line it marks stops being an error (a map that
 * lost its types would let a misspelt action or wrong params through). The functions are
 * type-checked, never run.
 */
export async function callersAreChecked(call: Call): Promise<unknown[]> {
  const record: ApiRecord = await call('apis.get', { id: 'a' });
  const snapshot = await call('apis.snapshot');
  // @ts-expect-error a misspelt action name
  await call('apis.gett', { id: 'a' });
  // @ts-expect-error a param the action does not take
  await call('apis.get', { id: 'a', org: 'x' });
  // @ts-expect-error a required param missing
  await call('keys.get', { org_scope: 'o' });
  // @ts-expect-error a param of the wrong type
  await call('limiter.quotaState', { counter: 'c', max: '10', renewal_rate: 60 });
  // @ts-expect-error the result used as something it is not
  const wrong: string = (await call('keys.list', {})).keys.length;
  // @ts-expect-error a nullable result used as if it were always there
  const session = (await call('keys.lookup', { key_hash: 'h' })).session;
  return [record, snapshot.revision, wrong, session];
}

/** Services type their handlers against the same map. */
export const serviceSideIsChecked: Array<ServiceActions<'limiter'>> = [
  {
    check: () => ({ ok: true }),
    quotaState: { handler: (ctx) => ({ quota_remaining: ctx.params.max, quota_renews: 0 }) },
  },
  {
    check: () => ({ ok: true }),
    // @ts-expect-error a handler whose result differs from the map
    quotaState: { handler: () => ({ quota_remaining: 'all', quota_renews: 0 }) },
  },
  // @ts-expect-error an action of the map the service does not implement
  {
    check: () => ({ ok: true }),
  },
  {
    check: () => ({ ok: true }),
    quotaState: () => ({ quota_remaining: 1, quota_renews: 0 }),
    // @ts-expect-error an action the map does not declare (a rename in the service only)
    quotaStatus: () => ({ quota_remaining: 1, quota_renews: 0 }),
  },
];

describe('typed action calls', () => {
  const recording = () => {
    const calls: Array<{ action: string; params: unknown }> = [];
    const bus: Bus = {
      async call(action, params) {
        calls.push({ action, params });
        return { revision: 7 };
      },
    };
    return { bus, calls };
  };

  it('sends the action name and params to the bus and answers its result', async () => {
    const { bus, calls } = recording();
    const result: ActionResult<'apis.currentRevision'> = await callAction(bus, 'apis.currentRevision');
    assert.deepEqual(result, { revision: 7 });
    await callerOf(bus)('keys.lookup', { key_hash: 'abc' });
    assert.deepEqual(calls, [
      { action: 'apis.currentRevision', params: {} },
      { action: 'keys.lookup', params: { key_hash: 'abc' } },
    ]);
  });
});
