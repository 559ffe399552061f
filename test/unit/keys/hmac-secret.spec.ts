import { strict as assert } from 'node:assert';
import { HmacSecrets } from '../../../services/keys/lib/hmac-secret';
import { SecretBox } from '../../../lib/secret-box';

describe('HMAC secrets at rest', () => {
  const secrets = new HmacSecrets(new SecretBox('node secret', 'keys.hmac_string'));

  it('seals the generated secret; the plain one is only in what issue() hands back', () => {
    const { stored, shown } = secrets.issue({ hmac_enabled: true, hmac_string: 'sent by the client' });
    assert.match(shown!, /^[A-Za-z0-9+/]{43}=$/);
    assert.ok(!JSON.stringify(stored).includes(shown!));
    assert.equal(secrets.open(stored).hmac_string, shown);
  });

  it('a key sealed under another node secret, or tampered with, opens to no secret (the signature is refused, nothing throws)', () => {
    const { stored } = secrets.issue({ hmac_enabled: true });
    const other = new HmacSecrets(new SecretBox('another node secret', 'keys.hmac_string'));
    assert.equal(other.open(stored).hmac_string, '');
    const sealed = stored.hmac_string as string;
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    assert.equal(secrets.open({ ...stored, hmac_string: tampered }).hmac_string, '');
    assert.equal(secrets.open({ hmac_enabled: true, hmac_string: 'plain text' }).hmac_string, '');
  });

  it('an update keeps the sealed secret, issues one when HMAC is turned on, drops it when turned off', () => {
    const first = secrets.issue({ hmac_enabled: true }).stored;
    const kept = secrets.carry({ hmac_enabled: true, hmac_string: 'from the client' }, first);
    assert.equal(kept.stored.hmac_string, first.hmac_string);
    assert.equal(kept.shown, undefined);
    const off = secrets.carry({ hmac_enabled: false, hmac_string: 'x' }, first);
    assert.equal(off.stored.hmac_string, undefined);
    const on = secrets.carry({ hmac_enabled: true }, off.stored);
    assert.match(on.shown!, /^[A-Za-z0-9+/]{43}=$/);
  });

  it('refuses to build a box without a node secret', () => {
    assert.throws(() => new SecretBox('', 'keys.hmac_string'), /non-empty node secret/);
  });
});
