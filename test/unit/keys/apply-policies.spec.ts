import { strict as assert } from 'node:assert';
import type { Policy } from '../../../contracts/keys/session';
import { applyPolicies } from '../../../services/keys/lib/apply-policies';

const policy = (id: string, fields: Partial<Policy>): Policy => ({
  id,
  name: id,
  org_id: 'org',
  rate: 0,
  per: 0,
  quota_max: -1,
  quota_renewal_rate: -1,
  throttle_interval: -1,
  throttle_retry_limit: -1,
  max_query_depth: -1,
  access_rights: {},
  active: true,
  tags: [],
  ...fields,
});

describe('keys: applyPolicies', () => {
  it('keeps a session without policies, marking which counter each API uses', () => {
    const effective = applyPolicies(
      { rate: 10, per: 60, access_rights: { a: { api_id: 'a' }, b: { api_id: 'b', limit: { rate: 5, per: 1 } } } },
      [],
    );
    assert.equal(effective.rate, 10);
    assert.equal(effective.access_rights!.a.allowance_scope, '');
    assert.equal(effective.access_rights!.b.allowance_scope, 'b');
  });

  it('unions access rights per API: versions and allowed URLs with their methods', () => {
    const effective = applyPolicies({ access_rights: { ignored: { api_id: 'ignored' } } }, [
      policy('p1', {
        access_rights: { a: { api_id: 'a', versions: ['v1'], allowed_urls: [{ url: '/users', methods: ['GET'] }] } },
      }),
      policy('p2', {
        access_rights: {
          a: {
            api_id: 'a',
            versions: ['v2'],
            allowed_urls: [
              { url: '/users', methods: ['POST'] },
              { url: '/orders', methods: ['GET'] },
            ],
          },
          b: { api_id: 'b' },
        },
      }),
    ]);
    assert.deepEqual(
      Object.keys(effective.access_rights!).sort(),
      ['a', 'b'],
      "the policies' rights replace the key's own",
    );
    assert.deepEqual(effective.access_rights!.a.versions, ['v1', 'v2']);
    assert.deepEqual(effective.access_rights!.a.allowed_urls, [
      { url: '/users', methods: ['GET', 'POST'] },
      { url: '/orders', methods: ['GET'] },
    ]);
  });

  it('takes rate and per from the policy with the highest effective rate', () => {
    const effective = applyPolicies({ rate: 1, per: 1 }, [
      policy('slow', { rate: 100, per: 60 }),
      policy('fast', { rate: 10, per: 1 }),
      policy('none', {}),
    ]);
    assert.deepEqual([effective.rate, effective.per, effective.allowance], [10, 1, 10]);
  });

  it('takes the most generous quota, throttle and query depth, -1 meaning unlimited', () => {
    const effective = applyPolicies({}, [
      policy('a', {
        quota_max: 100,
        quota_renewal_rate: 3600,
        throttle_interval: 2,
        throttle_retry_limit: 3,
        max_query_depth: 5,
      }),
      policy('b', {
        quota_max: 1000,
        quota_renewal_rate: 60,
        throttle_interval: 1,
        throttle_retry_limit: 10,
        max_query_depth: -1,
      }),
    ]);
    assert.deepEqual([effective.quota_max, effective.quota_renewal_rate], [1000, 60]);
    assert.deepEqual([effective.throttle_interval, effective.throttle_retry_limit], [2, 10]);
    assert.equal(effective.max_query_depth, -1);
    const unlimited = applyPolicies({}, [policy('a', { quota_max: 100 }), policy('b', { quota_max: -1 })]);
    assert.equal(unlimited.quota_max, -1);
  });

  it('makes the key inactive when one of its policies is inactive, and unions tags', () => {
    const effective = applyPolicies({ tags: ['mine'] }, [
      policy('a', { tags: ['gold'] }),
      policy('b', { active: false, tags: ['gold', 'eu'] }),
    ]);
    assert.equal(effective.is_inactive, true);
    assert.deepEqual(effective.tags, ['mine', 'gold', 'eu']);
  });

  it('shares one counter across the APIs of a policy without per-API limits', () => {
    const effective = applyPolicies({}, [
      policy('p', { rate: 10, per: 1, access_rights: { a: { api_id: 'a' }, b: { api_id: 'b' } } }),
    ]);
    assert.equal(effective.access_rights!.a.allowance_scope, '');
    assert.equal(effective.access_rights!.b.allowance_scope, '');
  });
});
