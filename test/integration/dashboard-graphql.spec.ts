import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('dashboard GraphQL API (POST /graphql, GET /playground)', () => {
  let node: TestNode;
  let upstream: Upstream;
  let billingId: string;
  let acme: Tenant;
  let globex: Tenant;
  let acmeApi: { id: string; apiId: string };
  let globexApiId: string;
  let keyHash: string;
  let policyId: string;
  const graphql = (headers: Record<string, string>, query: string, variables?: Record<string, unknown>) =>
    http(`${node.dashboardUrl}/graphql`, {
      method: 'POST',
      headers,
      body: variables ? { query, variables } : { query },
    });
  const rest = (tenant: Tenant, path: string, body?: unknown) =>
    http(`${node.dashboardUrl}/api${path}`, { method: body ? 'POST' : 'GET', headers: tenant.headers, body });
  const createUser = async (tenant: Tenant, email: string, permissions: Record<string, string>) => {
    const res = await rest(tenant, '/users', {
      email_address: email,
      first_name: 'R',
      last_name: 'O',
      user_permissions: permissions,
      password: 'pw-123456',
    });
    assert.equal(res.status, 200, res.text);
    return { authorization: res.json.Meta.access_key as string };
  };

  before(async () => {
    upstream = await startUpstream();
    upstream.respondWith((req, res) => {
      res.writeHead(req.url.endsWith('/boom') ? 500 : 200, { 'content-type': 'text/plain' });
      res.end('answer');
    });
    node = await startTestNode({ enableHashedKeysListing: true, analyticsFlushInterval: 0.05 });
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    const orders = await rest(
      acme,
      '/apis',
      keylessApi('Orders', '/orders', 'http://127.0.0.1:9', { use_keyless: false, tags: ['shop'] }),
    );
    acmeApi = { id: orders.json.Meta, apiId: orders.json.ID };
    billingId = (await rest(acme, '/apis', keylessApi('Billing', '/billing', upstream.url))).json.ID;
    globexApiId = (await rest(globex, '/apis', keylessApi('Globex Secret', '/secret', 'http://127.0.0.1:9'))).json.Meta;
    const key = await rest(acme, '/keys', {
      rate: 5,
      per: 60,
      alias: 'mobile-app',
      tags: ['t1'],
      access_rights: { [acmeApi.apiId]: { api_id: acmeApi.apiId, versions: ['Default'] } },
    });
    assert.equal(key.status, 200, key.text);
    keyHash = key.json.key_hash;
    assert.equal(keyHash, sha256(key.json.key_id));
    const policy = await rest(acme, '/portal/policies', {
      name: 'Gold',
      rate: 100,
      per: 1,
      quota_max: -1,
      access_rights: { [acmeApi.apiId]: { api_id: acmeApi.apiId, versions: ['Default'] } },
    });
    assert.equal(policy.status, 200, policy.text);
    policyId = policy.json.Meta;
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  it("answers an organisation's APIs, keys (by hash) and policies", async () => {
    const res = await graphql(
      acme.headers,
      `
        query ($api: ID!, $hash: String!, $policy: ID!) {
          apis {
            pages
            items {
              name
              apiId
              listenPath
              useKeyless
              tags
            }
          }
          search: apis(q: "bill") {
            items {
              name
            }
          }
          api(id: $api) {
            id
            apiId
            name
            orgId
            targetUrl
            definition
          }
          keys(apiId: $api) {
            pages
            hashes
          }
          key(hash: $hash) {
            hash
            alias
            orgId
            rate
            per
            tags
            accessRights {
              apiId
              apiName
              versions
            }
            session
          }
          policies {
            pages
            items {
              id
              name
              rate
            }
          }
          policy(id: $policy) {
            name
            orgId
            accessRights {
              apiId
            }
          }
        }
      `,
      { api: acmeApi.id, hash: keyHash, policy: policyId },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.errors, undefined, res.text);
    const data = res.json.data;
    assert.deepEqual(data.apis.items.map((a: { name: string }) => a.name).sort(), ['Billing', 'Orders']);
    assert.equal(data.apis.pages, 1);
    assert.deepEqual(
      data.apis.items.find((a: { name: string }) => a.name === 'Orders'),
      { name: 'Orders', apiId: acmeApi.apiId, listenPath: '/orders', useKeyless: false, tags: ['shop'] },
    );
    assert.deepEqual(data.search.items, [{ name: 'Billing' }]);
    assert.equal(data.api.id, acmeApi.id);
    assert.equal(data.api.orgId, acme.orgId);
    assert.equal(data.api.definition.proxy.listen_path, '/orders');
    assert.deepEqual(data.keys, { pages: 1, hashes: [keyHash] });
    assert.equal(data.key.hash, keyHash);
    assert.equal(data.key.alias, 'mobile-app');
    assert.equal(data.key.orgId, acme.orgId);
    assert.deepEqual([data.key.rate, data.key.per, data.key.tags], [5, 60, ['t1']]);
    assert.deepEqual(data.key.accessRights, [{ apiId: acmeApi.apiId, apiName: 'Orders', versions: ['Default'] }]);
    const restKey = await rest(acme, `/apis/${acmeApi.id}/keys/${keyHash}`);
    assert.deepEqual(data.key.session, restKey.json.data, 'the session is what the REST API shows');
    assert.deepEqual(data.policies, { pages: 1, items: [{ id: policyId, name: 'Gold', rate: 100 }] });
    assert.deepEqual(data.policy, { name: 'Gold', orgId: acme.orgId, accessRights: [{ apiId: acmeApi.apiId }] });
  });

  it("never shows another organisation's data", async () => {
    const res = await graphql(
      globex.headers,
      `
        query ($api: ID!, $hash: String!, $policy: ID!) {
          apis {
            items {
              id
              name
            }
          }
          keys {
            hashes
          }
          policies {
            items {
              id
            }
          }
          api(id: $api) {
            name
          }
          key(hash: $hash) {
            hash
          }
          policy(id: $policy) {
            name
          }
        }
      `,
      { api: acmeApi.id, hash: keyHash, policy: policyId },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data, {
      apis: { items: [{ id: globexApiId, name: 'Globex Secret' }] },
      keys: { hashes: [] },
      policies: { items: [] },
      api: null,
      key: null,
      policy: null,
    });
    const codes = Object.fromEntries(
      res.json.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path[0], e.extensions.code]),
    );
    assert.deepEqual(codes, { api: 'NOT_FOUND', key: 'NOT_FOUND', policy: 'NOT_FOUND' });
    const keysOfAcmeApi = await graphql(globex.headers, `{ keys(apiId: "${acmeApi.apiId}") { hashes } }`);
    assert.deepEqual(keysOfAcmeApi.json.data, { keys: null });
    assert.equal(keysOfAcmeApi.json.errors[0].extensions.code, 'NOT_FOUND');
  });

  it('honours the REST permissions field by field: FORBIDDEN where the caller may not read, data elsewhere', async () => {
    const reader = await createUser(acme, 'reader@acme.test', { apis: 'read', keys: 'deny' });
    const res = await graphql(
      reader,
      `{ apis { items { name } } keys { hashes } policies { pages } key(hash: "${keyHash}") { hash } }`,
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data.apis.items.map((a: { name: string }) => a.name).sort(), ['Billing', 'Orders']);
    assert.deepEqual([res.json.data.keys, res.json.data.policies, res.json.data.key], [null, null, null]);
    const errors = res.json.errors.map((e: { path: string[]; message: string; extensions: { code: string } }) => [
      e.path[0],
      e.extensions.code,
      e.message,
    ]);
    assert.deepEqual(errors.sort(), [
      ['key', 'FORBIDDEN', "Access denied: this needs the 'keys' permission at level 'read'"],
      ['keys', 'FORBIDDEN', "Access denied: this needs the 'keys' permission at level 'read'"],
      ['policies', 'FORBIDDEN', "Access denied: this needs the 'policies' permission at level 'read'"],
    ]);
    // The same user on the REST API: the same answer.
    assert.equal((await http(`${node.dashboardUrl}/api/apis/${acmeApi.id}/keys`, { headers: reader })).status, 403);
  });

  it('accepts the session cookie of a dashboard login', async () => {
    await createUser(acme, 'cookie@acme.test', { apis: 'read' });
    const login = await http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      body: { email_address: 'cookie@acme.test', password: 'pw-123456' },
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const res = await graphql({ cookie }, '{ apis { pages } }');
    assert.deepEqual([res.status, res.json], [200, { data: { apis: { pages: 1 } } }]);
  });

  it('refuses a caller without credentials (401) or with a wrong access key', async () => {
    const none = await graphql({}, '{ apis { pages } }');
    assert.equal(none.status, 401);
    assert.deepEqual(none.json, {
      errors: [
        {
          message: 'Authorization header missing: send your dashboard access key',
          extensions: { code: 'UNAUTHENTICATED' },
        },
      ],
    });
    const wrong = await graphql({ authorization: 'not-a-key' }, '{ apis { pages } }');
    assert.equal(
      wrong.status,
      (await http(`${node.dashboardUrl}/api/apis`, { headers: { authorization: 'not-a-key' } })).status,
    );
    assert.equal(wrong.json.data, undefined);
    assert.ok(wrong.json.errors[0].message);
  });

  describe('analytics', () => {
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    const started = Date.now();
    const period = () => `from: "${day(started)}", to: "${day(Date.now())}"`;
    const counts = (r: { id: Record<string, unknown>; hits: number; success: number; error: number }) => ({
      id: r.id,
      hits: r.hits,
      success: r.success,
      error: r.error,
    });

    before(async () => {
      // The probe that finds the API served is itself recorded (one hit on /ready).
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/billing/ready`)).status, 200), 5000);
      for (const path of ['/a', '/a', '/a', '/boom', '/boom']) await http(`${node.gatewayUrl}/billing${path}`);
      await eventually(async () => {
        const res = await graphql(acme.headers, `{ activityByApi(${period()}) { items { hits } } }`);
        assert.deepEqual(res.json.data?.activityByApi?.items, [{ hits: 6 }], res.text);
      }, 5000);
    });

    it('reads activity per API, per endpoint, over time and per error code, as the REST activity endpoints', async () => {
      const fields = 'items { id { apiId apiName path url hour day code } hits success error lastHit latency } pages';
      const res = await graphql(
        acme.headers,
        `{ byApi: activityByApi(${period()}) { ${fields} }
           byEndpoint: activityByEndpoint(${period()}, apiId: "${billingId}") { ${fields} }
           hourly: usage(${period()}, resolution: HOUR) { ${fields} }
           daily: usage(${period()}) { ${fields} }
           errorsByApi(${period()}) { ${fields} } }`,
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.errors, undefined, res.text);
      const { byApi, byEndpoint, hourly, daily, errorsByApi } = res.json.data;
      const none = { path: null, url: null, hour: null, day: null, code: null };
      assert.deepEqual(byApi.items.map(counts), [
        { id: { ...none, apiId: billingId, apiName: 'Billing' }, hits: 6, success: 4, error: 2 },
      ]);
      assert.ok(!Number.isNaN(Date.parse(byApi.items[0].lastHit)) && byApi.items[0].latency >= 0);
      const endpoint = (path: string) => ({ ...none, apiId: billingId, apiName: 'Billing', path, url: `GET ${path}` });
      assert.deepEqual(
        byEndpoint.items
          .map(counts)
          .sort((x: { id: { path: string } }, y: { id: { path: string } }) => x.id.path.localeCompare(y.id.path)),
        [
          { id: endpoint('/a'), hits: 3, success: 3, error: 0 },
          { id: endpoint('/boom'), hits: 2, success: 0, error: 2 },
          { id: endpoint('/ready'), hits: 1, success: 1, error: 0 },
        ],
      );
      assert.equal(
        hourly.items.reduce((sum: number, r: { hits: number }) => sum + r.hits, 0),
        6,
      );
      for (const r of hourly.items) assert.equal(typeof r.id.hour, 'number');
      assert.equal(
        daily.items.reduce((sum: number, r: { hits: number }) => sum + r.hits, 0),
        6,
      );
      for (const r of daily.items) assert.deepEqual([r.id.hour, typeof r.id.day], [null, 'number']);
      assert.deepEqual(
        errorsByApi.items.map((r: { id: { code: number; apiId: string }; hits: number }) => [
          r.id.apiId,
          r.id.code,
          r.hits,
        ]),
        [[billingId, 500, 2]],
      );
      // The REST API says the same.
      const [y, m, d] = day(Date.now()).split('-').map(Number);
      const [sy, sm, sd] = day(started).split('-').map(Number);
      const restApis = await rest(acme, `/activity/apis/${sd}/${sm}/${sy}/${d}/${m}/${y}`);
      assert.deepEqual(
        restApis.json.data.map((r: { hits: number }) => r.hits),
        [6],
      );
    });

    it("shows no activity of another organisation, and needs the 'analytics' permission", async () => {
      const other = await graphql(
        globex.headers,
        `{ activityByApi(${period()}) { items { hits } pages } activityByEndpoint(${period()}, apiId: "${billingId}") { items { hits } } }`,
      );
      assert.deepEqual(other.json, {
        data: { activityByApi: { items: [], pages: 0 }, activityByEndpoint: { items: [] } },
      });
      const reader = await createUser(acme, 'no-analytics@acme.test', { apis: 'read' });
      const res = await graphql(reader, `{ apis { pages } usage(${period()}) { items { hits } } }`);
      assert.deepEqual(res.json.data, { apis: { pages: 1 }, usage: null });
      assert.deepEqual([res.json.errors[0].path, res.json.errors[0].extensions.code], [['usage'], 'FORBIDDEN']);
    });

    it('refuses a date that is not one, as the REST API does', async () => {
      const res = await graphql(
        acme.headers,
        '{ a: activityByApi(from: "2024-02-31", to: "2024-03-01") { pages } b: activityByApi(from: "yesterday", to: "2024-03-01") { pages } }',
      );
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.data, { a: null, b: null });
      assert.deepEqual(
        res.json.errors.map((e: { message: string; extensions: { code: string } }) => [e.message, e.extensions.code]),
        [
          ['The start date 31/02/2024 is not a valid date (day/month/year)', 'BAD_REQUEST'],
          ["from must be a date as YYYY-MM-DD, got 'yesterday'", 'BAD_REQUEST'],
        ],
      );
    });
  });

  describe('bad requests: 400 with errors', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a syntax error', { query: '{ apis { items { name } }' }, 'GRAPHQL_PARSE_FAILED'],
      ['an unknown field', { query: '{ apis { items { secret } } }' }, 'GRAPHQL_VALIDATION_FAILED'],
      ['a mutation (read-only API)', { query: 'mutation { apis { pages } }' }, 'BAD_REQUEST'],
      ['no query', { variables: {} }, 'BAD_REQUEST'],
      ['a body that is not JSON', 'query=%7Bapis%7D', 'BAD_REQUEST'],
      [
        'variables of the wrong type',
        { query: 'query ($id: ID!) { api(id: $id) { name } }', variables: { id: { no: 1 } } },
        '',
      ],
      [
        'a query too deep',
        { query: `{ __schema { types { fields { type ${'{ ofType '.repeat(12)}{ name }${' }'.repeat(12)} } } } }` },
        'DEPTH_LIMIT_EXCEEDED',
      ],
      [
        'lists nested too deeply',
        { query: '{ __schema { types { fields { args { type { enumValues { name } } } } } } }' },
        'QUERY_TOO_COMPLEX',
      ],
      [
        'too many root fields',
        { query: `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: apis { pages }`).join(' ')} }` },
        'QUERY_TOO_COMPLEX',
      ],
      [
        'a fragment spread too often',
        {
          query: `{ apis { ...A } } fragment A on ApiPage { ${Array.from({ length: 16 }, (_, i) => `i${i}: items { ...B }`).join(' ')} } fragment B on Api { ${Array.from({ length: 20 }, (_, i) => `n${i}: name`).join(' ')} }`,
        },
        'QUERY_TOO_COMPLEX',
      ],
      ['a page below 1', { query: '{ apis(page: 0) { pages } }' }, 'BAD_REQUEST'],
    ];
    for (const [name, body, code] of cases) {
      it(`refuses ${name}`, async () => {
        const res = await http(`${node.dashboardUrl}/graphql`, { method: 'POST', headers: acme.headers, body });
        if (name === 'a page below 1') {
          // A resolver's refusal: the field is null, the request itself was fine.
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(res.json.data, { apis: null });
        } else {
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.data, undefined);
        }
        assert.ok(Array.isArray(res.json.errors) && res.json.errors.length > 0, res.text);
        assert.equal(typeof res.json.errors[0].message, 'string');
        if (code) assert.equal(res.json.errors[0].extensions?.code, code, res.text);
      });
    }

    it("lets GraphiQL's introspection query through, at the limits", async () => {
      const res = await graphql(
        acme.headers,
        getIntrospectionQuery({
          descriptions: true,
          inputValueDeprecation: true,
          specifiedByUrl: true,
          directiveIsRepeatable: true,
          schemaDescription: true,
        }),
      );
      assert.equal(res.status, 200, res.text);
      const query = res.json.data.__schema.types.find((t: { name: string }) => t.name === 'Query');
      assert.deepEqual(query.fields.map((f: { name: string }) => f.name).sort(), [
        'activityByApi',
        'activityByCountry',
        'activityByEndpoint',
        'activityByKey',
        'activityByOAuthClient',
        'api',
        'apis',
        'errorsByApi',
        'key',
        'keys',
        'policies',
        'policy',
        'usage',
      ]);
    });

    it('answers 405 to other methods on /graphql', async () => {
      const res = await http(`${node.dashboardUrl}/graphql?query=%7Bapis%7Bpages%7D%7D`, { headers: acme.headers });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.equal(res.json.errors[0].extensions.code, 'METHOD_NOT_ALLOWED');
    });
  });

  describe('GET /playground', () => {
    it('serves GraphiQL from local assets, pointed at /graphql, and every asset loads', async () => {
      const page = await http(`${node.dashboardUrl}/playground`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(page.text, /const endpoint = "\/graphql";/);
      assert.doesNotMatch(page.text, /(src|href)="(https?:)?\/\//, 'no asset from another origin (CDN)');
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(assets.sort(), [
        '/playground/graphiql.min.css',
        '/playground/graphiql.min.js',
        '/playground/react-dom.production.min.js',
        '/playground/react.production.min.js',
      ]);
      for (const asset of assets) {
        const res = await fetch(`${node.dashboardUrl}${asset}`);
        const body = await res.arrayBuffer();
        assert.equal(res.status, 200, asset);
        assert.match(
          res.headers.get('content-type')!,
          asset.endsWith('.css') ? /^text\/css/ : /^application\/javascript/,
        );
        assert.ok(body.byteLength > 1000, `${asset} has content`);
      }
      assert.equal((await http(`${node.dashboardUrl}/playground/../package.json`)).status, 404);
      assert.equal((await http(`${node.dashboardUrl}/playground/index.html`)).status, 404);
    });
  });
});

