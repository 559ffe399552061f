import { strict as assert } from 'node:assert';
import { checkTimeClaims, type ClaimSkews } from '../../../lib/jwt/time-claims';

const NOW = 1_800_000_000;
const NO_SKEW: ClaimSkews = { expiresAt: 0, issuedAt: 0, notBefore: 0 };

const messageOf = (claims: Record<string, unknown>, skews: ClaimSkews = NO_SKEW) => {
  const refusal = checkTimeClaims(claims, skews, NOW);
  if (refusal) assert.equal(refusal.status, 401);
  return refusal?.message;
};

const EXPIRED = 'Key not authorized: token has expired';
const BEFORE_ISSUED = 'Key not authorized: token used before issued';
const NOT_YET_VALID = 'Key not authorized: token is not valid yet';
const NOT_A_NUMBER = 'Key not authorized: a time claim is not a number';

describe('checkTimeClaims', () => {
  it('accepts a token without time claims (each is optional)', () => {
    assert.equal(messageOf({ sub: 'alice' }), undefined);
  });

  it('exp: valid up to the second before it, expired from that second on', () => {
    assert.equal(messageOf({ exp: NOW + 1 }), undefined);
    assert.equal(messageOf({ exp: NOW }), EXPIRED);
    assert.equal(messageOf({ exp: NOW - 1 }), EXPIRED);
  });

  it('exp with a skew: expired only once the skew has passed too', () => {
    const skews = { ...NO_SKEW, expiresAt: 30 };
    assert.equal(messageOf({ exp: NOW - 29 }, skews), undefined);
    assert.equal(messageOf({ exp: NOW - 30 }, skews), EXPIRED);
    assert.equal(messageOf({ exp: NOW - 29 }, { ...NO_SKEW, issuedAt: 30, notBefore: 30 }), EXPIRED);
  });

  it('iat: a token issued now or before is valid, one issued in the future is not', () => {
    assert.equal(messageOf({ iat: NOW }), undefined);
    assert.equal(messageOf({ iat: NOW - 100 }), undefined);
    assert.equal(messageOf({ iat: NOW + 1 }), BEFORE_ISSUED);
  });

  it('iat with a skew: a clock ahead by up to the skew is tolerated', () => {
    const skews = { ...NO_SKEW, issuedAt: 30 };
    assert.equal(messageOf({ iat: NOW + 30 }, skews), undefined);
    assert.equal(messageOf({ iat: NOW + 31 }, skews), BEFORE_ISSUED);
    assert.equal(messageOf({ iat: NOW + 30 }, { ...NO_SKEW, expiresAt: 30, notBefore: 30 }), BEFORE_ISSUED);
  });

  it('nbf: valid from that second on', () => {
    assert.equal(messageOf({ nbf: NOW }), undefined);
    assert.equal(messageOf({ nbf: NOW - 1 }), undefined);
    assert.equal(messageOf({ nbf: NOW + 1 }), NOT_YET_VALID);
  });

  it('nbf with a skew: valid up to the skew early', () => {
    const skews = { ...NO_SKEW, notBefore: 30 };
    assert.equal(messageOf({ nbf: NOW + 30 }, skews), undefined);
    assert.equal(messageOf({ nbf: NOW + 31 }, skews), NOT_YET_VALID);
    assert.equal(messageOf({ nbf: NOW + 30 }, { ...NO_SKEW, expiresAt: 30, issuedAt: 30 }), NOT_YET_VALID);
  });

  it('refuses a time claim that is present but not a finite number', () => {
    for (const name of ['exp', 'iat', 'nbf']) {
      for (const value of [String(NOW + 300), null, true, {}, [NOW + 300], Number.NaN, Number.POSITIVE_INFINITY]) {
        assert.equal(messageOf({ [name]: value }), NOT_A_NUMBER, `${name}: ${String(value)}`);
      }
    }
  });

  it('accepts fractional seconds, compared as they are', () => {
    assert.equal(messageOf({ exp: NOW + 0.5 }), undefined);
    assert.equal(messageOf({ exp: NOW - 0.5 }), EXPIRED);
  });
});
