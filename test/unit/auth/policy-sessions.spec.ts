import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { AuthCheckParams } from '../../../contracts/auth/actions';
import type { KeysPolicySessionResult } from '../../../contracts/keys/actions';
import { PolicySessions } from '../../../services/auth/lib/policy-sessions';

type PoliciesParams = Extract<AuthCheckParams, { kind: 'policies' }>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('auth: PolicySessions (the sessions of verified tokens)', () => {
  let asked: Array<{ orgId: string; policyIds: string[] }>;
  let clock: number;
  let policies: Map<string, { org: string; rate: number }>;
  let sessions: PolicySessions;
  const params = (extra: Partial<PoliciesParams> = {}): PoliciesParams => ({
    kind: 'policies',
    org_id: 'org1',
    key_id: 'org1abc',
    policy_ids: ['gold'],
    alias: 'alice',
    ...extra,
  });

  beforeEach(() => {
    asked = [];
    clock = 0;
    policies = new Map([
      ['gold', { org: 'org1', rate: 10 }],
      ['silver', { org: 'org1', rate: 5 }],
      ['theirs', { org: 'org2', rate: 1000 }],
    ]);
    sessions = new PolicySessions(
      async (orgId, policyIds): Promise<KeysPolicySessionResult | null> => {
        asked.push({ orgId, policyIds });
        const found = policyIds.map((id) => policies.get(id));
        if (found.some((policy) => !policy || policy.org !== orgId)) return null;
        return { session: { org_id: orgId, apply_policies: policyIds, rate: Math.max(...found.map((p) => p!.rate)) } };
      },
      () => clock,
      2,
    );
  });

  it('derives a session once, then answers from memory without a promise', async () => {
    const first = await sessions.session(params());
    assert.deepEqual(first, {
      ok: true,
      key_hash: sha256('org1abc'),
      session: { org_id: 'org1', apply_policies: ['gold'], rate: 10, alias: 'alice' },
    });
    const again = sessions.session(params());
    assert.ok(!(again instanceof Promise), 'a known identity is answered synchronously');
    assert.equal(again, first);
    assert.equal(asked.length, 1);
  });

  it('shares one store call between concurrent first requests of an identity', async () => {
    const [a, b] = await Promise.all([sessions.session(params()), sessions.session(params())]);
    assert.equal(a, b);
    assert.equal(asked.length, 1);
  });

  it('refuses policies of another organisation, or unknown ones', async () => {
    assert.deepEqual(await sessions.session(params({ policy_ids: ['theirs'] })), { ok: false, reason: 'no_policy' });
    assert.deepEqual(await sessions.session(params({ policy_ids: ['gold', 'missing'] })), {
      ok: false,
      reason: 'no_policy',
    });
  });

  it('keeps the OAuth client id of the token on the session', async () => {
    const result = await sessions.session(params({ client_id: 'app-1' }));
    assert.ok(result.ok);
    assert.equal(result.session.oauth_client_id, 'app-1');
  });

  it('asks again after a policy change, and never caches an answer that was in flight across one', async () => {
    await sessions.session(params());
    policies.set('gold', { org: 'org1', rate: 1 });
    const inFlight = sessions.session(params({ key_id: 'org1other' }));
    sessions.forgetAll();
    await inFlight;
    const after = await sessions.session(params());
    assert.ok(after.ok);
    assert.equal(after.session.rate, 1);
    await sessions.session(params({ key_id: 'org1other' }));
    assert.equal(asked.length, 4, 'the in-flight answer was not kept');
  });

  it('keeps a bounded number of sessions and lets them expire', async () => {
    await sessions.session(params({ key_id: 'a' }));
    await sessions.session(params({ key_id: 'b' }));
    await sessions.session(params({ key_id: 'c' }));
    await sessions.session(params({ key_id: 'a' }));
    assert.equal(asked.length, 4, 'the oldest of three was evicted (bound 2)');
    clock += 61_000;
    await sessions.session(params({ key_id: 'c' }));
    assert.equal(asked.length, 5, 'an entry older than a minute is derived again');
  });
});
