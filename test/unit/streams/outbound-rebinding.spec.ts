import { strict as assert } from 'node:assert';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolver } from '../../../lib/net/outbound-address';
import { outboundCall, type OutboundPolicy } from '../../../services/streams/lib/outbound';

/**
 * DNS rebinding: a name that answers a harmless address when the policy looks and a loopback
 * address when the connection resolves it. The policy must judge the address connected to.
 */
describe('streams outbound policy against DNS rebinding', () => {
  let node: Server;
  let reached = 0;
  before(async () => {
    node = createServer((_req, res) => void (reached++, res.end('management data')));
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise((resolve) => node.close(resolve)));

  /** answers each lookup with the next address of `answers` (the last one from then on) */
  const rebinding = (...answers: string[]): Resolver => {
    let asked = 0;
    return (_hostname, _options, callback) => {
      const address = answers[Math.min(asked++, answers.length - 1)];
      callback(null, [{ address, family: address.includes(':') ? 6 : 4 } satisfies LookupAddress]);
    };
  };
  const call = (url: string, policy: OutboundPolicy) =>
    outboundCall(url, policy, { method: 'GET', headers: {}, timeoutMs: 2000 });

  it("refuses a name that turns into this node's own port on loopback between the check and the connection", async () => {
    const port = (node.address() as AddressInfo).port;
    const policy: OutboundPolicy = {
      ownPorts: () => new Set([port]),
      resolve: rebinding('93.184.216.34', '127.0.0.1'),
    };
    await assert.rejects(call(`http://rebind.example:${port}/gw/apis`, policy), /port of this gw node/);
    assert.equal(reached, 0, 'the node answered a request the policy should have refused');
  });

  it('refuses a name that turns into a cloud-metadata address between the check and the connection', async () => {
    const policy: OutboundPolicy = {
      ownPorts: () => new Set(),
      resolve: rebinding('93.184.216.34', '169.254.169.254'),
    };
    await assert.rejects(call('http://rebind.example/latest/meta-data/', policy), /metadata/);
  });

  it('still reaches a loopback port that is not one of the node', async () => {
    const port = (node.address() as AddressInfo).port;
    const policy: OutboundPolicy = { ownPorts: () => new Set([port + 1]), resolve: rebinding('127.0.0.1') };
    const before = reached;
    const answer = await call(`http://upstream.example:${port}/`, policy);
    assert.equal(answer.body.toString(), 'management data');
    assert.equal(reached, before + 1);
  });
});
