import { strict as assert } from 'node:assert';
import { audiencesOf, claimValue, clientIdOf, scopesOf, stringClaim } from '../../../lib/jwt/claims';

describe('JWT claims', () => {
  describe('claimValue', () => {
    it('reads a nested claim by a dot path', () => {
      const claims = { user: { profile: { id: 'u-1' } } };
      assert.equal(claimValue(claims, 'user.profile.id'), 'u-1');
      assert.deepEqual(claimValue(claims, 'user.profile'), { id: 'u-1' });
    });

    it('reads a literal key with dots in its name before trying a path', () => {
      const claims = { 'user.id': 'literal', user: { id: 'nested' } };
      assert.equal(claimValue(claims, 'user.id'), 'literal');
      assert.equal(claimValue({ user: { id: 'nested' } }, 'user.id'), 'nested');
      assert.equal(claimValue({ 'https://example.com/roles': 'admin' }, 'https://example.com/roles'), 'admin');
    });

    it('is undefined when the path is missing or crosses something that is not an object', () => {
      assert.equal(claimValue({ sub: 'alice' }, 'name'), undefined);
      assert.equal(claimValue({ user: { id: 'u-1' } }, 'user.name'), undefined);
      assert.equal(claimValue({ user: 'alice' }, 'user.id'), undefined);
      assert.equal(claimValue({ user: null }, 'user.id'), undefined);
      assert.equal(claimValue({ user: [{ id: 'u-1' }] }, 'user.0.id'), undefined);
    });

    it('does not read inherited properties', () => {
      assert.equal(claimValue({}, 'constructor'), undefined);
      assert.equal(claimValue({ user: {} }, 'user.toString'), undefined);
    });
  });

  it('stringClaim: a non-empty string only', () => {
    assert.equal(stringClaim({ sub: 'alice' }, 'sub'), 'alice');
    assert.equal(stringClaim({ sub: '' }, 'sub'), undefined);
    assert.equal(stringClaim({ sub: 42 }, 'sub'), undefined);
    assert.equal(stringClaim({ a: { b: 'deep' } }, 'a.b'), 'deep');
  });

  describe('scopesOf', () => {
    it('splits a space-separated string, ignoring repeated spaces', () => {
      assert.deepEqual(scopesOf({ scope: 'read  write admin ' }, 'scope'), ['read', 'write', 'admin']);
      assert.deepEqual(scopesOf({ scope: '' }, 'scope'), []);
    });

    it('takes an array of strings, flattened, keeping strings only', () => {
      assert.deepEqual(scopesOf({ scp: ['read', ['write', ['admin']], 7, null] }, 'scp'), ['read', 'write', 'admin']);
    });

    it('reads the claim by a dot path', () => {
      assert.deepEqual(scopesOf({ realm_access: { roles: ['a', 'b'] } }, 'realm_access.roles'), ['a', 'b']);
    });

    it('is empty when the claim is missing or of another type', () => {
      assert.deepEqual(scopesOf({}, 'scope'), []);
      assert.deepEqual(scopesOf({ scope: 42 }, 'scope'), []);
      assert.deepEqual(scopesOf({ scope: { read: true } }, 'scope'), []);
    });
  });

  it('audiencesOf: a string or the strings of an array', () => {
    assert.deepEqual(audiencesOf({ aud: 'api' }), ['api']);
    assert.deepEqual(audiencesOf({ aud: ['a', 1, 'b'] }), ['a', 'b']);
    assert.deepEqual(audiencesOf({}), []);
  });

  it('clientIdOf: clientId, then cid, then client_id, non-empty strings only', () => {
    assert.equal(clientIdOf({ client_id: 'c', cid: 'b', clientId: 'a' }), 'a');
    assert.equal(clientIdOf({ client_id: 'c', cid: 'b' }), 'b');
    assert.equal(clientIdOf({ client_id: 'c', clientId: '' }), 'c');
    assert.equal(clientIdOf({ client_id: 7 }), undefined);
  });
});
