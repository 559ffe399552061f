import { strict as assert } from 'node:assert';
import { classicToOas, compileOasDefinition } from '../../../services/apis/lib/oas';
import { durationSeconds, durationText } from '../../../services/apis/lib/oas/duration';
import { compileEndpointFeatures } from '../../../services/proxy/pipeline/endpoint-features';

/** A small document with the given extension parts. */
function document(extension: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: {
      '/things/special': { get: { operationId: 'special', responses: { 200: { description: 'ok' } } } },
      '/things/{id}': {
        get: { operationId: 'one', responses: { 200: { description: 'ok' } } },
        put: { operationId: 'put', responses: { 200: { description: 'ok' } } },
      },
    },
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'query', name: 'api_key' },
        user: { type: 'http', scheme: 'basic' },
        login: {
          type: 'oauth2',
          flows: {
            authorizationCode: { authorizationUrl: '/a', tokenUrl: '/t', scopes: {} },
            clientCredentials: { tokenUrl: '/t', scopes: {} },
          },
        },
      },
    },
    'x-gw-api-gateway': {
      info: { name: 'T' },
      upstream: { url: 'http://upstream.test' },
      server: { listenPath: { value: '/t/' } },
      ...extension,
    },
    ...extra,
  };
}

const extendedPaths = (classic: Record<string, any>) => classic.version_data.versions.Default.extended_paths;

