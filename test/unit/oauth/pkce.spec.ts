import { strict as assert } from 'node:assert';
import type { OAuthApiSettings } from '../../../contracts/oauth/actions';
import { assertVerifier, challengeOf } from '../../../services/oauth/lib/pkce';

const api: OAuthApiSettings = { api_id: 'a', org_id: 'o', name: 'A' };
const strict: OAuthApiSettings = { ...api, oauth_meta: { require_pkce: true } };
// RFC 7636 Appendix B
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** The OAuth error a call throws: its RFC 6749 code. */
function oauthError(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return (err as { data?: { error?: string } }).data?.error;
  }
  return undefined;
}

describe('oauth: PKCE (RFC 7636)', () => {
  it('checks the verifier of RFC 7636 Appendix B against its S256 challenge', () => {
    const challenge = challengeOf(api, 'code', CHALLENGE, 'S256');
    assert.deepEqual(challenge, { code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    assert.equal(
      oauthError(() => assertVerifier(api, challenge, VERIFIER)),
      undefined,
    );
    assert.equal(
      oauthError(() => assertVerifier(api, challenge, `${VERIFIER.slice(0, -1)}l`)),
      'invalid_grant',
    );
  });

  it('defaults to plain, where the verifier is the challenge', () => {
    const challenge = challengeOf(api, 'code', VERIFIER, undefined);
    assert.deepEqual(challenge, { code_challenge: VERIFIER, code_challenge_method: 'plain' });
    assert.equal(
      oauthError(() => assertVerifier(api, challenge, VERIFIER)),
      undefined,
    );
    assert.equal(
      oauthError(() => assertVerifier(api, challenge, CHALLENGE)),
      'invalid_grant',
    );
  });

  const refusedChallenges: Array<[string, string | undefined, string | undefined]> = [
    ['an unknown method', CHALLENGE, 'S512'],
    ['a method in the wrong case', CHALLENGE, 's256'],
    ['a method without a challenge', undefined, 'S256'],
    ['an S256 challenge that is not 43 BASE64URL characters', `${CHALLENGE}A`, 'S256'],
    ['a plain challenge shorter than 43 characters', 'abc', 'plain'],
    ['a plain challenge longer than 128 characters', 'a'.repeat(129), 'plain'],
    ['a plain challenge outside the unreserved set', `${VERIFIER}+`, 'plain'],
  ];
  for (const [what, challenge, method] of refusedChallenges) {
    it(`refuses ${what} with invalid_request`, () => {
      assert.equal(
        oauthError(() => challengeOf(api, 'code', challenge, method)),
        'invalid_request',
      );
    });
  }

  it('requires a challenge for a code where the API says so, not for a token (implicit)', () => {
    assert.equal(
      oauthError(() => challengeOf(strict, 'code', undefined, undefined)),
      'invalid_request',
    );
    assert.equal(challengeOf(strict, 'token', undefined, undefined), undefined);
    assert.equal(challengeOf(api, 'code', undefined, undefined), undefined);
  });

  it('refuses a missing verifier, a verifier without a challenge, and no challenge where required', () => {
    const challenge = challengeOf(api, 'code', CHALLENGE, 'S256');
    assert.equal(
      oauthError(() => assertVerifier(api, challenge, undefined)),
      'invalid_grant',
    );
    assert.equal(
      oauthError(() => assertVerifier(api, challenge, '')),
      'invalid_grant',
    );
    assert.equal(
      oauthError(() => assertVerifier(api, undefined, VERIFIER)),
      'invalid_grant',
    );
    assert.equal(
      oauthError(() => assertVerifier(strict, undefined, undefined)),
      'invalid_grant',
    );
    assert.equal(
      oauthError(() => assertVerifier(api, undefined, undefined)),
      undefined,
    );
  });
});
