import { strict as assert } from 'node:assert';
import type { LookupAddress } from 'node:dns';
import { classifyAddress, type AddressClass } from '../../../lib/net/address-ranges';
import { assertOutboundHost, guardedLookup, OutboundAddressRefused } from '../../../lib/net/outbound-address';
import { addressRefusal, currentOutboundPolicy, installOutboundPolicy } from '../../../lib/net/outbound-policy';
import { outboundPolicy } from '../../../lib/net/outbound-policy';
import { loadConfig } from '../../../lib/config/load-config';

describe('outbound policy: address classes, GW_OUTBOUND_POLICY and GW_OUTBOUND_ALLOW', () => {
  const table: Array<[string, AddressClass]> = [
    // always refused
    ['169.254.169.254', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['::', 'forbidden'],
    // loopback, both ends of 127/8
    ['127.0.0.1', 'private'],
    ['127.0.0.0', 'private'],
    ['127.255.255.255', 'private'],
    ['::1', 'private'],
    // RFC 1918 with the addresses just outside each block
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', 'public'],
    ['9.255.255.255', 'public'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['192.169.0.0', 'public'],
    // carrier-grade NAT
    ['100.64.0.0', 'private'],
    ['100.127.255.255', 'private'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['192.0.0.8', 'private'],
    ['198.18.0.1', 'private'],
    // unique-local and site-local IPv6
    ['fc00::1', 'private'],
    ['fdff:ffff::1', 'private'],
    ['fbff::1', 'public'],
    ['fec0::1', 'private'],
    // IPv6 forms carrying an IPv4 address are judged as it
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['0:0:0:0:0:ffff:a00:1', 'private'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::127.0.0.1', 'private'],
    ['64:ff9b::127.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::1', 'private'],
    ['2002:a9fe:a9fe::', 'forbidden'],
    ['2002:808:808::1', 'public'],
    // Teredo: the client address is stored inverted (127.0.0.1 → 80ff:fffe)
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'private'],
    ['[::1]', 'private'],
    ['fe80::1%eth0', 'forbidden'],
    // public
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
    ['not-an-address', 'public'],
  ];
  for (const [address, expected] of table) {
    it(`${address} is ${expected}`, () => assert.equal(classifyAddress(address), expected));
  }

  describe('refusals by mode', () => {
    const allow = outboundPolicy('allow');
    const allowList = ['10.1.0.0/16', '127.0.0.1/32', 'db.internal', '*.corp.internal', 'fd12::/16', '169.254.0.0/16'];
    const deny = outboundPolicy('deny-private', allowList);

    it("'allow' refuses only the always-refused ranges", () => {
      assert.equal(addressRefusal('127.0.0.1', undefined, allow), undefined);
      assert.equal(addressRefusal('10.0.0.1', undefined, allow), undefined);
      assert.equal(addressRefusal('169.254.169.254', undefined, allow), 'forbidden');
    });

    it("'deny-private' refuses private addresses not on the allow list", () => {
      assert.equal(addressRefusal('10.0.0.1', undefined, deny), 'private');
      assert.equal(addressRefusal('127.0.0.2', undefined, deny), 'private');
      assert.equal(addressRefusal('::1', undefined, deny), 'private');
      assert.equal(addressRefusal('93.184.216.34', undefined, deny), undefined);
    });

    it('the allow list lets CIDRs, single addresses (mapped forms too) and host names through', () => {
      assert.equal(addressRefusal('10.1.255.255', undefined, deny), undefined);
      assert.equal(addressRefusal('10.2.0.0', undefined, deny), 'private');
      assert.equal(addressRefusal('127.0.0.1', undefined, deny), undefined);
      assert.equal(addressRefusal('::ffff:127.0.0.1', undefined, deny), undefined);
      assert.equal(addressRefusal('fd12:1::1', undefined, deny), undefined);
      assert.equal(addressRefusal('192.168.1.1', 'db.internal', deny), undefined);
      assert.equal(addressRefusal('192.168.1.1', 'DB.Internal.', deny), undefined);
      assert.equal(addressRefusal('192.168.1.1', 'a.b.corp.internal', deny), undefined);
      assert.equal(addressRefusal('192.168.1.1', 'corp.internal', deny), 'private');
      assert.equal(addressRefusal('192.168.1.1', 'other.internal', deny), 'private');
    });

    it('the allow list never lifts the always-refused ranges', () => {
      assert.equal(addressRefusal('169.254.169.254', 'db.internal', deny), 'forbidden');
    });

    it('refuses allow-list entries that are neither CIDR, address nor name', () => {
      for (const bad of ['10.0.0.0/33', '::1/129', '10.0.0.0/x', 'http://db.internal', '10.0.0.0/8/1', 'a b']) {
        assert.throws(() => outboundPolicy('deny-private', [bad]), /is not/, bad);
      }
    });
  });

  describe('the guard under deny-private', () => {
    const deny = outboundPolicy('deny-private', ['127.0.0.1/32']);
    const entry = (address: string): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 });
    const resolvingTo = (...addresses: string[]) =>
      guardedLookup((_hostname, _options, callback) => callback(null, addresses.map(entry)), deny);
    const lookup = (fn: ReturnType<typeof guardedLookup>) =>
      new Promise<{ err: Error | null; address: unknown }>((resolve) => {
        fn('api.example.test', { all: false }, (err, address) => resolve({ err, address }));
      });

    it('refuses a name resolving to a private address, naming it', async () => {
      const { err } = await lookup(resolvingTo('10.0.0.1'));
      assert.ok(err instanceof OutboundAddressRefused);
      assert.equal(
        err.message,
        'api.example.test resolves to 10.0.0.1, which is a loopback or private-network address',
      );
    });

    it('lets an allow-listed address through', async () => {
      assert.deepEqual(await lookup(resolvingTo('127.0.0.1')), { err: null, address: '127.0.0.1' });
    });

    it('refuses private IP literals in URLs, in every spelling the URL parser accepts', () => {
      const urls = [
        'http://10.0.0.1/',
        'http://[::ffff:10.0.0.1]/',
        'http://0x0a000001/',
        'http://[fd00::1]/',
        'http://127.0.0.2/',
      ];
      for (const url of urls) {
        assert.throws(() => assertOutboundHost(new URL(url), deny), OutboundAddressRefused, url);
      }
      assertOutboundHost(new URL('http://127.0.0.1:3000/'), deny);
    });
  });

  describe('configuration', () => {
    it("defaults to 'allow' with no allow list", () => {
      const config = loadConfig({});
      assert.equal(config.outboundPolicy, 'allow');
      assert.deepEqual(config.outboundAllow, []);
    });

    it('reads GW_OUTBOUND_POLICY and the comma list GW_OUTBOUND_ALLOW', () => {
      const config = loadConfig({ GW_OUTBOUND_POLICY: 'deny-private', GW_OUTBOUND_ALLOW: '10.1.0.0/16, db.internal' });
      assert.equal(config.outboundPolicy, 'deny-private');
      assert.deepEqual(config.outboundAllow, ['10.1.0.0/16', 'db.internal']);
    });

    it('fails at start on an unknown mode or a bad allow-list entry, naming the variable', () => {
      assert.throws(() => loadConfig({ GW_OUTBOUND_POLICY: 'deny' }), /GW_OUTBOUND_POLICY/);
      const badCidr = /GW_OUTBOUND_ALLOW: '10.0.0.0\/40' is not a valid CIDR/;
      assert.throws(() => loadConfig({ GW_OUTBOUND_ALLOW: '10.0.0.0/40' }), badCidr);
    });

    it('the policy a node installs is the process policy until the node stops', () => {
      const before = currentOutboundPolicy();
      const policy = outboundPolicy('deny-private');
      const release = installOutboundPolicy(policy);
      assert.equal(currentOutboundPolicy(), policy);
      release();
      assert.equal(currentOutboundPolicy(), before);
    });
  });
});