describe('apis: compiling OAS definitions into classic ones', () => {
  it('reads durations as the reference writes them, and writes them back', () => {
    assert.equal(durationSeconds('10s'), 10);
    assert.equal(durationSeconds('1m30s'), 90);
    assert.equal(durationSeconds('1h'), 3600);
    assert.equal(durationSeconds('ten'), undefined);
    assert.equal(durationText(90), '1m30s');
    assert.equal(durationText(10), '10s');
  });

  it('is keyless without enabled authentication', () => {
    const { classic } = compileOasDefinition(document({}));
    assert.equal(classic.use_keyless, true);
    assert.equal(classic.is_oas, true);
  });

  it('takes the token location from the document’s apiKey scheme', () => {
    const { classic } = compileOasDefinition(
      document({
        server: {
          listenPath: { value: '/t/' },
          authentication: { enabled: true, securitySchemes: { key: { enabled: true } } },
        },
      }),
    );
    assert.deepEqual(classic.auth_configs, {
      authToken: { auth_header_name: 'Authorization', use_param: true, param_name: 'api_key', use_cookie: false },
    });
    assert.equal(classic.use_standard_auth, true);
    assert.equal(classic.use_keyless, false);
  });

  it('maps basic (with body extraction and caching) and oauth2 schemes', () => {
    const { classic } = compileOasDefinition(
      document({
        server: {
          listenPath: { value: '/t/' },
          authentication: {
            enabled: true,
            baseIdentityProvider: 'basic_auth_user',
            securitySchemes: {
              user: {
                enabled: true,
                cacheTTL: 5,
                query: { enabled: true, name: 'creds' },
                extractCredentialsFromBody: {
                  enabled: true,
                  userRegexp: '<u>(\\w+)</u>',
                  passwordRegexp: '<p>(\\w+)</p>',
                },
              },
              login: { enabled: true, authLoginRedirect: 'https://login.test' },
            },
          },
        },
      }),
    );
    assert.equal(classic.use_basic_auth, true);
    assert.deepEqual(classic.basic_auth, {
      disable_caching: false,
      cache_ttl: 5,
      extract_from_body: true,
      body_user_regexp: '<u>(\\w+)</u>',
      body_password_regexp: '<p>(\\w+)</p>',
    });
    assert.deepEqual((classic.auth_configs as any).basic.query, { enabled: true, name: 'creds' });
    assert.equal(classic.use_oauth2, true);
    assert.deepEqual(classic.oauth_meta, {
      allowed_access_types: ['authorization_code', 'client_credentials', 'refresh_token'],
      allowed_authorize_types: ['code'],
      auth_login_redirect: 'https://login.test',
    });
    assert.equal(classic.base_identity_provided_by, 'basic_auth_user');
  });

  it('maps requirePkce of an oauth2 scheme to oauth_meta.require_pkce, and exports it back', () => {
    const login = { enabled: true, authLoginRedirect: 'https://login.test', requirePkce: true };
    const authentication = { enabled: true, securitySchemes: { login } };
    const { classic } = compileOasDefinition(document({ server: { listenPath: { value: '/t/' }, authentication } }));
    assert.equal((classic.oauth_meta as any).require_pkce, true);
    const exported = classicToOas({ ...classic, id: 'x', org_id: 'o' } as any);
    assert.equal((exported['x-gw-api-gateway'] as any).server.authentication.securitySchemes.oauth.requirePkce, true);
  });

  it('maps a mutualTLS scheme to client certificate authentication with the allowlist', () => {
    const doc = document({
      server: {
        listenPath: { value: '/t/' },
        clientCertificates: { enabled: true, allowlist: ['cert-1'] },
        authentication: { enabled: true, securitySchemes: { mtls: { enabled: true } } },
      },
    });
    doc.components.securitySchemes.mtls = { type: 'mutualTLS' };
    const { classic } = compileOasDefinition(doc);
    assert.equal(classic.use_mutual_tls_auth, true);
    assert.deepEqual(classic.client_certificates, ['cert-1']);
    assert.equal(classic.use_keyless, true, 'the certificate is the only credential: no key is asked for');
  });

  describe('JWT (http bearer with bearerFormat JWT)', () => {
    const jwtDocument = (settings: Record<string, unknown>, baseIdentityProvider?: string) => {
      const authentication = {
        enabled: true,
        ...(baseIdentityProvider ? { baseIdentityProvider } : {}),
        securitySchemes: { jwt: { enabled: true, ...settings } },
      };
      const doc = document({ server: { listenPath: { value: '/t/' }, authentication } });
      doc.components.securitySchemes.jwt = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
      return doc;
    };
    const every = {
      query: { enabled: true, name: 'token' },
      cookie: { enabled: true, name: 'jwt' },
      source: 'aGVsbG8tc2VjcmV0',
      jwksURIs: [
        { url: 'https://idp.test/jwks', cacheTimeout: '5m' },
        { url: 'https://other.test/jwks', cacheTimeout: 30 },
      ],
      signingMethod: 'rsa',
      identityBaseField: 'user_id',
      subjectClaims: ['user_id', 'sub'],
      skipKid: true,
      policyFieldName: 'pol',
      basePolicyClaims: ['pol', 'plan'],
      clientBaseField: 'azp',
      scopes: {
        claimName: 'scope',
        claims: ['scope', 'scp'],
        scopeToPolicyMapping: [
          { scope: 'orders:read', policyId: 'p-read' },
          { scope: 'orders:write', policyId: 'p-write' },
        ],
      },
      defaultPolicies: ['p-default'],
      issuedAtValidationSkew: 1,
      notBeforeValidationSkew: 2,
      expiresAtValidationSkew: 3,
      allowedIssuers: ['https://idp.test/'],
      allowedAudiences: ['orders'],
      allowedSubjects: ['alice'],
      jtiValidation: { enabled: true },
      idpClientIdMappingDisabled: true,
    };

    it('maps every setting of the scheme to the classic JWT fields', () => {
      const { classic } = compileOasDefinition(jwtDocument(every, 'jwt_claim'));
      assert.equal(classic.use_keyless, false);
      assert.equal(classic.use_standard_auth, undefined, 'a JWT scheme is not an auth token');
      assert.equal(classic.base_identity_provided_by, 'jwt_claim');
      assert.deepEqual((classic.auth_configs as any).jwt, {
        auth_header_name: 'Authorization',
        use_param: true,
        param_name: 'token',
        use_cookie: true,
        cookie_name: 'jwt',
      });
      const { auth_configs: _configs, ...fields } = classic as Record<string, unknown>;
      const jwtFields = Object.fromEntries(
        Object.entries(fields).filter(
          ([k]) => k.startsWith('jwt_') || ['enable_jwt', 'scopes', 'idp_client_id_mapping_disabled'].includes(k),
        ),
      );
      assert.deepEqual(jwtFields, {
        enable_jwt: true,
        jwt_source: 'aGVsbG8tc2VjcmV0',
        jwt_jwks_uris: [
          { url: 'https://idp.test/jwks', cache_timeout: 300 },
          { url: 'https://other.test/jwks', cache_timeout: 30 },
        ],
        jwt_signing_method: 'rsa',
        jwt_identity_base_field: 'user_id',
        jwt_subject_claims: ['user_id', 'sub'],
        jwt_skip_kid: true,
        jwt_policy_field_name: 'pol',
        jwt_base_policy_claims: ['pol', 'plan'],
        jwt_client_base_field: 'azp',
        scopes: {
          jwt: {
            scope_claim_name: 'scope',
            claims: ['scope', 'scp'],
            scope_to_policy: { 'orders:read': 'p-read', 'orders:write': 'p-write' },
          },
        },
        jwt_default_policies: ['p-default'],
        jwt_issued_at_validation_skew: 1,
        jwt_not_before_validation_skew: 2,
        jwt_expires_at_validation_skew: 3,
        jwt_allowed_issuers: ['https://idp.test/'],
        jwt_allowed_audiences: ['orders'],
        jwt_allowed_subjects: ['alice'],
        jwt_require_jti: true,
        idp_client_id_mapping_disabled: true,
      });
    });

    it('reads the first of subjectClaims, basePolicyClaims and scopes.claims where the single field is not set', () => {
      const { classic } = compileOasDefinition(
        jwtDocument({
          source: 'https://idp.test/jwks',
          subjectClaims: ['email'],
          basePolicyClaims: ['plan'],
          scopes: { claims: ['scp'] },
        }),
      );
      assert.equal(classic.jwt_identity_base_field, 'email');
      assert.equal(classic.jwt_policy_field_name, 'plan');
      assert.equal((classic.scopes as any).jwt.scope_claim_name, 'scp');
      assert.equal(classic.jwt_signing_method, '');
    });

    it('keeps a bearer scheme without bearerFormat JWT an auth token', () => {
      const doc = jwtDocument({});
      doc.components.securitySchemes.jwt = { type: 'http', scheme: 'bearer' };
      const { classic } = compileOasDefinition(doc);
      assert.equal(classic.use_standard_auth, true);
      assert.equal(classic.enable_jwt, undefined);
    });

    it('refuses an unknown signing method, a negative skew and a bad cacheTimeout, naming each pointer', () => {
      const at = '/x-gw-api-gateway/server/authentication/securitySchemes/jwt';
      assert.throws(
        () =>
          compileOasDefinition(
            jwtDocument({
              signingMethod: 'none',
              expiresAtValidationSkew: -1,
              jwksURIs: [{ url: 'https://idp.test/jwks', cacheTimeout: 'soon' }],
            }),
          ),
        (err: any) => {
          const errors: string[] = err.data.errors;
          assert.ok(
            errors.some((e) => e.startsWith(`${at}/signingMethod: must be one of "hmac", "rsa", "ecdsa", "eddsa"`)),
            errors.join('\n'),
          );
          assert.ok(
            errors.some((e) => e.startsWith(`${at}/expiresAtValidationSkew: `)),
            errors.join('\n'),
          );
          assert.ok(
            errors.some((e) => e.startsWith(`${at}/jwksURIs/0/cacheTimeout`)),
            errors.join('\n'),
          );
          return err.code === 400;
        },
      );
    });

    it("compiles a JWT scheme without source or jwksURIs (tokens checked with their key's jwt_data.secret)", () => {
      const { classic } = compileOasDefinition(jwtDocument({ signingMethod: 'hmac' }));
      assert.equal(classic.enable_jwt, true);
      assert.equal(classic.jwt_source, '');
      assert.deepEqual(classic.jwt_jwks_uris, []);
    });

    it('refuses a JWT scheme with a source that is neither base64 nor a URL', () => {
      const at = '/x-gw-api-gateway/server/authentication/securitySchemes/jwt';
      assert.throws(
        () => compileOasDefinition(jwtDocument({ source: 'not base64!' })),
        (err: any) => err.code === 400 && err.data.errors[0].startsWith(`${at}/source: must be base64`),
      );
    });

    it('exports every classic JWT field and compiles the export back to the same fields', () => {
      const { classic } = compileOasDefinition(jwtDocument(every, 'jwt_claim'));
      const exported = classicToOas({ ...classic, id: 'x', org_id: 'o' } as any);
      assert.deepEqual((exported.components as any).securitySchemes.jwtAuth, {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
      });
      assert.equal((exported.components as any).securitySchemes.authToken, undefined, 'no auth token added');
      const settings = (exported['x-gw-api-gateway'] as any).server.authentication.securitySchemes.jwtAuth;
      assert.deepEqual(settings.jwksURIs, [
        { url: 'https://idp.test/jwks', cacheTimeout: '5m' },
        { url: 'https://other.test/jwks', cacheTimeout: '30s' },
      ]);
      const again = compileOasDefinition(JSON.parse(JSON.stringify(exported))).classic;
      for (const field of Object.keys(classic).filter(
        (k) =>
          k.startsWith('jwt_') ||
          [
            'enable_jwt',
            'scopes',
            'idp_client_id_mapping_disabled',
            'auth_configs',
            'base_identity_provided_by',
            'use_keyless',
          ].includes(k),
      ))
        assert.deepEqual(again[field], classic[field], field);
    });

    it('exports the scope fields the reference replaced by scopes.jwt, compiled back as scopes.jwt', () => {
      const legacy = {
        name: 'L',
        api_id: 'l',
        id: 'x',
        org_id: 'o',
        active: true,
        use_keyless: false,
        enable_jwt: true,
        jwt_source: 'https://idp.test/jwks',
        jwt_scope_claim_name: 'permissions',
        jwt_scope_to_policy_mapping: { admin: 'p-admin' },
        proxy: { listen_path: '/l/', target_url: 'http://upstream.test' },
      };
      const exported = classicToOas(legacy);
      const again = compileOasDefinition(JSON.parse(JSON.stringify(exported))).classic;
      assert.deepEqual((again.scopes as any).jwt, {
        scope_claim_name: 'permissions',
        scope_to_policy: { admin: 'p-admin' },
      });
    });
  });

  it('refuses authentication that is enabled with no scheme on, naming the pointer', () => {
    assert.throws(
      () =>
        compileOasDefinition(
          document({
            server: {
              listenPath: { value: '/t/' },
              authentication: { enabled: true, securitySchemes: { key: { enabled: false } } },
            },
          }),
        ),
      (err: any) => err.code === 400 && err.data.errors[0].startsWith('/x-gw-api-gateway/server/authentication: '),
    );
  });

  it('compiles info.versioning into the classic definition block, versions by name to api_id', () => {
    const versioning = {
      enabled: true,
      name: 'v1',
      default: 'v1',
      location: 'header',
      key: 'x-version',
      stripVersioningData: true,
      fallbackToDefault: true,
      versions: [{ name: 'v2', id: 'child-2' }],
    };
    const { classic } = compileOasDefinition(document({ info: { name: 'T', id: 'base', versioning } }));
    assert.deepEqual(classic.definition, {
      enabled: true,
      name: 'v1',
      default: 'v1',
      location: 'header',
      key: 'x-version',
      strip_versioning_data: true,
      fallback_to_default: true,
      url_versioning_pattern: '',
      versions: { v2: 'child-2' },
    });
    assert.equal((classic.version_data as any).not_versioned, true);
  });

  it('refuses versioning it can not route, naming each pointer', () => {
    assert.throws(
      () =>
        compileOasDefinition(
          document({
            info: {
              name: 'T',
              id: 'base',
              versioning: {
                enabled: true,
                location: 'header',
                default: 'v9',
                versions: [
                  { name: 'v2', id: 'base' },
                  { name: 'v2', id: 'c' },
                ],
              },
            },
          }),
        ),
      (err: any) =>
        err.code === 400 &&
        [
          '/x-gw-api-gateway/info/versioning/name: ',
          '/x-gw-api-gateway/info/versioning/key: ',
          '/x-gw-api-gateway/info/versioning/versions/0/id: ',
          '/x-gw-api-gateway/info/versioning/versions/1/name: ',
          '/x-gw-api-gateway/info/versioning/default: ',
        ].every((p) => err.data.errors.some((e: string) => e.startsWith(p))),
    );
  });

  it('refuses a urlVersioningPattern RE2 can not run', () => {
    assert.throws(
      () =>
        compileOasDefinition(
          document({
            info: {
              name: 'T',
              versioning: { enabled: true, name: 'v1', location: 'url', urlVersioningPattern: '^(?=v)', versions: [] },
            },
          }),
        ),
      (err: any) =>
        err.code === 400 && err.data.errors[0].startsWith('/x-gw-api-gateway/info/versioning/urlVersioningPattern: '),
    );
  });

  it('exports a base API’s versioning and compiles the export back to the same classic block', () => {
    const versioning = {
      enabled: true,
      name: 'v1',
      default: 'v2',
      location: 'url',
      stripVersioningData: true,
      versions: [{ name: 'v2', id: 'child-2' }],
    };
    const { classic } = compileOasDefinition(document({ info: { name: 'T', id: 'base', versioning } }));
    const exported = classicToOas({ ...classic, id: 'x', org_id: 'o' } as any);
    assert.deepEqual((exported['x-gw-api-gateway'] as any).info.versioning, {
      ...versioning,
      fallbackToDefault: false,
    });
    assert.deepEqual(compileOasDefinition(exported).classic.definition, classic.definition);
  });

  it('leaves versioning that is switched off out of the classic form', () => {
    const { classic } = compileOasDefinition(
      document({ info: { name: 'T', versioning: { enabled: false, versions: [] } } }),
    );
    assert.equal(classic.definition, undefined);
  });

  it('opens an operation with security: [] (ignored) and keeps one asking for the API security', () => {
    const doc = document({
      server: {
        listenPath: { value: '/t/' },
        authentication: { enabled: true, securitySchemes: { key: { enabled: true } } },
      },
    });
    doc.paths['/things/special'].get.security = [];
    doc.paths['/things/{id}'].get.security = [{ key: [] }];
    const { classic } = compileOasDefinition(doc);
    assert.deepEqual(
      extendedPaths(classic).ignored.map((e: any) => [e.path, e.method]),
      [['/things/special$', 'GET']],
    );
  });

  it('refuses operation security naming another scheme than the API enforces, with its pointer', () => {
    const doc = document({
      server: {
        listenPath: { value: '/t/' },
        authentication: { enabled: true, securitySchemes: { key: { enabled: true } } },
      },
    });
    doc.paths['/things/{id}'].put.security = [{ user: [] }];
    doc.paths['/things/special'].get.security = [{ nobody: [] }];
    assert.throws(
      () => compileOasDefinition(doc),
      (err: any) =>
        err.code === 400 &&
        err.data.errors.some((e: string) => e.startsWith('/paths/~1things~1{id}/put/security: ')) &&
        err.data.errors.some((e: string) =>
          e.startsWith('/paths/~1things~1special/get/security/0: no security scheme "nobody"'),
        ),
    );
  });

  it('lets an operation listed first win: a switched-off entry only where a later path would match it', () => {
    const { classic } = compileOasDefinition(
      document({
        middleware: {
          operations: {
            one: { rateLimit: { enabled: true, rate: 1, per: '1m' } },
            put: { rateLimit: { enabled: true, rate: 5, per: '1s' } },
          },
        },
      }),
    );
    assert.deepEqual(extendedPaths(classic).rate_limit, [
      { path: '/things/special$', method: 'GET', disabled: true, stop_matching: true },
      { path: '/things/{id}$', method: 'GET', enabled: true, rate: 1, per: 60 },
      { path: '/things/{id}$', method: 'PUT', enabled: true, rate: 5, per: 1 },
    ]);
  });

  it('maps the upstream, server and global settings', () => {
    const { classic } = compileOasDefinition(
      document({
        upstream: {
          url: 'https://upstream.test',
          rateLimit: { enabled: true, rate: 100, per: '1m' },
          mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'upstream.test', certificateId: 'c1' }] },
        },
        server: {
          listenPath: { value: '/t/', strip: true },
          customDomain: { enabled: true, name: 'api.test' },
          ipAccessControl: { enabled: true, allow: ['10.0.0.0/8'] },
          contextVariables: { enabled: true },
          detailedTracing: { enabled: true },
          clientCertificates: { enabled: true, allowlist: ['c2'] },
        },
        middleware: {
          global: {
            skipQuota: true,
            requestSizeLimit: { enabled: true, value: 99 },
            prePlugins: [{ enabled: true, functionName: 'tagger', path: 'tagger.js' }],
          },
        },
      }),
    );
    assert.deepEqual(classic.global_rate_limit, { rate: 100, per: 60 });
    assert.deepEqual(classic.upstream_certificates, { 'upstream.test': 'c1' });
    assert.equal(classic.domain, 'api.test');
    assert.deepEqual(classic.allowed_ips, ['10.0.0.0/8']);
    assert.equal(classic.enable_context_vars, true);
    assert.equal(classic.detailed_tracing, true);
    assert.equal(classic.use_mutual_tls_auth, true);
    assert.equal(classic.disable_quota, true);
    assert.equal((classic as any).version_data.versions.Default.global_size_limit, 99);
    assert.deepEqual(classic.custom_middleware, {
      driver: 'node',
      pre: [{ name: 'tagger', path: 'tagger.js', disabled: false }],
    });
    assert.equal(classic.proxy.strip_listen_path, true);
  });

  it('reads context variables and traffic logs from middleware.global, where the reference keeps them', () => {
    const { classic } = compileOasDefinition(
      document({
        middleware: {
          global: {
            contextVariables: { enabled: true },
            trafficLogs: { enabled: true, tagHeaders: ['X-Team'], customRetentionPeriod: '1h30m' },
          },
        },
      }),
    );
    assert.equal(classic.enable_context_vars, true);
    assert.equal((classic as any).do_not_track, false);
    assert.deepEqual((classic as any).tag_headers, ['X-Team']);
    assert.equal((classic as any).expire_analytics_after, 5400);
    const off = compileOasDefinition(document({ middleware: { global: { trafficLogs: { enabled: false } } } }));
    assert.equal((off.classic as any).do_not_track, true);
    const none = compileOasDefinition(document({}));
    assert.equal((none.classic as any).do_not_track, undefined, 'without trafficLogs an API records as before');
    assert.throws(
      () => compileOasDefinition(document({ middleware: { global: { trafficLogs: { tagHeaders: ['X-Team'] } } } })),
      (err: any) => JSON.stringify(err.data.errors).includes('enabled'),
    );
  });

  it('writes context variables and traffic logs of a classic API under middleware.global', () => {
    const oas: any = classicToOas({
      name: 'T',
      api_id: 't',
      org_id: 'o',
      use_keyless: true,
      enable_context_vars: true,
      do_not_track: false,
      tag_headers: ['x-team'],
      expire_analytics_after: 90,
      proxy: { listen_path: '/t/', target_url: 'http://upstream.test', strip_listen_path: true },
    } as any);
    const extension = oas['x-gw-api-gateway'];
    assert.equal(extension.server.contextVariables, undefined);
    assert.deepEqual(extension.middleware.global.contextVariables, { enabled: true });
    assert.deepEqual(extension.middleware.global.trafficLogs, {
      enabled: true,
      tagHeaders: ['x-team'],
      customRetentionPeriod: '1m30s',
    });
    const back = compileOasDefinition(oas).classic as any;
    assert.equal(back.enable_context_vars, true);
    assert.deepEqual(back.tag_headers, ['x-team']);
    assert.equal(back.expire_analytics_after, 90);
  });

  it('mocks from the document’s examples (fromOASExamples), and refuses when there is none', () => {
    const doc = document({
      middleware: {
        operations: {
          special: { mockResponse: { enabled: true, fromOASExamples: { enabled: true, exampleName: 'cat' } } },
        },
      },
    });
    doc.paths['/things/special'].get.responses = {
      200: {
        description: 'ok',
        content: {
          'application/json': { examples: { dog: { value: { name: 'Rex' } }, cat: { value: { name: 'Tom' } } } },
        },
      },
    };
    const { classic } = compileOasDefinition(doc);
    assert.deepEqual(extendedPaths(classic).mock_response, [
      {
        path: '/things/special$',
        method: 'GET',
        code: 200,
        body: '{"name":"Tom"}',
        headers: { 'Content-Type': 'application/json' },
      },
    ]);
    doc['x-gw-api-gateway'].middleware.operations.special.mockResponse.fromOASExamples.exampleName = 'bird';
    assert.throws(
      () => compileOasDefinition(doc),
      (err: any) =>
        err.data.errors[0] ===
        '/paths/~1things~1special/get/responses/200: fromOASExamples is enabled but the operation documents no example named "bird" for application/json',
    );
  });

  it('leaves every per-endpoint step out of the chain when no list is used', () => {
    const features = compileEndpointFeatures({ rate_limit: [] }, false, false);
    assert.deepEqual(Object.values(features), [undefined, undefined, undefined, undefined, undefined]);
    const offOnly = compileEndpointFeatures(
      { mock_response: [{ path: '/x', method: 'GET', disabled: true, stop_matching: true }] },
      false,
      false,
    );
    assert.equal(offOnly.mockResponses, undefined);
  });
});
