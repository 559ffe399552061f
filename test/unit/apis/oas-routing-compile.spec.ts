import { strict as assert } from 'node:assert';
import { compileOasDefinition } from '../../../services/apis/lib/oas';
import { classicToOas } from '../../../services/apis/lib/oas/from-classic';

function document(operations: Record<string, unknown>): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: { '/things/{id}': { get: { operationId: 'one', responses: { 200: { description: 'ok' } } } } },
    'x-gw-api-gateway': {
      info: { name: 'T' },
      upstream: { url: 'http://upstream.test' },
      server: { listenPath: { value: '/t/' } },
      middleware: { operations },
    },
  };
}

describe('apis: OAS operation rewrites, body and method transforms, cache, internal and virtual endpoints', () => {
  it('become the classic extended_paths lists', () => {
    const { classic } = compileOasDefinition(
      document({
        one: {
          urlRewrite: {
            enabled: true,
            pattern: '^/things/(\\d+)',
            rewriteTo: '/items/$1',
            triggers: [
              {
                condition: 'all',
                rules: [
                  { in: 'header', name: 'X-T', pattern: 'a' },
                  { in: 'requestBody', pattern: 'b', negate: true },
                ],
                rewriteTo: '/b',
              },
            ],
          },
          transformRequestBody: { enabled: true, format: 'json', body: 'e3suYX19' },
          transformResponseBody: { enabled: true, format: 'xml', path: 'resp.tmpl' },
          transformRequestMethod: { enabled: true, toMethod: 'POST' },
          cache: { enabled: true, cacheResponseCodes: [200], timeout: 5 },
          internal: { enabled: true },
          virtualEndpoint: {
            enabled: true,
            functionName: 'handler',
            body: 'ZnVuY3Rpb24gaGFuZGxlcigpe30=',
            proxyOnError: true,
          },
        },
      }),
    );
    const paths = (classic as any).version_data.versions.Default.extended_paths;
    const base = { path: '/things/{id}$', method: 'GET' };
    assert.deepEqual(paths.url_rewrites, [
      {
        ...base,
        match_pattern: '^/things/(\\d+)',
        rewrite_to: '/items/$1',
        triggers: [
          {
            on: 'all',
            options: {
              header_matches: { 'X-T': { match_rx: 'a', reverse: false } },
              payload_matches: { match_rx: 'b', reverse: true },
            },
            rewrite_to: '/b',
          },
        ],
      },
    ]);
    assert.deepEqual(paths.transform, [
      {
        ...base,
        template_data: { input_type: 'json', template_mode: 'blob', template_source: 'e3suYX19', enable_session: true },
      },
    ]);
    assert.deepEqual(paths.transform_response, [
      {
        ...base,
        template_data: { input_type: 'xml', template_mode: 'file', template_source: 'resp.tmpl', enable_session: true },
      },
    ]);
    assert.deepEqual(paths.method_transforms, [{ ...base, to_method: 'POST' }]);
    assert.deepEqual(paths.advance_cache_config, [
      { ...base, cache_response_codes: [200], cache_key_regex: '', timeout: 5 },
    ]);
    assert.deepEqual(paths.internal, [base]);
    assert.deepEqual(paths.virtual, [
      {
        ...base,
        response_function_name: 'handler',
        function_source_type: 'blob',
        function_source_uri: 'ZnVuY3Rpb24gaGFuZGxlcigpe30=',
        use_session: false,
        proxy_on_error: true,
      },
    ]);
  });

  it('refuses an unknown field of these settings', () => {
    assert.throws(() =>
      compileOasDefinition(
        document({ one: { transformRequestMethod: { enabled: true, toMethod: 'POST', extra: 1 } } }),
      ),
    );
  });
});

describe('apis: classic rewrites, body and method transforms, cache, internal and virtual endpoints exported to OAS and back', () => {
  it('round-trips each per-endpoint list through middleware.operations', () => {
    const base = { path: '/things/{id}$', method: 'GET' };
    const extended = {
      url_rewrites: [
        {
          ...base,
          match_pattern: '^/things/(\\d+)',
          rewrite_to: '/items/$1',
          triggers: [
            {
              on: 'all',
              options: {
                header_matches: { 'X-T': { match_rx: 'a', reverse: false } },
                payload_matches: { match_rx: 'b', reverse: true },
              },
              rewrite_to: '/b',
            },
          ],
        },
      ],
      transform: [
        {
          ...base,
          template_data: {
            input_type: 'json',
            template_mode: 'blob',
            template_source: 'e3suYX19',
            enable_session: true,
          },
        },
      ],
      transform_response: [
        {
          ...base,
          template_data: {
            input_type: 'xml',
            template_mode: 'file',
            template_source: 'resp.tmpl',
            enable_session: true,
          },
        },
      ],
      method_transforms: [{ ...base, to_method: 'POST' }],
      advance_cache_config: [{ ...base, cache_response_codes: [200], cache_key_regex: 'id=\\d+', timeout: 5 }],
      internal: [base],
      virtual: [
        {
          ...base,
          response_function_name: 'handler',
          function_source_type: 'blob',
          function_source_uri: 'ZnVuY3Rpb24gaGFuZGxlcigpe30=',
          use_session: true,
          proxy_on_error: true,
        },
      ],
    };
    const classic = {
      api_id: 'rt',
      name: 'rt',
      org_id: 'o',
      active: true,
      use_keyless: true,
      proxy: { listen_path: '/rt/', target_url: 'http://a.test', strip_listen_path: true },
      version_data: {
        not_versioned: true,
        default_version: 'Default',
        versions: { Default: { name: 'Default', use_extended_paths: true, extended_paths: extended } },
      },
    };
    const exported: Record<string, any> = classicToOas(classic as never);
    const [operation] = Object.values<Record<string, any>>(exported['x-gw-api-gateway'].middleware.operations);
    assert.deepEqual(operation.virtualEndpoint, {
      enabled: true,
      functionName: 'handler',
      body: 'ZnVuY3Rpb24gaGFuZGxlcigpe30=',
      requireSession: true,
      proxyOnError: true,
    });
    const back = (compileOasDefinition(exported as never).classic as any).version_data.versions.Default.extended_paths;
    for (const [list, entries] of Object.entries(extended)) assert.deepEqual(back[list], entries, list);
  });
});
