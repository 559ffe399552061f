import { strict as assert } from 'node:assert';
import { dateWithinSkew, parseSignatureHeader } from '../../../services/proxy/pipeline/steps/auth/http-signature';

describe('proxy: HTTP signature header', () => {
  it('reads quoted values as sent, and unescapes a backslash-escaped character in them', () => {
    const fields = parseSignatureHeader(
      'Signature keyId="a\\"b\\\\c",algorithm="hmac-sha256",headers="(request-target) Date",signature="c2ln"',
    );
    assert.deepEqual(fields, {
      keyId: 'a"b\\c',
      algorithm: 'hmac-sha256',
      headers: ['(request-target)', 'date'],
      signature: 'c2ln',
    });
  });

  it('reads unquoted values, defaults the signed headers to date, and refuses an unknown field', () => {
    assert.deepEqual(parseSignatureHeader('signature  keyId=k1, signature=c2ln'), {
      keyId: 'k1',
      algorithm: '',
      headers: ['date'],
      signature: 'c2ln',
    });
    assert.equal(parseSignatureHeader('Signature keyId="k1",signature="c2ln",extra="x"'), undefined);
  });

  it('judges each signed date against the clock of its own request, a date read just before included', () => {
    const date = 'Mon, 02 Jan 2006 15:04:05 GMT';
    const at = Date.parse(date);
    assert.equal(dateWithinSkew(date, 1000, at + 500), true);
    assert.equal(dateWithinSkew(date, 1000, at + 1500), false, 'the same date, a later request');
    assert.equal(dateWithinSkew('Mon, 02 Jan 2006 15:04:05', 1000, at), false, 'not an HTTP date');
    assert.equal(dateWithinSkew(date, 1000, at - 999), true);
    assert.equal(dateWithinSkew('Mon, 02 Jan 2006 15:04:07 GMT', 1000, at), false, 'another date');
    assert.equal(dateWithinSkew('not a date', 0, at), false, 'with the check off, a date must still be one');
    assert.equal(dateWithinSkew(date, 0, at + 86_400_000), true);
  });
});
