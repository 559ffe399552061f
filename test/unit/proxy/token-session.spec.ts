import { strict as assert } from 'node:assert';
import { hash } from 'node:crypto';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { readClaimMapping } from '../../../services/proxy/pipeline/steps/auth/jwt-settings';
import {
  identityOf,
  policiesOf,
  policyClaimOf,
  sessionKeyId,
} from '../../../services/proxy/pipeline/steps/auth/token-session';

/** The claim mapping an API with these classic fields gets. */
const mappingOf = (fields: Record<string, unknown>) => readClaimMapping(fields as unknown as ApiDefinition, 'jwt');
const messageOf = (outcome: unknown) => (outcome as { status: number; message: string }).message;

describe('proxy: the session of a verified token (identity and policies from its claims)', () => {
  describe('identity', () => {
    it('is jwt_identity_base_field, a literal key before a nested path, else sub', () => {
      const mapping = mappingOf({ jwt_identity_base_field: 'user.id' });
      assert.equal(identityOf({ user: { id: 'nested' }, sub: 's' }, mapping), 'nested');
      assert.equal(identityOf({ 'user.id': 'literal', user: { id: 'nested' } }, mapping), 'literal');
      assert.equal(identityOf({ user: { id: 42 }, sub: 's' }, mapping), 's');
      assert.equal(identityOf({ sub: 's' }, mapping), 's');
    });

    it('tries jwt_subject_claims in order (over jwt_identity_base_field), then sub', () => {
      const mapping = mappingOf({ jwt_subject_claims: ['email', 'uid'], jwt_identity_base_field: 'ignored' });
      assert.equal(identityOf({ email: 'e', uid: 'u', ignored: 'i', sub: 's' }, mapping), 'e');
      assert.equal(identityOf({ uid: 'u', ignored: 'i', sub: 's' }, mapping), 'u');
      assert.equal(identityOf({ ignored: 'i', sub: 's' }, mapping), 's');
    });

    it('refuses a token with no identity claim with 403', () => {
      const outcome = identityOf({ name: 'n', sub: 7 }, mappingOf({ jwt_identity_base_field: 'uid' }));
      assert.deepEqual(
        { status: (outcome as { status: number }).status, message: messageOf(outcome) },
        { status: 403, message: 'no suitable claims for user ID were found' },
      );
    });

    it('refuses an identity claim that is present but empty instead of trying the next one', () => {
      const mapping = mappingOf({ jwt_subject_claims: ['email', 'user.id'] });
      assert.equal(
        messageOf(identityOf({ email: '', sub: 's' }, mapping)),
        'found an empty user ID in predefined base claim, claim: email',
      );
      assert.equal(
        messageOf(identityOf({ user: { id: '' }, sub: 's' }, mapping)),
        'found an empty user ID in predefined base claim, claim: user.id',
      );
      assert.equal(messageOf(identityOf({ sub: '' }, mapping)), 'found an empty user ID in sub claim');
    });
  });

  describe('base policy claim', () => {
    it('reads jwt_policy_field_name, nested too; jwt_base_policy_claims in order win over it', () => {
      assert.equal(policyClaimOf({ org: { pol: 'p1' } }, mappingOf({ jwt_policy_field_name: 'org.pol' })), 'p1');
      const mapping = mappingOf({ jwt_base_policy_claims: ['a', 'b'], jwt_policy_field_name: 'c' });
      assert.equal(policyClaimOf({ b: 'pb', c: 'pc' }, mapping), 'pb');
      assert.equal(policyClaimOf({ a: 'pa', b: 'pb' }, mapping), 'pa');
      assert.equal(policyClaimOf({ c: 'pc' }, mapping), undefined);
      assert.equal(policyClaimOf({ a: ['pa'] }, mapping), undefined);
    });
  });

  describe('policies', () => {
    const scoped = {
      jwt_default_policies: ['d1', 'd2'],
      jwt_scope_claim_name: 'perm.granted',
      jwt_scope_to_policy_mapping: { read: 'pr', write: 'pw', also: 'pr' },
    };

    it('takes the base policy, else every default policy, else refuses with 403', () => {
      const mapping = mappingOf({ jwt_default_policies: ['d1', 'd2'] });
      assert.deepEqual(policiesOf({}, mapping, 'base'), ['base']);
      assert.deepEqual(policiesOf({}, mapping, undefined), ['d1', 'd2']);
      assert.deepEqual(policiesOf({}, mappingOf({}), undefined), {
        status: 403,
        message: 'key not authorized: no matching policy found',
        reason: 'no policy for the token',
      });
    });

    it('adds the mapped scopes (string or array, nested claim) to the base policy, once each', () => {
      const mapping = mappingOf(scoped);
      assert.deepEqual(policiesOf({ perm: { granted: 'read other also' } }, mapping, 'base'), ['base', 'pr']);
      assert.deepEqual(policiesOf({ perm: { granted: ['write', ['read']] } }, mapping, 'base'), ['base', 'pw', 'pr']);
    });

    it('replaces the default policies with the mapped scopes', () => {
      assert.deepEqual(policiesOf({ perm: { granted: 'write' } }, mappingOf(scoped), undefined), ['pw']);
    });

    it('keeps the base policy when no scope maps, and refuses when nothing is left', () => {
      const mapping = mappingOf(scoped);
      assert.deepEqual(policiesOf({ perm: { granted: 'admin' } }, mapping, 'base'), ['base']);
      assert.equal(
        messageOf(policiesOf({ perm: { granted: 'admin' } }, mapping, undefined)),
        'key not authorized: no matching policy found in scope claim',
      );
    });

    it('ignores the scope mapping for a token without scopes', () => {
      assert.deepEqual(policiesOf({}, mappingOf(scoped), undefined), ['d1', 'd2']);
    });

    it('reads scopes.jwt over the older jwt_scope_* fields, with scope as the default claim', () => {
      const mapping = mappingOf({
        jwt_scope_claim_name: 'old',
        jwt_scope_to_policy_mapping: { read: 'old-policy' },
        scopes: { jwt: { scope_to_policy: { read: 'new-policy' } } },
      });
      assert.deepEqual(policiesOf({ scope: 'read', old: 'read' }, mapping, undefined), ['new-policy']);
    });
  });

  describe('session key id', () => {
    it('is the organisation and an MD5 of each part, so it never holds the identity itself', () => {
      const md5 = (text: string) => hash('md5', text, 'hex');
      assert.equal(sessionKeyId('org1', 'alice'), `org1${md5('alice')}`);
      assert.equal(sessionKeyId('org1', 'client', 'alice'), `org1${md5('client')}${md5('alice')}`);
      assert.notEqual(sessionKeyId('org1', 'alice'), sessionKeyId('org2', 'alice'));
    });
  });
});
