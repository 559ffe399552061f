import { strict as assert } from 'node:assert';
import { ApiError } from '../../../ui/src/api';
import { fromBase64, toBase64 } from '../../../ui/src/designer/base64';
import { fieldErrors, placeOf } from '../../../ui/src/designer/errors';

/** The API designer's reading of the server's refusals: which field each message goes under, and on which tab. */
describe('ui: designer errors by field', () => {
  const cases: Array<[string, string[], Record<string, string>]> = [
    [
      "The 'api_definition.proxy.listen_path' field must start with '/' and hold no spaces.",
      [],
      { 'proxy.listen_path': "Must start with '/' and hold no spaces." },
    ],
    [
      "Version 'v2', extended_paths.transform[0]: template_data.template_source is not a template gw can run: unclosed action",
      [],
      {
        'version_data.versions.v2.extended_paths.transform[0].template_data.template_source':
          'extended_paths.transform[0]: template_data.template_source is not a template gw can run: unclosed action',
      },
    ],
    [
      "Version '1.2', extended_paths.black_list[0]: endpoint path '(' is not a valid pattern: missing )",
      [],
      {
        'version_data.versions.1.2.extended_paths.black_list[0].path':
          "extended_paths.black_list[0]: endpoint path '(' is not a valid pattern: missing )",
      },
    ],
    [
      "Version 'v2', override_target: 'ftp://x' is not an absolute http://, https:// or h2c:// URL",
      [],
      { 'version_data.versions.v2.override_target': "'ftp://x' is not an absolute http://, https:// or h2c:// URL" },
    ],
    [
      "Federation failed: the subgraphs of supergraph 'shop' do not compose (2 errors)",
      ['Type of field "P.name" is incompatible across subgraphs', 'Type "P" has mismatched kind'],
      {
        'graphql.supergraph.subgraphs':
          "Federation failed: the subgraphs of supergraph 'shop' do not compose (2 errors)",
      },
    ],
    [
      "custom_middleware.auth_check: plugin path '../x.js' holds a '..' segment",
      [],
      { 'custom_middleware.auth_check': "custom_middleware.auth_check: plugin path '../x.js' holds a '..' segment" },
    ],
    [
      'basic_auth.body_user_regexp is not a valid pattern: missing )',
      [],
      { 'basic_auth.body_user_regexp': 'basic_auth.body_user_regexp is not a valid pattern: missing )' },
    ],
    [
      'Invalid GraphQL schema',
      ['Field "Query.name" can only be defined once.'],
      { 'graphql.schema': 'Invalid GraphQL schema: Field "Query.name" can only be defined once.' },
    ],
    ['jwt_source is not base64: illegal character', [], { jwt_source: 'jwt_source is not base64: illegal character' }],
    [
      'openid_options.providers[0].issuer is not an absolute https:// URL',
      [],
      { 'openid_options.providers[0].issuer': 'openid_options.providers[0].issuer is not an absolute https:// URL' },
    ],
    ['Listen path /a is already used by API ...', [], {}],
  ];
  for (const [message, errors, expected] of cases) {
    it(`places "${message.slice(0, 60)}…"`, () =>
      assert.deepEqual(fieldErrors(new ApiError(400, message, errors)), expected));
  }

  it('opens the tab, and for endpoint rules the version, a field is edited on', () => {
    assert.deepEqual(placeOf('version_data.versions.1.2.extended_paths.rate_limit[0].path'), {
      tab: 'Endpoint rules',
      version: '1.2',
    });
    assert.deepEqual(placeOf('version_data.versions.v2.override_target'), { tab: 'Versions' });
    assert.deepEqual(placeOf('definition.key'), { tab: 'Versions' });
    assert.deepEqual(placeOf('custom_middleware.auth_check'), { tab: 'Authentication' });
    assert.deepEqual(placeOf('graphql.supergraph.subgraphs'), { tab: 'GraphQL' });
    assert.deepEqual(placeOf('hmac_allowed_algorithms[0]'), { tab: 'Authentication' });
    assert.deepEqual(placeOf('jwt_scope_to_policy_mapping'), { tab: 'Authentication' });
    assert.deepEqual(placeOf('auth_configs.jwt.param_name'), { tab: 'Authentication' });
    assert.deepEqual(placeOf('openid_options.providers[0].client_ids'), { tab: 'Authentication' });
    assert.deepEqual(placeOf('global_rate_limit.rate'), { tab: 'Rate limits and quotas' });
    assert.deepEqual(placeOf('proxy.target_url'), { tab: 'Core settings' });
  });

  it('stores inline templates as base64 of their UTF-8 text and reads them back, plain text as written', () => {
    const template = '{"name": "{{.name}}", "note": "café ✓"}';
    assert.equal(Buffer.from(toBase64(template), 'base64').toString('utf8'), template);
    assert.equal(fromBase64(toBase64(template)), template);
    assert.equal(fromBase64('{{.name}}'), '{{.name}}');
  });
});
