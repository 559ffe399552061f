import { strict as assert } from 'node:assert';
import type { GatewayEventName } from '../../../contracts/events';
import { orgQuotaCounter, orgRateCounter, type LimiterCheckParams } from '../../../contracts/limiter/actions';
import { DrlShare } from '../../../services/limiter/lib/drl-share';
import { MemoryStore } from '../../../services/limiter/lib/memory-store';
import { RateLimiter } from '../../../services/limiter/lib/rate-limiter';
import { Smoother } from '../../../services/limiter/lib/smoothing';
import { TokenBuckets } from '../../../services/limiter/lib/token-buckets';

describe('limiter: an organisation-scoped check', () => {
  const now = 1_700_000_000_000;
  let events: Array<{ event: GatewayEventName; message: string; scope?: string }>;
  let limiter: RateLimiter;
  let drl: DrlShare;
  beforeEach(() => {
    events = [];
    drl = new DrlShare('node-a', () => now);
    limiter = new RateLimiter({
      algorithm: 'drl',
      drlThreshold: 5,
      store: new MemoryStore(() => now),
      buckets: new TokenBuckets(),
      drl,
      smoother: new Smoother(),
      now: () => now,
      emit: (event, params, message) => events.push({ event, message, scope: params.scope }),
    });
  });
  const org = (epoch: number, limits: { rate?: number; quota?: number }): LimiterCheckParams => ({
    api_id: 'api',
    org_id: 'acme',
    scope: 'org',
    key_limit: limits.rate ? { counter: orgRateCounter('acme', epoch), rate: limits.rate, per: 60 } : undefined,
    quota: limits.quota
      ? { counter: orgQuotaCounter('acme', epoch), max: limits.quota, renewal_rate: 3600 }
      : undefined,
  });

  it('reports OrgRateLimitExceeded with the reference message', () => {
    const results = [1, 2, 3].map(() => limiter.check(org(0, { rate: 2 })));
    assert.deepEqual(
      results.map((r) => (r as { ok: boolean }).ok),
      [true, true, false],
    );
    assert.deepEqual(events, [
      { event: 'OrgRateLimitExceeded', message: 'Organisation rate limit has been exceeded', scope: 'org' },
    ]);
  });

  it('reports OrgQuotaExceeded, and a new epoch counts afresh', () => {
    assert.deepEqual(
      [1, 2, 3].map(() => (limiter.check(org(0, { quota: 2 })) as { ok: boolean }).ok),
      [true, true, false],
    );
    assert.deepEqual(
      events.map((e) => [e.event, e.message]),
      [['OrgQuotaExceeded', 'Organisation quota has been exceeded']],
    );
    assert.equal((limiter.check(org(1, { quota: 2 })) as { ok: boolean }).ok, true);
  });

  it('does not count the request again in the distributed rate limiter load', () => {
    void limiter.check({ api_id: 'api', org_id: 'acme' });
    void limiter.check(org(0, { rate: 100 }));
    const fresh = new DrlShare('node-b', () => now);
    fresh.recordRequest();
    const load = drl.tick().load;
    assert.ok(load > 0);
    assert.equal(load, fresh.tick().load, 'one request recorded, not two');
  });
});
