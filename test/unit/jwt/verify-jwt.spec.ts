import { strict as assert } from 'node:assert';
import {
  ALGORITHMS,
  MAX_TOKEN_LENGTH,
  NOT_AUTHORIZED,
  UNEXPECTED_SIGNING_METHOD,
  isRefusal,
  verifyJwt,
  type SigningMethod,
  type VerifiedJwt,
  type JwtRefusal,
} from '../../../lib/jwt/verify-jwt';
import {
  algorithmConfusionToken,
  asymmetricKey,
  freshClaims,
  hmacKey,
  malformedTokens,
  oversizedToken,
  rawToken,
  signToken,
  unsignedToken,
  type AsymmetricTestKey,
  type TestKey,
} from '../../support/jwt-tokens';

const METHOD_OF: Record<TestKey['alg'], SigningMethod> = {
  HS256: 'hmac',
  HS384: 'hmac',
  HS512: 'hmac',
  RS256: 'rsa',
  RS384: 'rsa',
  RS512: 'rsa',
  PS256: 'rsa',
  ES256: 'ecdsa',
  ES384: 'ecdsa',
  EdDSA: 'eddsa',
};

const verificationKey = (key: TestKey) => ('secret' in key ? key.secret : key.publicKey);

function accepted(outcome: VerifiedJwt | JwtRefusal): VerifiedJwt {
  assert.ok(!isRefusal(outcome), `refused: ${JSON.stringify(outcome)}`);
  return outcome;
}

