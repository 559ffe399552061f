import { strict as assert } from 'node:assert';
import { compileOasDefinition } from '../../../services/apis/lib/oas';
import { classicToOas } from '../../../services/apis/lib/oas/from-classic';

function document(global: Record<string, unknown>): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: { '/orders': { get: { operationId: 'listOrders', responses: { 200: { description: 'ok' } } } } },
    'x-gw-api-gateway': {
      info: { name: 'T' },
      upstream: { url: 'http://u.test' },
      server: { listenPath: { value: '/t/' } },
      middleware: { global },
    },
  };
}

describe('apis: OAS middleware.global.cache', () => {
  it('maps every field to the classic cache_options', () => {
    const cache = {
      enabled: true,
      timeout: 30,
      cacheAllSafeRequests: true,
      cacheResponseCodes: [200, 404],
      cacheByHeaders: ['X-Tenant'],
      enableUpstreamCacheControl: true,
      controlTTLHeaderName: 'X-TTL',
    };
    const classic: Record<string, any> = compileOasDefinition(document({ cache })).classic;
    assert.deepEqual(classic.cache_options, {
      enable_cache: true,
      cache_timeout: 30,
      cache_all_safe_requests: true,
      cache_response_codes: [200, 404],
      cache_by_headers: ['X-Tenant'],
      enable_upstream_cache_control: true,
      cache_control_ttl_header: 'X-TTL',
    });
  });

  it('a switched-off cache stays off; no cache block means no cache_options', () => {
    assert.equal(
      (compileOasDefinition(document({ cache: { enabled: false, timeout: 10 } })).classic as Record<string, any>)
        .cache_options.enable_cache,
      false,
    );
    assert.equal((compileOasDefinition(document({})).classic as Record<string, any>).cache_options, undefined);
  });

  it('refuses unknown fields and bad response codes', () => {
    assert.throws(() => compileOasDefinition(document({ cache: { enabled: true, ttl: 5 } })));
    assert.throws(() => compileOasDefinition(document({ cache: { enabled: true, cacheResponseCodes: [42] } })));
  });

  it('exports classic cache_options as middleware.global.cache and back', () => {
    const classic = {
      id: 'x',
      api_id: 'rt',
      name: 'rt',
      org_id: 'o',
      active: true,
      use_keyless: true,
      proxy: { listen_path: '/rt/', target_url: 'http://a.test', strip_listen_path: true },
      cache_options: {
        enable_cache: true,
        cache_timeout: 45,
        cache_all_safe_requests: false,
        cache_response_codes: [200],
        cache_by_headers: ['Accept'],
        enable_upstream_cache_control: false,
      },
      version_data: { not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default' } } },
    };
    const exported: Record<string, any> = classicToOas(classic);
    assert.deepEqual(exported['x-gw-api-gateway'].middleware.global.cache, {
      enabled: true,
      timeout: 45,
      cacheAllSafeRequests: false,
      cacheResponseCodes: [200],
      cacheByHeaders: ['Accept'],
      enableUpstreamCacheControl: false,
    });
    const back: Record<string, any> = compileOasDefinition(exported as never).classic;
    assert.deepEqual(back.cache_options, classic.cache_options);
  });
});
