import { strict as assert } from 'node:assert';
import { AUTH_METHODS, identityChoices, isOn, withKeyless, withMode } from '../../../ui/src/designer/auth-modes';
import {
  clientIdRows,
  clientIdsOf,
  jwtSourceText,
  jwtSourceValue,
  mapOf,
  rowsOf,
} from '../../../ui/src/designer/jwt-fields';
import type { Definition } from '../../../ui/src/definition';

const mode = (id: string) => AUTH_METHODS.find((m) => m.id === id)!;
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The designer's JWT and OpenID Connect fields: what it stores for what the user typed, and which modes it offers. */
describe('ui: designer JWT and OpenID Connect', () => {
  const PEM = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n';
  const JWKS = 'https://idp.example.com/.well-known/jwks.json';

  it('stores jwt_source as base64 of what was typed and shows it decoded again', () => {
    for (const text of [PEM, JWKS, 'a shared secret ✓']) {
      const stored = jwtSourceValue(text);
      assert.equal(stored, base64(text));
      assert.equal(jwtSourceText(stored), text);
    }
  });

  it('shows a JWKS URL stored in plain text (as the reference gateway accepts it) as written, and stores nothing for an empty source', () => {
    assert.equal(jwtSourceText(JWKS), JWKS);
    assert.equal(jwtSourceText(undefined), '');
    assert.equal(jwtSourceValue('  \n'), '');
  });

  it('stores OpenID client ids as base64 keys of their policies and lists them in plain text', () => {
    const rows = [
      { key: 'web-app', value: 'gold' },
      { key: 'mobile.client@example.com', value: 'silver' },
      { key: '', value: 'not yet named' },
    ];
    const stored = clientIdsOf(rows);
    assert.deepEqual(stored, { [base64('web-app')]: 'gold', [base64('mobile.client@example.com')]: 'silver' });
    assert.deepEqual(clientIdRows(stored), rows.slice(0, 2));
  });

  it('keeps scope → policy rows as a plain map, the last of equal scopes winning', () => {
    const map = mapOf([
      { key: 'read', value: 'p1' },
      { key: 'write', value: 'p2' },
      { key: 'read', value: 'p3' },
    ]);
    assert.deepEqual(map, { read: 'p3', write: 'p2' });
    assert.deepEqual(rowsOf(map), [
      { key: 'read', value: 'p3' },
      { key: 'write', value: 'p2' },
    ]);
  });

  it('offers jwt_claim and oidc_user as base identities when those modes are on with another', () => {
    let def: Definition = withKeyless({ use_keyless: true }, false);
    assert.deepEqual(identityChoices(def), [], 'the auth token alone: nothing to choose');
    def = withMode(def, mode('jwt'), true);
    assert.deepEqual(
      identityChoices(def).map(([identity]) => identity),
      ['auth_token', 'jwt_claim'],
    );
    def = withMode(withMode(def, mode('token'), false), mode('oidc'), true);
    assert.deepEqual(
      identityChoices(def).map(([identity]) => identity),
      ['jwt_claim', 'oidc_user'],
    );
    def = { ...def, base_identity_provided_by: 'oidc_user' };
    def = withMode(def, mode('oidc'), false);
    assert.equal(def.base_identity_provided_by, '', 'the chosen mode went off: no longer the base identity');
    assert.equal(isOn(def, mode('token')), false, 'JWT alone protects the API: the auth token is not implied');
    assert.deepEqual(identityChoices(def), []);
  });

  it('picks a signing method when JWT is switched on, and keeps the one a definition has', () => {
    assert.equal(withMode({ use_keyless: true }, mode('jwt'), true).jwt_signing_method, 'rsa');
    assert.equal(withMode({ jwt_signing_method: 'eddsa' }, mode('jwt'), true).jwt_signing_method, 'eddsa');
  });
});
