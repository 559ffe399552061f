import { strict as assert } from 'node:assert';
import type { AuthCheckParams, AuthCheckResult } from '../../../contracts/auth/actions';
import { PolicySessions } from '../../../services/auth/lib/policy-sessions';

type PoliciesParams = Extract<AuthCheckParams, { kind: 'policies' }>;

describe('auth: PolicySessions cache keys (one per identity and set of policies)', () => {
  let lookups: Array<{ orgId: string; policyIds: string[] }>;
  let sessions: PolicySessions;
  const check = (keyId: string, policyIds: string[], alias = keyId): PoliciesParams => ({
    kind: 'policies',
    org_id: 'org1',
    key_id: keyId,
    policy_ids: policyIds,
    alias,
  });
  const ask = async (params: PoliciesParams): Promise<AuthCheckResult> => sessions.session(params);

  beforeEach(() => {
    lookups = [];
    sessions = new PolicySessions(async (orgId, policyIds) => {
      lookups.push({ orgId, policyIds });
      return { session: { rate: policyIds.length, per: 1, apply_policies: policyIds } };
    });
  });

  it('asks the store once per identity and set of policies, whatever object or order the check comes in', async () => {
    const alice = check('org1alice', ['p1', 'p2']);
    const first = await ask(alice);
    assert.ok(first.ok);
    assert.equal(first.session.alias, 'org1alice');
    // the same object again (the gateway of this node reuses a verified token's check)
    const again = sessions.session(alice);
    assert.ok(!(again instanceof Promise), 'a known session is answered synchronously');
    assert.deepEqual(again, first);
    // an equal check made anew (over the bus), its policies in another order
    assert.deepEqual(await ask(check('org1alice', ['p2', 'p1'])), first);
    assert.equal(lookups.length, 1);
  });

  it('keeps identities and sets of policies apart', async () => {
    const alice = await ask(check('org1alice', ['p1']));
    const bob = await ask(check('org1bob', ['p1']));
    const aliceMore = await ask(check('org1alice', ['p1', 'p2']));
    assert.ok(alice.ok && bob.ok && aliceMore.ok);
    assert.notEqual(alice.key_hash, bob.key_hash);
    assert.equal(alice.key_hash, aliceMore.key_hash, 'limits are counted per identity');
    assert.equal(aliceMore.session.rate, 2);
    assert.equal(lookups.length, 3);
  });

  it('asks the store again for a check it knew once policies changed', async () => {
    const alice = check('org1alice', ['p1']);
    await ask(alice);
    sessions.forgetAll();
    await ask(alice);
    assert.equal(lookups.length, 2);
    assert.ok(!(sessions.session(alice) instanceof Promise));
    assert.equal(lookups.length, 2);
  });
});
