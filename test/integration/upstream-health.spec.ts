import { strict as assert } from 'node:assert';
import type { GatewayEvent } from '../../contracts/events';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startRestartableHost, type RestartableHost } from '../support/restartable-host';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * Load balancing, service discovery, uptime tests and circuit breakers, through a gateway node
 * with real upstream hosts, and the events they raise delivered by the webhooks service.
 */
describe('upstream health: load balancing, service discovery, uptime tests, circuit breakers', function () {
  this.timeout(30_000);
  let node: TestNode;
  let tenant: Tenant;
  let hosts: RestartableHost[];
  let discovery: RestartableHost;
  /** receives the webhooks */
  let receiver: Upstream;
  const ids: Record<string, string> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string) => http(`${node.gatewayUrl}${path}`);
  const hooksFor = (...events: string[]) =>
    events.map((event_name) => ({
      event_name,
      hook: { name: `on ${event_name}`, method: 'POST', target_path: `${receiver.url}/hooks` },
      event_timeout: 0,
    }));
  const delivered = (event: string): GatewayEvent[] =>
    receiver.received
      .filter((r) => r.url === '/hooks')
      .map((r) => JSON.parse(r.body) as GatewayEvent)
      .filter((e) => e.event === event);
  const served = async (name: string) =>
    eventually(
      async () =>
        assert.equal((await http(`${node.gatewayUrl}/gw/apis/${ids[name]}`, { headers: node.gwHeaders })).status, 200),
      3000,
    );
  const createApi = async (name: string, definition: Record<string, unknown>, record: Record<string, unknown> = {}) => {
    const res = await dashboard('/apis', {
      method: 'POST',
      body: { ...keylessApi(name, `/${name}`, hosts[0].url, definition), ...record },
    });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
    await served(name);
  };
  const hostsOf = async (path: string, count: number) => {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await call(path);
      assert.equal(res.status, 200, res.text);
      names.push(res.json.host);
    }
    return names;
  };

  before(async () => {
    hosts = [await startRestartableHost('a'), await startRestartableHost('b'), await startRestartableHost('c')];
    discovery = await startRestartableHost('discovery');
    receiver = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
  });
  after(async () => {
    await node.stop();
    for (const host of [...hosts, discovery]) await host.down();
    await receiver.close();
    removeDir(node.dataDir);
  });

  describe('load balancing', () => {
    it('takes turns across the target list, skips a target that refuses connections and uses it again once it is back', async () => {
      await createApi('balanced', {
        proxy: {
          listen_path: '/balanced',
          strip_listen_path: true,
          target_url: hosts[0].url,
          enable_load_balancing: true,
          target_list: hosts.map((h) => h.url),
        },
      });
      const first = await hostsOf('/balanced/rr', 6);
      assert.deepEqual([...first].sort(), ['a', 'a', 'b', 'b', 'c', 'c']);
      assert.deepEqual(first.slice(3), first.slice(0, 3), 'round robin: the same order each turn');

      await hosts[1].down();
      const before = hosts[1].count('/rr');
      const whileDown = await hostsOf('/balanced/rr', 6);
      assert.ok(!whileDown.includes('b'), `b is skipped: ${whileDown.join(',')}`);
      assert.equal(hosts[1].count('/rr'), before);

      await hosts[1].up();
      await eventually(
        async () => assert.ok((await hostsOf('/balanced/rr', 3)).includes('b'), 'b serves again'),
        8000,
        200,
      );
    });
  });

  describe('service discovery', () => {
    it('reads a nested answer (a JSON string at parent_data_path, host and port apart) and caches it for cache_timeout', async () => {
      discovery.bodyFor.set('/nested', {
        action: 'get',
        node: { key: '/services/orders', value: JSON.stringify({ hostname: '127.0.0.1', port: hosts[2].port }) },
      });
      await createApi('nested', {
        proxy: {
          listen_path: '/nested',
          strip_listen_path: true,
          target_url: 'http://127.0.0.1:1',
          service_discovery: {
            use_discovery_service: true,
            query_endpoint: `${discovery.url}/nested`,
            use_nested_query: true,
            parent_data_path: 'node.value',
            data_path: 'hostname',
            port_data_path: 'port',
            cache_timeout: 2,
          },
        },
      });
      assert.deepEqual(await hostsOf('/nested/x', 4), ['c', 'c', 'c', 'c']);
      assert.equal(discovery.count('/nested'), 1, 'asked once within cache_timeout');

      discovery.bodyFor.set('/nested', {
        node: { value: JSON.stringify({ hostname: '127.0.0.1', port: hosts[0].port }) },
      });
      assert.deepEqual(await hostsOf('/nested/x', 1), ['c'], 'still the cached answer');
      await eventually(async () => assert.deepEqual(await hostsOf('/nested/x', 1), ['a']), 5000, 200);
      assert.equal(discovery.count('/nested'), 2);
    });

    it('load balances over a list answer (endpoint_returns_list, use_target_list), with target_path appended', async () => {
      discovery.bodyFor.set('/list', [{ address: hosts[0].url }, { address: hosts[2].url }]);
      await createApi('listed', {
        proxy: {
          listen_path: '/listed',
          strip_listen_path: true,
          target_url: 'http://127.0.0.1:1',
          service_discovery: {
            use_discovery_service: true,
            query_endpoint: `${discovery.url}/list`,
            endpoint_returns_list: true,
            data_path: 'address',
            use_target_list: true,
            target_path: '/v2',
            cache_timeout: 60,
          },
        },
      });
      const names = await hostsOf('/listed/items', 4);
      assert.deepEqual([...names].sort(), ['a', 'a', 'c', 'c']);
      assert.ok(hosts[2].hits.includes('/v2/items'), 'target_path prefixes the upstream path');
    });
  });

  describe('uptime tests', () => {
    it('takes a failing host out with HostDown and puts it back with HostUp, delivered to a webhook', async () => {
      hosts[1].statusFor.set('/health', 200);
      await createApi(
        'checked',
        {
          proxy: {
            listen_path: '/checked',
            strip_listen_path: true,
            target_url: hosts[0].url,
            enable_load_balancing: true,
            target_list: [hosts[0].url, hosts[1].url],
            check_host_against_uptime_tests: true,
          },
          uptime_tests: {
            check_list: [{ url: `${hosts[1].url}/health`, method: 'GET', interval: 0.2 }],
            config: { failure_trigger_sample_size: 2 },
          },
        },
        { hook_references: hooksFor('HostDown', 'HostUp') },
      );
      await eventually(() => assert.ok(hosts[1].count('/health') >= 1), 3000);
      assert.ok((await hostsOf('/checked/u', 4)).includes('b'));

      hosts[1].statusFor.set('/health', 500);
      await eventually(() => assert.equal(delivered('HostDown').length, 1), 5000, 50);
      const down = delivered('HostDown')[0];
      assert.equal(down.api_id, ids.checked);
      assert.equal(down.meta?.check_url, `${hosts[1].url}/health`);
      assert.equal(down.meta?.response_code, 500);
      const before = hosts[1].count('/u');
      assert.deepEqual(await hostsOf('/checked/u', 4), ['a', 'a', 'a', 'a'], 'b is out though it still answers');
      assert.equal(hosts[1].count('/u'), before);

      hosts[1].statusFor.set('/health', 200);
      await eventually(() => assert.equal(delivered('HostUp').length, 1), 5000, 50);
      assert.ok((await hostsOf('/checked/u', 4)).includes('b'), 'b is back');
      assert.equal(delivered('HostDown').length, 1, 'one event per change, not per check');
    });

    it('refuses a single target found down with check_host_against_uptime_tests; without it, only the events go out', async () => {
      hosts[0].statusFor.set('/solo-health', 500);
      hosts[0].statusFor.set('/events-only-health', 500);
      await createApi(
        'solo',
        {
          proxy: {
            listen_path: '/solo',
            strip_listen_path: true,
            target_url: hosts[0].url,
            check_host_against_uptime_tests: true,
          },
          uptime_tests: { check_list: [{ url: `${hosts[0].url}/solo-health`, interval: 0.2 }] },
        },
        { hook_references: hooksFor('HostDown') },
      );
      await createApi(
        'events-only',
        {
          proxy: { listen_path: '/events-only', strip_listen_path: true, target_url: hosts[0].url },
          uptime_tests: { check_list: [{ url: `${hosts[0].url}/events-only-health`, interval: 0.2 }] },
        },
        { hook_references: hooksFor('HostDown') },
      );
      await eventually(
        () =>
          assert.deepEqual(
            delivered('HostDown')
              .map((e) => e.api_id)
              .filter((id) => id === ids.solo || id === ids['events-only'])
              .sort(),
            [ids.solo, ids['events-only']].sort(),
          ),
        5000,
        50,
      );
      const refused = await call('/solo/x');
      assert.equal(refused.status, 503);
      assert.equal(refused.json.error, 'all hosts are down');
      assert.equal((await call('/events-only/x')).status, 200, 'not taken out without the flag');
      hosts[0].statusFor.delete('/solo-health');
      await eventually(async () => assert.equal((await call('/solo/x')).status, 200), 5000, 100);
    });

    it('stops the checks of a definition that was replaced or deleted', async () => {
      await createApi('replaced', {
        uptime_tests: { check_list: [{ url: `${hosts[2].url}/old-check`, interval: 0.1 }] },
      });
      await eventually(() => assert.ok(hosts[2].count('/old-check') >= 2), 3000);
      const definition = (await dashboard(`/apis/${ids.replaced}`)).json.api_definition;
      const res = await dashboard(`/apis/${ids.replaced}`, {
        method: 'PUT',
        body: {
          api_definition: {
            ...definition,
            uptime_tests: { check_list: [{ url: `${hosts[2].url}/new-check`, interval: 0.1 }] },
          },
        },
      });
      assert.equal(res.status, 200, res.text);
      await eventually(() => assert.ok(hosts[2].count('/new-check') >= 1), 3000);
      const oldChecks = hosts[2].count('/old-check');
      await eventually(() => assert.ok(hosts[2].count('/new-check') >= 6), 3000);
      assert.ok(hosts[2].count('/old-check') <= oldChecks + 1, 'the old checks stopped (one may have been in flight)');

      assert.equal((await dashboard(`/apis/${ids.replaced}`, { method: 'DELETE' })).status, 200);
      await eventually(async () => assert.equal((await call('/replaced/x')).status, 404), 3000);
      const newChecks = hosts[2].count('/new-check');
      // Another API's checks run every 200 ms: five more of them is time enough for several of these.
      const healthBefore = hosts[1].count('/health');
      await eventually(() => assert.ok(hosts[1].count('/health') >= healthBefore + 5), 5000);
      assert.ok(hosts[2].count('/new-check') <= newChecks + 1, 'the checks of the deleted API stopped');
    });
  });

  describe('tenant-supplied URLs', () => {
    it('refuses a discovery endpoint or uptime test on a link-local address (cloud metadata), storing nothing', async () => {
      const before = (await dashboard('/apis')).json.apis.length;
      for (const definition of [
        { uptime_tests: { check_list: [{ url: 'http://169.254.169.254/latest/meta-data/' }] } },
        {
          proxy: {
            listen_path: '/meta',
            target_url: hosts[0].url,
            service_discovery: {
              use_discovery_service: true,
              query_endpoint: 'http://[fe80::1]/v1',
              data_path: 'host',
            },
          },
        },
      ]) {
        const res = await dashboard('/apis', {
          method: 'POST',
          body: keylessApi('meta', '/meta', hosts[0].url, definition),
        });
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.Status, 'Error');
        assert.match(res.json.Message, /link-local/);
      }
      assert.equal((await dashboard('/apis')).json.apis.length, before);
    });
  });

  describe('circuit breakers', () => {
    it('trips after the failure share over the samples, answers 503 without calling the upstream, probes half-open and resets', async () => {
      await createApi(
        'fragile',
        {
          proxy: { listen_path: '/fragile', strip_listen_path: true, target_url: hosts[2].url },
          version_data: {
            not_versioned: true,
            default_version: 'Default',
            versions: {
              Default: {
                name: 'Default',
                use_extended_paths: true,
                extended_paths: {
                  circuit_breakers: [
                    { path: '/flaky', method: 'GET', threshold_percent: 0.5, samples: 4, return_to_service_after: 1 },
                  ],
                },
              },
            },
          },
        },
        { hook_references: hooksFor('BreakerTriggered', 'BreakerTripped', 'BreakerReset') },
      );
      hosts[2].statusFor.set('/flaky', 500);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call('/fragile/flaky')).status);
      assert.deepEqual(statuses, [500, 500, 500, 500]);
      const calls = hosts[2].count('/flaky');

      const open = await call('/fragile/flaky');
      assert.equal(open.status, 503);
      assert.equal(open.json.error, 'Service temporarily unavailable.');
      assert.equal((await call('/fragile/flaky')).status, 503);
      assert.equal(hosts[2].count('/flaky'), calls, 'the upstream was not called while open');
      assert.equal((await call('/fragile/other')).status, 200, 'other endpoints are not affected');
      await eventually(() => assert.equal(delivered('BreakerTripped').length, 1), 5000, 50);
      const triggered = delivered('BreakerTriggered');
      assert.equal(triggered.length, 1);
      assert.equal(triggered[0].meta?.CircuitEvent, 0);
      assert.equal(triggered[0].meta?.path, '/flaky');

      // Half-open: a failing probe opens it again.
      await eventually(
        async () => assert.equal((await call('/fragile/flaky')).status, 500, 'the probe reached the upstream'),
        4000,
        100,
      );
      assert.equal((await call('/fragile/flaky')).status, 503);
      await eventually(() => assert.equal(delivered('BreakerTripped').length, 2), 5000, 50);

      // A good probe closes it.
      hosts[2].statusFor.set('/flaky', 200);
      await eventually(async () => assert.equal((await call('/fragile/flaky')).status, 200), 4000, 100);
      assert.equal((await call('/fragile/flaky')).status, 200);
      await eventually(() => assert.equal(delivered('BreakerReset').length, 1), 5000, 50);
      const reasons = delivered('BreakerTriggered').map((e) => e.meta?.CircuitEvent);
      assert.deepEqual(reasons, [0, 0, 1]);
    });

    it('closes on its own after return_to_service_after with disable_half_open_state', async () => {
      await createApi(
        'no-half-open',
        {
          proxy: { listen_path: '/no-half-open', strip_listen_path: true, target_url: hosts[2].url },
          version_data: {
            not_versioned: true,
            default_version: 'Default',
            versions: {
              Default: {
                name: 'Default',
                use_extended_paths: true,
                extended_paths: {
                  circuit_breakers: [
                    {
                      path: '/down',
                      method: 'GET',
                      threshold_percent: 1,
                      samples: 2,
                      return_to_service_after: 1,
                      disable_half_open_state: true,
                    },
                  ],
                },
              },
            },
          },
        },
        { hook_references: hooksFor('BreakerReset') },
      );
      hosts[2].statusFor.set('/down', 503);
      assert.equal((await call('/no-half-open/down')).status, 503);
      assert.equal((await call('/no-half-open/down')).status, 503);
      const calls = hosts[2].count('/down');
      assert.equal((await call('/no-half-open/down')).json.error, 'Service temporarily unavailable.');
      assert.equal(hosts[2].count('/down'), calls);
      const resets = delivered('BreakerReset').length;
      await eventually(
        () => assert.equal(delivered('BreakerReset').length, resets + 1, 'reset by its timer, no request needed'),
        5000,
        50,
      );
      hosts[2].statusFor.set('/down', 200);
      assert.equal((await call('/no-half-open/down')).status, 200);
    });
  });
});
