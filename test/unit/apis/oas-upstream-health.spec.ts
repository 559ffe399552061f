import { strict as assert } from 'node:assert';
import { compileOasDefinition } from '../../../services/apis/lib/oas';
import { classicToOas } from '../../../services/apis/lib/oas/from-classic';

function document(extension: Record<string, unknown>, operation: Record<string, unknown> = {}): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: { '/orders/{id}': { get: { operationId: 'getOrder', responses: { 200: { description: 'ok' } } } } },
    'x-gw-api-gateway': {
      info: { name: 'T' },
      server: { listenPath: { value: '/t/' } },
      ...extension,
      middleware: { ...(extension.middleware as object), operations: { getOrder: operation } },
    },
  };
}

describe('apis: OAS CORS, load balancing, service discovery, uptime tests and circuit breakers', () => {
  it('maps middleware.global.cors to the classic CORS block', () => {
    const classic: Record<string, any> = compileOasDefinition(
      document({
        upstream: { url: 'http://u.test' },
        middleware: {
          global: {
            cors: {
              enabled: true,
              allowedOrigins: ['https://*.example.com'],
              allowedMethods: ['GET'],
              allowCredentials: true,
              maxAge: 60,
              optionsPassthrough: true,
            },
          },
        },
      }),
    ).classic;
    assert.deepEqual(classic.CORS, {
      enable: true,
      allowed_origins: ['https://*.example.com'],
      allowed_methods: ['GET'],
      allowed_headers: [],
      exposed_headers: [],
      allow_credentials: true,
      max_age: 60,
      options_passthrough: true,
      debug: false,
    });
  });

  it('maps upstream.loadBalancing (weights as repeated turns), serviceDiscovery and uptimeTests', () => {
    const classic: Record<string, any> = compileOasDefinition(
      document({
        upstream: {
          url: 'http://u.test',
          loadBalancing: {
            enabled: true,
            skipUnavailableHosts: true,
            targets: [
              { url: 'http://a.test', weight: 2 },
              { url: 'http://b.test', weight: 1 },
            ],
          },
          serviceDiscovery: { enabled: false, queryEndpoint: 'http://sd.test' },
          uptimeTests: {
            enabled: true,
            tests: [{ url: 'http://a.test/health', timeout: '2s', interval: '500ms', expectedStatus: 204 }],
          },
        },
      }),
    ).classic;
    assert.equal(classic.proxy.enable_load_balancing, true);
    assert.deepEqual(classic.proxy.target_list, ['http://a.test', 'http://a.test', 'http://b.test']);
    assert.equal(classic.proxy.check_host_against_uptime_tests, true);
    assert.equal(classic.proxy.service_discovery, undefined, 'switched off');
    assert.deepEqual(classic.uptime_tests.check_list, [
      {
        url: 'http://a.test/health',
        method: 'GET',
        headers: {},
        body: '',
        timeout: 2,
        interval: 0.5,
        expected_status: 204,
      },
    ]);
  });

  it('maps serviceDiscovery with its cache timeout', () => {
    const classic: Record<string, any> = compileOasDefinition(
      document({
        upstream: {
          url: 'http://u.test',
          serviceDiscovery: {
            enabled: true,
            queryEndpoint: 'http://sd.test/v2/keys',
            useNestedQuery: true,
            parentDataPath: 'node.value',
            dataPath: 'hostname',
            portDataPath: 'port',
            cache: { enabled: true, timeout: 30 },
          },
        },
      }),
    ).classic;
    assert.equal(classic.proxy.service_discovery.use_discovery_service, true);
    assert.equal(classic.proxy.service_discovery.cache_timeout, 30);
    assert.equal(classic.proxy.service_discovery.parent_data_path, 'node.value');
  });

  it('maps an operation’s circuitBreaker to a circuit_breakers entry, and refuses a threshold above 1', () => {
    const classic: Record<string, any> = compileOasDefinition(
      document(
        { upstream: { url: 'http://u.test' } },
        {
          circuitBreaker: {
            enabled: true,
            threshold: 0.5,
            sampleSize: 10,
            coolDownPeriod: 30,
            halfOpenStateEnabled: true,
          },
        },
      ),
    ).classic;
    const [entry] = classic.version_data.versions.Default.extended_paths.circuit_breakers;
    assert.equal(entry.method, 'GET');
    assert.equal(entry.threshold_percent, 0.5);
    assert.equal(entry.samples, 10);
    assert.equal(entry.return_to_service_after, 30);
    assert.equal(entry.disable_half_open_state, false);
    assert.throws(() =>
      compileOasDefinition(
        document(
          { upstream: { url: 'http://u.test' } },
          { circuitBreaker: { enabled: true, threshold: 50, sampleSize: 10, coolDownPeriod: 30 } },
        ),
      ),
    );
  });
});

describe('apis: classic CORS, load balancing, discovery, uptime tests and breakers exported to OAS and back', () => {
  it('round-trips the classic fields through x-gw-api-gateway', () => {
    const classic = {
      id: 'x',
      api_id: 'rt',
      name: 'rt',
      org_id: 'o',
      active: true,
      use_keyless: true,
      CORS: {
        enable: true,
        allowed_origins: ['https://*.example.com'],
        allowed_methods: ['GET'],
        allowed_headers: ['X-A'],
        exposed_headers: [],
        allow_credentials: true,
        max_age: 5,
        options_passthrough: false,
      },
      proxy: {
        listen_path: '/rt/',
        target_url: 'http://a.test',
        strip_listen_path: true,
        enable_load_balancing: true,
        target_list: ['http://a.test', 'http://a.test', 'http://b.test'],
        check_host_against_uptime_tests: true,
      },
      uptime_tests: {
        check_list: [{ url: 'http://a.test/health', method: 'GET', interval: 0.5, expected_status: 204 }],
        config: { failure_trigger_sample_size: 2 },
      },
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
                  path: '/orders',
                  method: 'GET',
                  threshold_percent: 0.5,
                  samples: 10,
                  return_to_service_after: 30,
                  disable_half_open_state: false,
                },
              ],
            },
          },
        },
      },
    };
    const document = classicToOas(classic);
    const back: Record<string, any> = compileOasDefinition(document).classic;
    assert.deepEqual(back.CORS, { ...classic.CORS, debug: false });
    assert.deepEqual(back.proxy.target_list, classic.proxy.target_list);
    assert.equal(back.proxy.check_host_against_uptime_tests, true);
    assert.deepEqual(back.uptime_tests.check_list[0], {
      url: 'http://a.test/health',
      method: 'GET',
      headers: {},
      body: '',
      interval: 0.5,
      expected_status: 204,
    });
    assert.deepEqual(back.uptime_tests.config, { failure_trigger_sample_size: 2 });
    const [breaker] = back.version_data.versions.Default.extended_paths.circuit_breakers;
    assert.deepEqual(
      { ...breaker, path: undefined },
      {
        path: undefined,
        method: 'GET',
        threshold_percent: 0.5,
        samples: 10,
        return_to_service_after: 30,
        disable_half_open_state: false,
      },
    );
  });
});