function refused(outcome: VerifiedJwt | JwtRefusal): JwtRefusal {
  assert.ok(isRefusal(outcome), `accepted: ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('verifyJwt', function () {
  this.timeout(20_000);
  const keys: TestKey[] = [hmacKey('HS256'), hmacKey('HS384'), hmacKey('HS512')];
  let rsa: AsymmetricTestKey;

  before(async () => {
    for (const alg of ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const)
      keys.push(await asymmetricKey(alg));
    rsa = keys.find((key) => key.alg === 'RS256') as AsymmetricTestKey;
  });

  it('accepts each algorithm only under its own signing method', async () => {
    for (const key of keys) {
      const token = await signToken(key, freshClaims({ sub: key.alg }));
      for (const method of Object.keys(ALGORITHMS) as SigningMethod[]) {
        const outcome = await verifyJwt(token, ALGORITHMS[method], () => verificationKey(key));
        if (method === METHOD_OF[key.alg]) {
          assert.equal(accepted(outcome).claims.sub, key.alg, `${key.alg} under ${method}`);
          assert.equal(accepted(outcome).header.alg, key.alg);
        } else {
          const refusal = refused(outcome);
          assert.equal(refusal.status, 403, `${key.alg} under ${method}`);
          assert.equal(refusal.message, UNEXPECTED_SIGNING_METHOD, `${key.alg} under ${method}`);
        }
      }
    }
  });

  it('refuses alg none under every signing method, however it is spelt, without asking for a key', async () => {
    for (const alg of ['none', 'None', 'NONE', '']) {
      const token = rawToken({ alg, typ: 'JWT' }, freshClaims({ sub: 'mallory' }));
      for (const method of Object.keys(ALGORITHMS) as SigningMethod[]) {
        const refusal = refused(
          await verifyJwt(token, ALGORITHMS[method], () => assert.fail('a key was asked for an unsigned token')),
        );
        assert.deepEqual([refusal.status, refusal.message], [403, UNEXPECTED_SIGNING_METHOD], `${alg} / ${method}`);
      }
    }
    const missingAlg = rawToken({ typ: 'JWT' }, freshClaims());
    assert.equal(
      refused(await verifyJwt(missingAlg, ALGORITHMS.hmac, () => verificationKey(keys[0]))).message,
      UNEXPECTED_SIGNING_METHOD,
    );
    assert.equal(
      refused(await verifyJwt(unsignedToken(freshClaims()), ALGORITHMS.rsa, () => rsa.publicKey)).status,
      403,
    );
  });

  it('refuses algorithm confusion: an HS256 token signed with the public key PEM on an rsa API', async () => {
    const token = algorithmConfusionToken(rsa, freshClaims({ sub: 'mallory' }));
    const refusal = refused(await verifyJwt(token, ALGORITHMS.rsa, () => rsa.publicKey));
    assert.deepEqual([refusal.status, refusal.message], [403, UNEXPECTED_SIGNING_METHOD]);
  });

  it('refuses a token signed by another key of the right algorithm', async () => {
    for (const key of keys) {
      const stranger = 'secret' in key ? hmacKey(key.alg, key.kid) : await asymmetricKey(key.alg, key.kid);
      const token = await signToken(stranger, freshClaims());
      const refusal = refused(await verifyJwt(token, ALGORITHMS[METHOD_OF[key.alg]], () => verificationKey(key)));
      assert.deepEqual([refusal.status, refusal.message], [403, NOT_AUTHORIZED], key.alg);
    }
  });

  it('refuses a token over the size limit before asking for a key, and accepts one under it', async () => {
    const hmac = keys[0];
    const oversized = await oversizedToken(hmac, MAX_TOKEN_LENGTH + 1);
    assert.ok(oversized.length > MAX_TOKEN_LENGTH);
    const refusal = refused(
      await verifyJwt(oversized, ALGORITHMS.hmac, () => assert.fail('a key was asked for an oversized token')),
    );
    assert.deepEqual([refusal.status, refusal.message], [403, NOT_AUTHORIZED]);

    const large = await oversizedToken(hmac, MAX_TOKEN_LENGTH - 400);
    assert.ok(large.length <= MAX_TOKEN_LENGTH, `${large.length}`);
    accepted(await verifyJwt(large, ALGORITHMS.hmac, () => verificationKey(hmac)));
  });

  it('refuses each malformed token with 403 Key not authorized, under each signing method', async () => {
    for (const key of keys) {
      const valid = await signToken(key, freshClaims());
      const algorithms = ALGORITHMS[METHOD_OF[key.alg]];
      accepted(await verifyJwt(valid, algorithms, () => verificationKey(key)));
      for (const [name, token] of Object.entries(malformedTokens(valid))) {
        const refusal = refused(await verifyJwt(token, algorithms, () => verificationKey(key)));
        assert.deepEqual([refusal.status, refusal.message], [403, NOT_AUTHORIZED], `${key.alg}: ${name}`);
      }
    }
  });

  it('refuses a correctly signed payload that is not a JSON object', async () => {
    const { CompactSign } = await import('jose');
    const hmac = keys[0];
    const text = (value: string) => new TextEncoder().encode(value);
    const payloads: Record<string, Uint8Array> = {
      array: text('["sub"]'),
      string: text('"alice"'),
      number: text('42'),
      null: text('null'),
      'not JSON': text('hello'),
      'not UTF-8': new Uint8Array([0x7b, 0xff, 0x7d]),
    };
    for (const [name, bytes] of Object.entries(payloads)) {
      const token = await new CompactSign(bytes).setProtectedHeader({ alg: 'HS256' }).sign(verificationKey(hmac));
      const refusal = refused(await verifyJwt(token, ALGORITHMS.hmac, () => verificationKey(hmac)));
      assert.deepEqual([refusal.status, refusal.message], [403, NOT_AUTHORIZED], name);
    }
    const object = await new CompactSign(text('{"sub":"alice"}'))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(verificationKey(hmac));
    assert.deepEqual(accepted(await verifyJwt(object, ALGORITHMS.hmac, () => verificationKey(hmac))).claims, {
      sub: 'alice',
    });
  });

  it('refuses a token whose key cannot be found (the key lookup throws)', async () => {
    const token = await signToken(rsa, freshClaims());
    const refusal = refused(
      await verifyJwt(token, ALGORITHMS.rsa, () => {
        throw new Error('no key for this kid');
      }),
    );
    assert.deepEqual([refusal.status, refusal.message], [403, NOT_AUTHORIZED]);
  });
});
