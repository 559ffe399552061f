import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiDefinition } from '../../support/gateway-fixture';
import { http } from '../../support/http';
import { asymmetricKey, freshClaims, signToken, startJwksServer, type JwksServer } from '../../support/jwt-tokens';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { startUpstream, type Upstream } from '../../support/upstream';

/**
 * GW_OUTBOUND_POLICY=deny-private covers key sets too: a JWKS URL on a loopback address is never
 * fetched, whoever configured it, and its tokens are refused. The definition reaches the gateway
 * through the apps folder (as one saved before the policy was turned on would), so the guard at
 * connection time is what is tested.
 */
describe('JWT key sets under GW_OUTBOUND_POLICY=deny-private', function () {
  this.timeout(30_000);
  let node: TestNode;
  let upstream: Upstream;
  let jwks: JwksServer;
  let rsa: Awaited<ReturnType<typeof asymmetricKey>>;

  before(async () => {
    upstream = await startUpstream();
    rsa = await asymmetricKey('RS256');
    jwks = await startJwksServer([rsa]);
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-test-'));
    mkdirSync(join(dataDir, 'apps'));
    const definition = apiDefinition('jwt-loopback', '/jwt-loopback', upstream.url, {
      use_keyless: false,
      enable_jwt: true,
      jwt_signing_method: 'rsa',
      jwt_source: Buffer.from(jwks.url).toString('base64'),
      jwt_default_policies: ['any'],
    });
    writeFileSync(join(dataDir, 'apps', 'jwt-loopback.json'), JSON.stringify(definition));
    node = await startTestNode({ dataDir, outboundPolicy: 'deny-private' });
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    await jwks?.close();
    if (node) removeDir(node.dataDir);
  });

  it('does not fetch a key set on 127.0.0.1 and refuses the token with 403', async () => {
    const token = await signToken(rsa, freshClaims({ sub: 'alice' }));
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await http(`${node.gatewayUrl}/jwt-loopback/x`, { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual([res.status, res.json?.error], [403, 'Key not authorized'], res.text);
    }
    assert.equal(jwks.requests, 0);
    assert.equal(upstream.received.length, 0);
  });
});
