import { strict as assert } from 'node:assert';
import { refusedAddress, checkOutboundUrl } from '../../../lib/net/tenant-urls';
import {
  CircuitBreaker,
  readBreaker,
  type BreakerSettings,
} from '../../../services/proxy/pipeline/upstream-health/circuit-breaker';
import { HostHealth } from '../../../services/proxy/pipeline/upstream-health/host-health';
import { hostsFromAnswer, readDiscovery } from '../../../services/proxy/pipeline/upstream-health/service-discovery';

describe('proxy: upstream health pieces', () => {
  it('refuses link-local and metadata addresses, allows loopback and private ones', () => {
    for (const address of ['169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200'])
      assert.ok(refusedAddress(address), address);
    for (const address of ['127.0.0.1', '10.0.0.1', '::1', '192.168.1.1']) assert.ok(!refusedAddress(address), address);
    assert.throws(() => checkOutboundUrl('http://metadata.google.internal/computeMetadata/v1/'));
    assert.throws(() => checkOutboundUrl('file:///etc/passwd'));
    assert.equal(checkOutboundUrl('http://127.0.0.1:8500/v1').port, '8500');
  });

  it('reads hosts from nested, list and target-list answers', () => {
    const nested = readDiscovery({
      use_discovery_service: true,
      query_endpoint: 'http://sd.test',
      use_nested_query: true,
      parent_data_path: 'node.value',
      data_path: 'hostname',
      port_data_path: 'port',
    })!;
    assert.deepEqual(hostsFromAnswer({ node: { value: '{"hostname":"10.0.0.2","port":8080}' } }, nested), [
      'http://10.0.0.2:8080',
    ]);
    const list = readDiscovery({
      use_discovery_service: true,
      query_endpoint: 'http://sd.test',
      endpoint_returns_list: true,
      data_path: 'Address',
      port_data_path: 'ServicePort',
      target_path: '/api',
    })!;
    assert.deepEqual(
      hostsFromAnswer(
        [
          { Address: '10.0.0.3', ServicePort: 81 },
          { Address: 'https://b.test', ServicePort: '' },
        ],
        list,
      ),
      ['http://10.0.0.3:81/api', 'https://b.test/api'],
    );
    const targets = readDiscovery({
      use_discovery_service: true,
      query_endpoint: 'http://sd.test',
      data_path: 'hosts',
      use_target_list: true,
    })!;
    assert.deepEqual(hostsFromAnswer({ hosts: ['a.test:1', 'b.test:2'] }, targets), [
      'http://a.test:1',
      'http://b.test:2',
    ]);
    assert.throws(() =>
      readDiscovery({ use_discovery_service: true, query_endpoint: 'http://169.254.169.254/', data_path: 'x' }),
    );
  });

  it('a breaker trips at the threshold over a full sample, probes once when half-open and resets', () => {
    let now = 0;
    const events: string[] = [];
    const settings = readBreaker({
      path: '/x',
      threshold_percent: 0.5,
      samples: 4,
      return_to_service_after: 10,
    }) as BreakerSettings;
    const breaker = new CircuitBreaker(
      settings,
      { tripped: () => events.push('tripped'), reset: () => events.push('reset') },
      () => now,
    );
    for (const failed of [true, false, true]) {
      assert.ok(breaker.allow());
      breaker.record(failed);
    }
    assert.deepEqual(events, [], 'three of four samples seen: not yet');
    breaker.record(false);
    assert.deepEqual(events, ['tripped'], '2 of 4 failed = 50%');
    assert.equal(breaker.allow(), false);
    now = 10_000;
    assert.equal(breaker.allow(), true, 'the probe');
    assert.equal(breaker.allow(), false, 'one probe at a time');
    breaker.record(false);
    assert.deepEqual(events, ['tripped', 'reset']);
    assert.ok(breaker.allow());
    breaker.dispose();
  });

  it('skips a refused host for a while, and one an uptime test took out until it is up', () => {
    let now = 0;
    const health = new HostHealth(2000, () => now);
    health.refused('http://a');
    assert.ok(health.isDown('http://a'));
    now = 2001;
    assert.ok(!health.isDown('http://a'));
    health.down('http://b');
    health.refused('http://b');
    now = 1e9;
    assert.ok(health.isDown('http://b'), 'a refusal does not shorten an uptime test’s verdict');
    health.up('http://b');
    assert.ok(!health.isDown('http://b'));
  });
});
