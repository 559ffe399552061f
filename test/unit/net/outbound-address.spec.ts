import { strict as assert } from 'node:assert';
import type { LookupAddress } from 'node:dns';
import {
  assertOutboundHost,
  guardedLookup,
  isForbiddenAddress,
  OutboundAddressRefused,
} from '../../../lib/net/outbound-address';

describe("outbound-address policy (URLs fetched on a tenant's behalf)", () => {
  const table: Array<[string, boolean]> = [
    ['169.254.169.254', true],
    ['169.254.0.1', true],
    ['100.100.100.200', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['fe80::1', true],
    ['fd00:ec2::254', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:a9fe:a9fe', true],
    ['0:0:0:0:0:ffff:a9fe:a9fe', true],
    ['::', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['192.168.1.10', false],
    ['::1', false],
    ['93.184.216.34', false],
    ['not-an-address', false],
  ];
  for (const [address, forbidden] of table) {
    it(`${forbidden ? 'refuses' : 'allows'} ${address}`, () => assert.equal(isForbiddenAddress(address), forbidden));
  }

  it('judges IP literals in URLs, IPv6 brackets included', () => {
    assert.throws(() => assertOutboundHost(new URL('http://[fe80::1]:8080/x')), OutboundAddressRefused);
    assert.throws(() => assertOutboundHost(new URL('http://169.254.169.254/latest')), OutboundAddressRefused);
    // the URL parser turns other spellings of an IPv4 address into the dotted one
    assert.throws(() => assertOutboundHost(new URL('http://2852039166/latest')), OutboundAddressRefused);
    assert.throws(() => assertOutboundHost(new URL('http://0xA9FEA9FE/latest')), OutboundAddressRefused);
    assert.throws(() => assertOutboundHost(new URL('http://[::ffff:a9fe:a9fe]/latest')), OutboundAddressRefused);
    assertOutboundHost(new URL('http://127.0.0.1:3000/spec.yaml'));
    assertOutboundHost(new URL('https://specs.example.test/spec.yaml'));
  });

  const resolvingTo = (...addresses: string[]) =>
    guardedLookup((_hostname, _options, callback) =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  const lookup = (fn: ReturnType<typeof guardedLookup>, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      fn('specs.example.test', { all }, (err, address, family) => resolve({ err, address, family })),
    );

  it('refuses a name when any of its addresses is forbidden (DNS pointing at the metadata service)', async () => {
    const { err } = await lookup(resolvingTo('10.0.0.5', '169.254.169.254'), true);
    assert.ok(err instanceof OutboundAddressRefused);
    assert.equal(
      err.message,
      'specs.example.test resolves to 169.254.169.254, which is a link-local, cloud-metadata or multicast address',
    );
  });

  it('hands the checked addresses to the socket, one or all as asked', async () => {
    assert.deepEqual(await lookup(resolvingTo('10.0.0.5', '::1'), true), {
      err: null,
      address: [
        { address: '10.0.0.5', family: 4 },
        { address: '::1', family: 6 },
      ],
      family: undefined,
    });
    assert.deepEqual(await lookup(resolvingTo('10.0.0.5'), false), { err: null, address: '10.0.0.5', family: 4 });
  });
});
