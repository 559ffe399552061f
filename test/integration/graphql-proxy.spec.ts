import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { buildSchema, graphql } from 'graphql';
import { close, listen } from '../../lib/http/listen';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const SDL = `
  type Query {
    user(id: ID!): User
    users: [User!]!
    countries: [Country!]!
  }
  type User { id: ID! name: String! email: String! friends: [User!]! address: Address }
  type Address { city: String! street: String! }
  type Country { code: String! name: String! }
`;

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('GraphQL proxy-only APIs', () => {
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Server;
  let upstreamUrl: string;
  const seen: Seen[] = [];
  const ids: Record<string, string> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const gql = (path: string, query: string, key?: string, extra: Record<string, string> = {}) =>
    http(`${node.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { ...(key ? { authorization: key } : {}), ...extra },
      body: JSON.stringify({ query }),
    });

  const graphqlApi = (name: string, fields: Record<string, unknown> = {}) => ({
    api_definition: {
      name,
      use_keyless: false,
      proxy: { listen_path: `/${name}`, target_url: `${upstreamUrl}/graphql`, strip_listen_path: true },
      graphql: {
        enabled: true,
        execution_mode: 'proxyOnly',
        schema: SDL,
        proxy: {
          auth_headers: { 'x-introspection-secret': 'only-for-the-dashboard' },
          request_headers: { 'x-from-gateway': 'gw', 'x-client-ua': '$gw_context.headers_User_Agent' },
        },
      },
      enable_context_vars: true,
      ...fields,
    },
  });
  const key = async (access: Record<string, unknown>, session: Record<string, unknown> = {}, api = 'graph') => {
    const res = await dashboard('/keys', {
      method: 'POST',
      body: { ...session, access_rights: { [ids[api]]: { api_id: ids[api], ...access } } },
    });
    assert.equal(res.status, 200, res.text);
    return res.json.key_id as string;
  };

  before(async () => {
    const schema = buildSchema(SDL);
    const rootValue = {
      user: ({ id }: { id: string }) => ({
        id,
        name: `user ${id}`,
        email: `${id}@x.test`,
        friends: [],
        address: { city: 'Paris', street: 'Rue' },
      }),
      users: () => [],
      countries: () => [{ code: 'FR', name: 'France' }],
    };
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url === '/graphql-protected' && req.headers['x-introspection-secret'] !== 'letmein') {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ errors: [{ message: 'introspection secret required' }] }));
        }
        const { query, variables } =
          req.method === 'GET'
            ? { query: new URL(req.url!, 'http://x').searchParams.get('query'), variables: undefined }
            : JSON.parse(body);
        const result = await graphql({ schema, source: query, variableValues: variables, rootValue });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
      });
    });
    upstreamUrl = `http://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Graph Co');
    for (const name of ['graph', 'open-graph']) {
      const res = await dashboard('/apis', {
        method: 'POST',
        body: graphqlApi(name, name === 'open-graph' ? { use_keyless: true } : {}),
      });
      assert.equal(res.status, 200, res.text);
      ids[name] = res.json.ID;
    }
    const persisted = await dashboard('/apis', {
      method: 'POST',
      body: {
        api_definition: {
          name: 'persisted',
          use_keyless: true,
          enable_context_vars: true,
          proxy: { listen_path: '/persisted', target_url: `${upstreamUrl}/graphql`, strip_listen_path: true },
          version_data: {
            not_versioned: true,
            default_version: 'Default',
            versions: {
              Default: {
                name: 'Default',
                use_extended_paths: true,
                extended_paths: {
                  persist_graphql: [
                    {
                      method: 'GET',
                      path: '/users/{id}',
                      operation: 'query($id: ID!) { user(id: $id) { id name } }',
                      variables: { id: '$path.id', ua: '$gw_context.headers_User_Agent' },
                    },
                  ],
                },
              },
            },
          },
        },
      },
    });
    assert.equal(persisted.status, 200, persisted.text);
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/persisted/users/1`)).status, 200));
  });
  after(async () => {
    await node.stop();
    await close(upstream);
    removeDir(node.dataDir);
  });

  it('forwards a valid query as received, with request_headers and never auth_headers', async () => {
    const k = await key({});
    const body = '{"query":"{ user(id: \\"7\\") { name } }",   "variables": {}}';
    const res = await http(`${node.gatewayUrl}/graph`, {
      method: 'POST',
      headers: { authorization: k, 'user-agent': 'gql-test/1' },
      body,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { data: { user: { name: 'user 7' } } });
    const received = seen.at(-1)!;
    assert.equal(received.body, body, 'the body is forwarded byte for byte');
    assert.equal(received.url, '/graphql');
    assert.equal(received.headers['x-from-gateway'], 'gw');
    assert.equal(received.headers['x-client-ua'], 'gql-test/1');
    assert.equal(received.headers['x-introspection-secret'], undefined);
  });

  it('refuses a body too large to hold in memory with 413', async () => {
    const k = await key({});
    const huge = JSON.stringify({ query: '{ countries { code } }', variables: { pad: 'x'.repeat(11 * 1024 * 1024) } });
    const res = await http(`${node.gatewayUrl}/graph`, { method: 'POST', headers: { authorization: k }, body: huge });
    assert.equal(res.status, 413);
    assert.deepEqual(res.json, { error: 'Request is too large' });
  });

  it('accepts GET with the query in the query string', async () => {
    const k = await key({});
    const res = await http(`${node.gatewayUrl}/graph?query=${encodeURIComponent('{ countries { code } }')}`, {
      headers: { authorization: k },
    });
    assert.deepEqual(res.json, { data: { countries: [{ code: 'FR' }] } });
  });

  it('refuses an invalid query with GraphQL errors and never forwards it', async () => {
    const k = await key({});
    const before = seen.length;
    const res = await gql('/graph', '{ user(id: "1") { nope } }', k);
    assert.equal(res.status, 400);
    assert.equal(res.json.errors[0].message, 'Cannot query field "nope" on type "User". Did you mean "name"?');
    assert.deepEqual(res.json.errors[0].locations, [{ line: 1, column: 19 }]);
    assert.equal((await gql('/graph', '{ user(id: ', k)).status, 400);
    assert.equal(seen.length, before);
  });

  describe('depth limits', () => {
    const deep = '{ user(id: "1") { friends { friends { name } } } }'; // depth 4
    const shallow = '{ countries { code } }'; // depth 2

    it('applies the key-level max_query_depth', async () => {
      const k = await key({}, { max_query_depth: 3 });
      assert.equal((await gql('/graph', shallow, k)).status, 200);
      const res = await gql('/graph', deep, k);
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { error: 'depth limit exceeded' });
    });

    it('lets the per-API limit override the key-level one, and the per-field limit override both', async () => {
      const perApi = await key({ limit: { max_query_depth: 5 } }, { max_query_depth: 1 });
      assert.equal((await gql('/graph', deep, perApi)).status, 200);
      const perField = await key({
        limit: { max_query_depth: 1 },
        field_access_rights: [{ type_name: 'Query', field_name: 'user', limits: { max_query_depth: 4 } }],
      });
      assert.equal((await gql('/graph', deep, perField)).status, 200);
      assert.equal((await gql('/graph', shallow, perField)).status, 403, 'countries still has the API limit of 1');
    });

    it('counts fragments at the depth they are spread', async () => {
      const k = await key({}, { max_query_depth: 3 });
      const res = await gql(
        '/graph',
        'query { user(id: "1") { ...F } } fragment F on User { friends { address { city } } }',
        k,
      );
      assert.equal(res.status, 403);
    });
  });

  describe('field permissions', () => {
    it('refuses a restricted field, also behind an alias or inside a fragment', async () => {
      const k = await key({ restricted_types: [{ name: 'User', fields: ['email'] }] });
      assert.equal((await gql('/graph', '{ user(id: "1") { name } }', k)).status, 200);
      for (const query of [
        '{ user(id: "1") { email } }',
        '{ user(id: "1") { mail: email } }',
        '{ user(id: "1") { ...F } } fragment F on User { email }',
      ]) {
        const res = await gql('/graph', query, k);
        assert.equal(res.status, 400, query);
        assert.deepEqual(res.json, { errors: [{ message: 'field: email is restricted on type: User' }] });
      }
    });

    it('with allowed_types, restricts every field not listed; * allows all of a type, not recursively', async () => {
      const k = await key({
        allowed_types: [
          { name: 'Query', fields: ['user'] },
          { name: 'User', fields: ['*'] },
        ],
      });
      assert.equal((await gql('/graph', '{ user(id: "1") { name email } }', k)).status, 200);
      assert.deepEqual((await gql('/graph', '{ countries { code } }', k)).json, {
        errors: [{ message: 'field: countries is restricted on type: Query' }],
      });
      assert.deepEqual((await gql('/graph', '{ user(id: "1") { address { city } } }', k)).json, {
        errors: [{ message: 'field: city is restricted on type: Address' }],
      });
    });
  });

  describe('introspection', () => {
    it('is sent upstream by default, and refused for a key with disable_introspection', async () => {
      const allowed = await key({});
      const res = await gql('/graph', '{ __schema { queryType { name } } }', allowed);
      assert.deepEqual(res.json, { data: { __schema: { queryType: { name: 'Query' } } } });
      const denied = await key({ disable_introspection: true });
      const refused = await gql('/graph', '{ __type(name: "User") { name } }', denied);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.json, { errors: [{ message: 'introspection is disabled' }] });
    });

    it('can not be disabled on a keyless API', async () => {
      assert.equal((await gql('/open-graph', '{ __schema { queryType { name } } }')).status, 200);
    });
  });

  it('serves a persisted query as REST: path segments and headers become variables', async () => {
    const res = await http(`${node.gatewayUrl}/persisted/users/42`, { headers: { 'user-agent': 'rest-client' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { data: { user: { id: '42', name: 'user 42' } } });
    const received = seen.at(-1)!;
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/graphql');
    assert.deepEqual(JSON.parse(received.body).variables, { id: '42', ua: 'rest-client' });
  });

  it('answers 400 for a persisted-query segment that is not a valid percent-encoding, and sends nothing upstream', async () => {
    const before = seen.length;
    for (const path of ['/persisted/users/%zz', '/persisted/users/50%', '/persisted/users/%C3']) {
      const res = await http(`${node.gatewayUrl}${path}`);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.deepEqual(res.json, { error: 'Bad Request: invalid URL escape in the path' });
    }
    assert.equal(seen.length, before);
    const encoded = await http(`${node.gatewayUrl}/persisted/users/a%20b`);
    assert.equal(encoded.status, 200, encoded.text);
    assert.equal(JSON.parse(seen.at(-1)!.body).variables.id, 'a b');
  });

  it('synchronises the schema from a protected upstream, and keeps the headers when asked', async () => {
    const api = graphqlApi('synced');
    api.api_definition.proxy.target_url = `${upstreamUrl}/graphql-protected`;
    (api.api_definition.graphql as { schema: string }).schema = 'type Query { placeholder: String }';
    (api.api_definition.graphql as { proxy: Record<string, unknown> }).proxy = {};
    const created = await dashboard('/apis', { method: 'POST', body: api });
    const id = created.json.Meta;
    const refused = await dashboard(`/apis/${id}/graphql/schema/sync`, { method: 'POST', body: {} });
    assert.equal(refused.status, 400);
    assert.match(refused.json.Message, /introspection secret required/);

    const synced = await dashboard(`/apis/${id}/graphql/schema/sync`, {
      method: 'POST',
      body: { introspection_headers: { 'x-introspection-secret': 'letmein' }, persist_headers: true },
    });
    assert.equal(synced.status, 200, synced.text);
    assert.equal(synced.json.Message, 'Schema synchronised');
    const stored = (await dashboard(`/apis/${id}`)).json.api_definition.graphql;
    assert.match(stored.schema, /type User/);
    assert.ok(Date.parse(stored.last_schema_update) > Date.now() - 60_000);
    assert.deepEqual(stored.proxy.auth_headers, { 'x-introspection-secret': 'letmein' });
    assert.equal(
      (await dashboard(`/apis/${id}/graphql/schema/sync`, { method: 'POST', body: {} })).status,
      200,
      'the persisted headers are used next time',
    );
  });

  describe('playground', () => {
    before(async () => {
      for (const [name, keyless] of [
        ['play', true],
        ['locked-play', false],
      ] as const) {
        const api = graphqlApi(name, { use_keyless: keyless });
        (api.api_definition.graphql as Record<string, unknown>).playground = { enabled: true, path: '/explore' };
        const res = await dashboard('/apis', { method: 'POST', body: api });
        ids[name] = res.json.ID;
      }
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/play/explore`)).status, 200));
    });

    it('serves a GraphiQL page for the API, with its assets from the gateway (no CDN)', async () => {
      const page = await http(`${node.gatewayUrl}/play/explore`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(page.text, /const endpoint = "\/play";/);
      const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(scripts, [
        '/play/explore/graphiql.min.css',
        '/play/explore/react.production.min.js',
        '/play/explore/react-dom.production.min.js',
        '/play/explore/graphiql.min.js',
      ]);
      for (const asset of scripts) {
        const res = await http(`${node.gatewayUrl}${asset}`);
        assert.equal(res.status, 200, asset);
        assert.ok(res.text.length > 1000, asset);
      }
      assert.equal((await http(`${node.gatewayUrl}/play/explore/..%2F..%2Fpackage.json`)).status, 404);
    });

    it("obeys the API's authentication", async () => {
      assert.equal((await http(`${node.gatewayUrl}/locked-play/explore`)).status, 401);
      const k = await key({}, {}, 'locked-play');
      assert.equal(
        (await http(`${node.gatewayUrl}/locked-play/explore`, { headers: { authorization: k } })).status,
        200,
      );
    });
  });

  it('refuses a GraphQL definition without a schema on the gateway API', async () => {
    const res = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: node.gwHeaders,
      body: {
        name: 'no-schema',
        use_keyless: true,
        proxy: { listen_path: '/no-schema', target_url: upstreamUrl },
        graphql: { enabled: true, execution_mode: 'proxyOnly' },
      },
    });
    assert.equal(res.status, 400);
    assert.match(res.json.message, /graphql.schema is required/);
  });

  it('refuses a dashboard save whose schema is invalid, listing the problems', async () => {
    const bad = graphqlApi('bad-schema');
    (bad.api_definition.graphql as { schema: string }).schema =
      'type Query { a: String a: Int b: Missing } type Query { c: String } enum E { X X }';
    const res = await dashboard('/apis', { method: 'POST', body: bad });
    assert.equal(res.status, 400);
    assert.equal(res.json.Message, 'Invalid GraphQL schema');
    assert.equal(res.json.Meta, null);
    assert.ok(
      res.json.Errors.some((e: string) => /There can be only one type named "Query"/.test(e)),
      res.text,
    );
    assert.ok(
      res.json.Errors.some((e: string) => /Field "Query.a" can only be defined once/.test(e)),
      res.text,
    );
    assert.ok(
      res.json.Errors.some((e: string) => /Unknown type "Missing"/.test(e)),
      res.text,
    );
    assert.ok(
      res.json.Errors.some((e: string) => /Enum value "E.X" can only be defined once/.test(e)),
      res.text,
    );
  });
});