describe('dashboard GraphQL API: hashed-key listing as the REST API', () => {
  const nodes: TestNode[] = [];
  const start = async (overrides: Parameters<typeof startTestNode>[0]) => {
    const node = await startTestNode(overrides);
    nodes.push(node);
    const tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Clear');
    const api = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: tenant.headers,
      body: keylessApi('A', '/a', 'http://127.0.0.1:9', { use_keyless: false }),
    });
    const key = await http(`${node.dashboardUrl}/api/keys`, {
      method: 'POST',
      headers: tenant.headers,
      body: { access_rights: { [api.json.ID]: { api_id: api.json.ID, versions: ['Default'] } } },
    });
    assert.equal(key.status, 200, key.text);
    const restList = await http(`${node.dashboardUrl}/api/apis/${api.json.Meta}/keys`, { headers: tenant.headers });
    const graphqlList = await http(`${node.dashboardUrl}/graphql`, {
      method: 'POST',
      headers: tenant.headers,
      body: { query: '{ keys { hashes } }' },
    });
    return { key: key.json.key_id as string, restList, graphqlList };
  };
  after(async () => {
    for (const node of nodes) {
      await node.stop();
      removeDir(node.dataDir);
    }
  });

  it('lists hashes, never the keys, where keys are stored in the clear', async () => {
    const { key, restList, graphqlList } = await start({ hashKeys: false });
    assert.deepEqual(restList.json.data.keys, [key], 'the REST API lists the keys themselves');
    assert.deepEqual(graphqlList.json, { data: { keys: { hashes: [sha256(key)] } } });
  });

  it('refuses as the REST API does where keys are hashed and hashed listing is off (the default)', async () => {
    const { restList, graphqlList } = await start({});
    assert.equal(restList.status, 400);
    assert.equal(graphqlList.status, 200);
    assert.deepEqual(graphqlList.json.data, { keys: null });
    assert.deepEqual(graphqlList.json.errors[0].extensions, {
      code: 'BAD_REQUEST',
      status: 400,
      type: 'GW_ERR_KEYS_LISTING_DISABLED',
    });
    assert.equal(graphqlList.json.errors[0].message, restList.json.Message);
  });
});
