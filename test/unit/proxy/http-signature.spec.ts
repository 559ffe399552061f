import { strict as assert } from 'node:assert';
import { parseSignatureHeader } from '../../../services/proxy/pipeline/steps/auth/http-signature';

describe('proxy: HTTP signature header', () => {
  it('reads quoted values as sent, and unescapes a backslash-escaped character in them', () => {
    const fields = parseSignatureHeader('Signature keyId="a\\"b\\\\c",algorithm="hmac-sha256",headers="(request-target) Date",signature="c2ln"');
    assert.deepEqual(fields, { keyId: 'a"b\\c', algorithm: 'hmac-sha256', headers: ['(request-target)', 'date'], signature: 'c2ln' });
  });

  it('reads unquoted values, defaults the signed headers to date, and refuses an unknown field', () => {
    assert.deepEqual(parseSignatureHeader('signature  keyId=k1, signature=c2ln'), { keyId: 'k1', algorithm: '', headers: ['date'], signature: 'c2ln' });
    assert.equal(parseSignatureHeader('Signature keyId="k1",signature="c2ln",extra="x"'), undefined);
  });
});
