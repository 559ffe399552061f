import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { buildSchema, graphql } from 'graphql';
import { createHandler as createSseHandler } from 'graphql-sse/lib/use/http';
import { createClient, type Client } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import WebSocket, { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/** The GraphQL data source's own schema (what the upstream serves). */
const UPSTREAM_SDL = `
  type Query { countries: [Country] country(code: ID!): Country favourite: Country }
  type Country { code: ID! name: String }
  type Subscription { ticks(from: Int!): Int }
`;

/** The combined graph: users and posts from REST, countries from GraphQL. */
const GRAPH_SDL = `
  type Query {
    user(id: ID!): User
    users: [User]
    search(term: String!): [User]
    countries: [Country]
    country(code: ID!): Country
  }
  type Mutation { createUser(name: String!): User }
  type Subscription { ticks(from: Int!): Int orders: String }
  type User { id: ID! name: String displayName: String countryCode: String country: Country favourite: Country posts: [Post] }
  type Post { id: ID! title: String }
  type Country { code: ID! name: String users: [User] }
`;

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('the combined graph (execution_mode executionEngine)', function () {
  this.timeout(20_000);
  let node: TestNode;
  let tenant: Tenant;
  let rest: Upstream;
  let graphqlUpstream: Server;
  let graphqlUrl: string;
  const graphqlSeen: Seen[] = [];
  /** the `from` of every upstream ticks subscription that has ended */
  const stoppedTicks: number[] = [];
  const clients: Client[] = [];
  let keyedId = '';
  let keyedApiId = '';
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const query = (
    path: string,
    text: string,
    headers: Record<string, string> = {},
    variables?: Record<string, unknown>,
  ) => http(`${node.gatewayUrl}${path}`, { method: 'POST', headers, body: { query: text, variables } });

  const definition = (name: string, extra: Record<string, unknown> = {}) => ({
    api_definition: {
      name,
      use_keyless: true,
      // The reference gateway leaves a combined graph's target empty: it answers from its data sources.
      proxy: { listen_path: `/${name}`, target_url: '', strip_listen_path: true },
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        schema: GRAPH_SDL,
        playground: { enabled: true },
        engine: {
          field_configs: [
            { type_name: 'Query', field_name: 'users', disable_default_mapping: true, path: ['items'] },
            {
              type_name: 'User',
              field_name: 'displayName',
              disable_default_mapping: true,
              path: ['profile', 'display'],
            },
          ],
          data_sources: [
            {
              kind: 'REST',
              name: 'users',
              internal: false,
              root_fields: [{ type: 'Query', fields: ['user'] }],
              config: {
                url: `${rest.url}/users/{{.arguments.id}}`,
                method: 'GET',
                headers: { 'x-auth': '{{.request.headers.X-Token}}' },
                query: [],
                body: '',
              },
            },
            {
              kind: 'REST',
              name: 'user-list',
              root_fields: [{ type: 'Query', fields: ['users'] }],
              config: { url: `${rest.url}/users`, method: 'GET' },
            },
            {
              kind: 'REST',
              name: 'search',
              root_fields: [{ type: 'Query', fields: ['search'] }],
              config: {
                url: `${rest.url}/search`,
                method: 'GET',
                query: [{ name: 'q', value: '{{.arguments.term}}' }],
              },
            },
            {
              kind: 'REST',
              name: 'create',
              root_fields: [{ type: 'Mutation', fields: ['createUser'] }],
              config: {
                url: `${rest.url}/users`,
                method: 'POST',
                body: '{"name": "{{.arguments.name}}", "by": "{{.request.headers.X-Token}}"}',
              },
            },
            {
              kind: 'REST',
              name: 'posts',
              root_fields: [{ type: 'User', fields: ['posts'] }],
              config: { url: `${rest.url}/users/{{.object.id}}/posts`, method: 'GET' },
            },
            {
              kind: 'REST',
              name: 'country-users',
              root_fields: [{ type: 'Country', fields: ['users'] }],
              config: { url: `${rest.url}/countries/{{.object.code}}/users`, method: 'GET' },
            },
            {
              kind: 'GraphQL',
              name: 'countries',
              root_fields: [
                { type: 'Query', fields: ['countries', 'country'] },
                { type: 'User', fields: ['favourite'] },
              ],
              config: { url: graphqlUrl, method: 'POST', headers: { 'x-source': 'gw' } },
            },
            {
              kind: 'GraphQL',
              name: 'country-of-user',
              root_fields: [{ type: 'User', fields: ['country'] }],
              config: {
                url: graphqlUrl,
                method: 'POST',
                has_operation: true,
                operation: 'query($code: ID!) { country(code: $code) { code name } }',
                variables: { code: '{{.object.countryCode}}' },
              },
            },
            {
              kind: 'GraphQL',
              name: 'ticks',
              root_fields: [{ type: 'Subscription', fields: ['ticks'] }],
              config: { url: graphqlUrl, method: 'POST', subscription_type: 'graphql-transport-ws' },
            },
            {
              kind: 'Kafka',
              name: 'orders',
              root_fields: [{ type: 'Subscription', fields: ['orders'] }],
              config: { broker_addresses: ['127.0.0.1:1'], topics: ['orders'], group_id: 'gw' },
            },
          ],
        },
      },
      ...extra,
    },
  });

  before(async () => {
    const schema = buildSchema(UPSTREAM_SDL);
    const countries = [
      { code: 'FR', name: 'France' },
      { code: 'DE', name: 'Germany' },
    ];
    const rootValue = {
      countries: () => countries,
      country: ({ code }: { code: string }) => countries.find((c) => c.code === code),
      favourite: () => countries[0],
    };
    const ticks = schema.getSubscriptionType()!.getFields().ticks;
    ticks.subscribe = async function* (_source: unknown, { from }: { from: number }) {
      try {
        for (let i = from; i > 0; i--) {
          if (from > 100) await new Promise((resolve) => setTimeout(resolve, 10));
          yield { ticks: i };
        }
      } finally {
        stoppedTicks.push(from);
      }
    };
    const sse = createSseHandler({ schema });
    graphqlUpstream = createServer((req, res) => {
      if (req.url?.startsWith('/sse')) return void sse(req, res);
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        graphqlSeen.push({ url: req.url ?? '', headers: req.headers, body });
        const { query: source, variables } = JSON.parse(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(await graphql({ schema, source, variableValues: variables, rootValue })));
      });
    });
    useServer({ schema, roots: { query: rootValue } }, new WebSocketServer({ server: graphqlUpstream }));
    graphqlUrl = `http://127.0.0.1:${await listen(graphqlUpstream, 0, '127.0.0.1')}/graphql`;

    rest = await startUpstream();
    rest.respondWith((req, res) => {
      const path = req.url.split('?')[0];
      const user = (id: string, countryCode = 'FR') => ({
        id,
        name: `user ${id}`,
        countryCode,
        profile: { display: `User #${id}` },
      });
      let body: unknown = null;
      if (path === '/users/broken') {
        res.writeHead(503, { 'content-type': 'application/json' });
        return void res.end('{}');
      }
      if (path === '/users' && req.method === 'GET') body = { items: [user('1'), user('2', 'DE'), user('1')] };
      else if (path === '/users' && req.method === 'POST') body = { id: '9', ...JSON.parse(req.body) };
      else if (path === '/search') body = [user('3')];
      else if (/^\/users\/[^/]+\/posts$/.test(path)) body = [{ id: `p-${path.split('/')[2]}`, title: 'Hello' }];
      else if (/^\/countries\/[^/]+\/users$/.test(path)) body = [user(`of-${path.split('/')[2]}`)];
      else if (path.startsWith('/users/')) body = user(decodeURIComponent(path.slice('/users/'.length)));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });

    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Graph Co');
    const persisted = {
      method: 'GET',
      path: '/users/{id}',
      operation: 'query($id: ID!) { user(id: $id) { id name } }',
      variables: { id: '$path.id' },
    };
    const versionData = {
      not_versioned: true,
      default_version: 'Default',
      versions: {
        Default: { name: 'Default', use_extended_paths: true, extended_paths: { persist_graphql: [persisted] } },
      },
    };
    const open = await dashboard('/apis', { method: 'POST', body: definition('udg', { version_data: versionData }) });
    assert.equal(open.status, 200, open.text);
    const keyed = await dashboard('/apis', { method: 'POST', body: definition('udg-keyed', { use_keyless: false }) });
    assert.equal(keyed.status, 200, keyed.text);
    keyedId = keyed.json.Meta;
    const overSse = await dashboard('/apis', {
      method: 'POST',
      body: {
        api_definition: {
          name: 'udg-sse',
          use_keyless: true,
          proxy: { listen_path: '/udg-sse', target_url: '', strip_listen_path: true },
          graphql: {
            enabled: true,
            execution_mode: 'executionEngine',
            schema: 'type Query { unused: String } type Subscription { ticks(from: Int!): Int }',
            engine: {
              data_sources: [
                {
                  kind: 'GraphQL',
                  name: 'ticks-sse',
                  subscription_type: 'sse',
                  root_fields: [{ type: 'Subscription', fields: ['ticks'] }],
                  config: { url: graphqlUrl.replace('/graphql', '/sse'), method: 'POST' },
                },
              ],
            },
          },
        },
      },
    });
    assert.equal(overSse.status, 200, overSse.text);
    keyedApiId = keyed.json.ID;
    await eventually(async () => assert.equal((await query('/udg', '{ search(term: "x") { id } }')).status, 200), 5000);
    await eventually(
      async () => assert.equal((await query('/udg-keyed', '{ search(term: "x") { id } }')).status, 401),
      5000,
    );
  });

  after(async () => {
    for (const client of clients) await client.dispose();
    await node?.stop();
    await rest?.close();
    graphqlUpstream?.closeAllConnections();
    await close(graphqlUpstream);
    removeDir(node.dataDir);
  });

  const restCalls = (from: number) => rest.received.slice(from);

  it('resolves a REST field with arguments and request headers templated into the URL and headers, URL-encoded', async () => {
    const before = rest.received.length;
    const res = await query('/udg', '{ user(id: "a/b c?") { id name displayName } }', { 'x-token': 'secret-1' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { data: { user: { id: 'a/b c?', name: 'user a/b c?', displayName: 'User #a/b c?' } } });
    const [call] = restCalls(before);
    assert.equal(call.url, '/users/a%2Fb%20c%3F');
    assert.equal(call.headers['x-auth'], 'secret-1');
    assert.equal(restCalls(before).length, 1);
  });

  it('templates query parameters and JSON bodies without letting a value break out', async () => {
    let before = rest.received.length;
    const found = await query('/udg', '{ search(term: "x&y=z #") { id } }');
    assert.deepEqual(found.json, { data: { search: [{ id: '3' }] } });
    assert.equal(restCalls(before)[0].url, '/search?q=x%26y%3Dz+%23');

    before = rest.received.length;
    const created = await query(
      '/udg',
      'mutation($n: String!) { createUser(name: $n) { id name } }',
      { 'x-token': 't' },
      { n: 'Ada "Q", \\o/' },
    );
    assert.deepEqual(created.json, { data: { createUser: { id: '9', name: 'Ada "Q", \\o/' } } });
    const [call] = restCalls(before);
    assert.equal(call.method, 'POST');
    assert.deepEqual(JSON.parse(call.body), { name: 'Ada "Q", \\o/', by: 't' });
  });

  it('maps responses by field_configs path, and resolves nested fields with the parent object: one REST call per distinct request, one batched GraphQL call', async () => {
    const before = rest.received.length;
    const gqlBefore = graphqlSeen.length;
    const res = await query('/udg', '{ users { id displayName posts { id } country { name } } }');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data.users, [
      { id: '1', displayName: 'User #1', posts: [{ id: 'p-1' }], country: { name: 'France' } },
      { id: '2', displayName: 'User #2', posts: [{ id: 'p-2' }], country: { name: 'Germany' } },
      { id: '1', displayName: 'User #1', posts: [{ id: 'p-1' }], country: { name: 'France' } },
    ]);
    const urls = restCalls(before)
      .map((r) => r.url)
      .sort();
    assert.deepEqual(
      urls,
      ['/users', '/users/1/posts', '/users/2/posts'],
      'user 1 appears twice, its posts are fetched once',
    );
    const upstream = graphqlSeen.slice(gqlBefore).map((s) => JSON.parse(s.body).query as string);
    assert.equal(upstream.length, 1, 'the data source’s own operation for every user, batched into one query');
    assert.match(upstream[0], /_0: country\(code: "FR"\) \{\s*code\s+name\s*\}/);
    assert.match(upstream[0], /_1: country\(code: "DE"\)/);
    assert.doesNotMatch(upstream[0], /_2:/, 'the two users of France share one field');
  });

  it('forwards the selection of GraphQL fields, batching the fields of one pass into one upstream query', async () => {
    const gqlBefore = graphqlSeen.length;
    const res = await query(
      '/udg',
      '{ countries { code name } fr: country(code: "FR") { name } users { favourite { name } } }',
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data.countries, [
      { code: 'FR', name: 'France' },
      { code: 'DE', name: 'Germany' },
    ]);
    assert.deepEqual(res.json.data.fr, { name: 'France' });
    assert.deepEqual(
      res.json.data.users.map((u: { favourite: { name: string } }) => u.favourite.name),
      ['France', 'France', 'France'],
    );
    const calls = graphqlSeen.slice(gqlBefore);
    assert.equal(calls.length, 2, 'the two root fields in one query, the three users’ favourites in another');
    assert.equal(calls[0].headers['x-source'], 'gw');
    const first = JSON.parse(calls[0].body).query as string;
    assert.match(first, /_0: countries \{\s*code\s+name\s*\}/);
    assert.match(first, /_1: country\(code: "FR"\) \{\s*name\s*\}/);
    const second = JSON.parse(calls[1].body).query as string;
    assert.equal((second.match(/favourite/g) ?? []).length, 1, second);
  });

  it('leaves fields of other data sources out of a forwarded selection and asks for what their templates read', async () => {
    const before = rest.received.length;
    const gqlBefore = graphqlSeen.length;
    const res = await query('/udg', '{ countries { name users { id } } }');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data.countries, [
      { name: 'France', users: [{ id: 'of-FR' }] },
      { name: 'Germany', users: [{ id: 'of-DE' }] },
    ]);
    const forwarded = JSON.parse(graphqlSeen[gqlBefore].body).query as string;
    assert.doesNotMatch(forwarded, /users/);
    assert.match(forwarded, /code/);
    assert.deepEqual(
      restCalls(before)
        .map((r) => r.url)
        .sort(),
      ['/countries/DE/users', '/countries/FR/users'],
    );
  });

  it('sends the operation’s variables with a forwarded field', async () => {
    const gqlBefore = graphqlSeen.length;
    const res = await query('/udg', 'query Pick($c: ID!) { country(code: $c) { name } }', {}, { c: 'DE' });
    assert.deepEqual(res.json, { data: { country: { name: 'Germany' } } });
    const sent = JSON.parse(graphqlSeen[gqlBefore].body);
    assert.match(sent.query, /^query\(\$c: ID!\) \{ _0: country\(code: \$c\)/);
    assert.deepEqual(sent.variables, { c: 'DE' });
  });

  it('accepts GET with the query and variables in the query string', async () => {
    const params = new URLSearchParams({
      query: 'query($c: ID!) { country(code: $c) { name } }',
      variables: JSON.stringify({ c: 'FR' }),
    });
    const res = await http(`${node.gatewayUrl}/udg?${params}`);
    assert.deepEqual(res.json, { data: { country: { name: 'France' } } });
  });

  it('answers a failing data source with a GraphQL error on its field, naming the data source', async () => {
    const res = await query('/udg', '{ user(id: "broken") { id } search(term: "x") { id } }');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data, { user: null, search: [{ id: '3' }] });
    assert.equal(res.json.errors[0].message, "data source 'users' failed: it answered 503");
    assert.deepEqual(res.json.errors[0].path, ['user']);
  });

  it("refuses at call time a data source that points at this node's own ports, with a GraphQL error naming the data source; nothing reaches them", async () => {
    const body = definition('udg-self');
    const engine = (body.api_definition.graphql as { engine: { data_sources: Array<Record<string, unknown>> } }).engine;
    engine.data_sources = [
      {
        kind: 'REST',
        name: 'gateway-admin',
        root_fields: [{ type: 'Query', fields: ['users'] }],
        config: {
          url: `${node.gatewayUrl}/gw/apis`,
          method: 'GET',
          headers: { 'x-gw-authorization': node.config.secret },
        },
      },
      {
        kind: 'GraphQL',
        name: 'dashboard',
        root_fields: [{ type: 'Query', fields: ['countries'] }],
        config: { url: `${node.dashboardUrl}/api/apis`, method: 'POST' },
      },
      {
        kind: 'REST',
        name: 'search',
        root_fields: [{ type: 'Query', fields: ['search'] }],
        config: { url: `${rest.url}/search`, method: 'GET' },
      },
    ];
    (body.api_definition.graphql as Record<string, unknown>).engine = {
      data_sources: engine.data_sources,
      field_configs: [],
    };
    const saved = await dashboard('/apis', { method: 'POST', body });
    assert.equal(saved.status, 200, saved.text);
    await eventually(
      async () => assert.equal((await query('/udg-self', '{ search(term: "x") { id } }')).status, 200),
      5000,
    );
    const res = await query('/udg-self', '{ users { id } countries { code } search(term: "x") { id } }');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data, { users: null, countries: null, search: [{ id: '3' }] });
    const messages = (res.json.errors as Array<{ message: string }>).map((e) => e.message).sort();
    assert.equal(messages.length, 2, res.text);
    assert.match(messages[0], /^data source 'dashboard' failed: .*is a port of this gw node/);
    assert.match(messages[1], /^data source 'gateway-admin' failed: .*is a port of this gw node/);
  });

  it('runs queries sent over the WebSocket through the graph too', async () => {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/udg`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    const values = await new Promise<unknown[]>((resolve, reject) => {
      const seen: unknown[] = [];
      client.subscribe(
        { query: '{ user(id: "5") { name } }' },
        { next: (value) => seen.push(value), error: reject, complete: () => resolve(seen) },
      );
    });
    assert.deepEqual(values, [{ data: { user: { name: 'user 5' } } }]);
  });

  it('serves a persisted query through the graph: path segments become variables', async () => {
    const before = rest.received.length;
    const res = await http(`${node.gatewayUrl}/udg/users/7%20x`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { data: { user: { id: '7 x', name: 'user 7 x' } } });
    assert.deepEqual(
      restCalls(before).map((r) => r.url),
      ['/users/7%20x'],
    );
  });

  it('serves the playground for the graph', async () => {
    const page = await http(`${node.gatewayUrl}/udg/playground`);
    assert.equal(page.status, 200);
    assert.match(page.text, /const endpoint = "\/udg";/);
  });

  it('answers introspection from the graph’s own schema, calling no data source', async () => {
    const before = rest.received.length + graphqlSeen.length;
    const res = await query('/udg', '{ __type(name: "User") { fields { name } } }');
    assert.equal(res.status, 200, res.text);
    assert.ok(res.json.data.__type.fields.some((f: { name: string }) => f.name === 'displayName'));
    assert.equal(rest.received.length + graphqlSeen.length, before);
  });

  it('refuses an invalid query without calling any data source', async () => {
    const before = rest.received.length + graphqlSeen.length;
    const res = await query('/udg', '{ users { nope } }');
    assert.equal(res.status, 400);
    assert.match(res.json.errors[0].message, /Cannot query field "nope"/);
    assert.equal(rest.received.length + graphqlSeen.length, before);
  });

  describe('on a keyed API', () => {
    const key = async (access: Record<string, unknown>, session: Record<string, unknown> = {}) => {
      const res = await dashboard('/keys', {
        method: 'POST',
        body: { ...session, access_rights: { [keyedApiId]: { api_id: keyedApiId, ...access } } },
      });
      assert.equal(res.status, 200, res.text);
      return res.json.key_id as string;
    };

    it('applies the key’s depth limit', async () => {
      const token = await key({}, { max_query_depth: 2 });
      const before = rest.received.length;
      const deep = await query('/udg-keyed', '{ users { posts { title } } }', { authorization: token });
      assert.equal(deep.status, 403);
      assert.deepEqual(deep.json, { error: 'depth limit exceeded' });
      assert.equal(rest.received.length, before);
      assert.equal((await query('/udg-keyed', '{ users { id } }', { authorization: token })).status, 200);
    });

    it('refuses a restricted field and introspection when the key may not', async () => {
      const token = await key({ restricted_types: [{ name: 'User', fields: ['name'] }], disable_introspection: true });
      const restricted = await query('/udg-keyed', '{ users { name } }', { authorization: token });
      assert.equal(restricted.status, 400);
      assert.deepEqual(restricted.json, { errors: [{ message: 'field: name is restricted on type: User' }] });
      const introspection = await query('/udg-keyed', '{ __schema { queryType { name } } }', { authorization: token });
      assert.equal(introspection.status, 403);
    });
  });

  it('streams a subscription field from a GraphQL upstream to a graphql-ws client', async () => {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/udg`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    const values = await new Promise<unknown[]>((resolve, reject) => {
      const seen: unknown[] = [];
      client.subscribe(
        { query: 'subscription { t: ticks(from: 3) }' },
        { next: (value) => seen.push(value), error: reject, complete: () => resolve(seen) },
      );
    });
    assert.deepEqual(values, [{ data: { t: 3 } }, { data: { t: 2 } }, { data: { t: 1 } }]);
  });

  it('stops the upstream subscription when the client completes its operation', async () => {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/udg`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    let unsubscribe = () => {};
    await new Promise<void>((resolve, reject) => {
      unsubscribe = client.subscribe(
        { query: 'subscription { ticks(from: 1000) }' },
        { next: () => resolve(), error: reject, complete: () => undefined },
      );
    });
    unsubscribe();
    await eventually(() => assert.ok(stoppedTicks.includes(1000), 'the upstream generator ended'), 3000);
  });

  it('streams a subscription field from an SSE upstream (subscription_type on the data source)', async () => {
    await eventually(async () => assert.equal((await query('/udg-sse', '{ unused }')).status, 200), 5000);
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/udg-sse`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    const values = await new Promise<unknown[]>((resolve, reject) => {
      const seen: unknown[] = [];
      client.subscribe(
        { query: 'subscription { ticks(from: 2) }' },
        { next: (value) => seen.push(value), error: reject, complete: () => resolve(seen) },
      );
    });
    assert.deepEqual(values, [{ data: { ticks: 2 } }, { data: { ticks: 1 } }]);
  });

  it("refuses a subscription data source aimed at this node's own ports, over each protocol, with an error naming the data source", async () => {
    const cases: Array<[string, string, string]> = [
      ['self-transport-ws', 'graphql-transport-ws', `${node.gatewayUrl}/udg`],
      ['self-legacy-ws', 'graphql-ws', `${node.gatewayUrl}/udg`],
      ['self-sse', 'sse', `${node.dashboardUrl}/api/graphql`],
    ];
    for (const [name, subscriptionType, url] of cases) {
      const saved = await dashboard('/apis', {
        method: 'POST',
        body: {
          api_definition: {
            name,
            use_keyless: true,
            proxy: { listen_path: `/${name}`, target_url: '', strip_listen_path: true },
            graphql: {
              enabled: true,
              execution_mode: 'executionEngine',
              schema: 'type Query { unused: String } type Subscription { ticks(from: Int!): Int }',
              engine: {
                data_sources: [
                  {
                    kind: 'GraphQL',
                    name,
                    root_fields: [{ type: 'Subscription', fields: ['ticks'] }],
                    config: { url, method: 'POST', subscription_type: subscriptionType },
                  },
                ],
              },
            },
          },
        },
      });
      assert.equal(saved.status, 200, saved.text);
    }
    for (const [name] of cases) {
      await eventually(async () => assert.equal((await query(`/${name}`, '{ unused }')).status, 200), 5000);
      const client = createClient({
        url: `${node.gatewayUrl.replace('http', 'ws')}/${name}`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
      });
      clients.push(client);
      const outcome = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: 'subscription { ticks(from: 2) }' },
          { next: (value) => resolve(value), error: (error) => resolve(error), complete: () => resolve('complete') },
        );
      });
      assert.match(JSON.stringify(outcome), new RegExp(`data source '${name}'.*is a port of this gw node`), name);
    }
  });

  it('answers a subscription to a Kafka broker nothing listens on with a GraphQL error naming the data source, and no notice in /gw/health', async () => {
    const client = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/udg`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(client);
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { orders }' },
        { next: (value) => resolve(value), error: (error) => resolve(error), complete: () => resolve('complete') },
      );
    });
    assert.match(JSON.stringify(outcome), /data source 'orders' failed: .*(ECONNREFUSED|Connection error)/);
    const health = await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders });
    const notices = Object.values((health.json.apis_notices ?? {}) as Record<string, string[]>).flat();
    assert.ok(!notices.some((n) => /Kafka/.test(n)), JSON.stringify(health.json));
    const still = await query('/udg', '{ search(term: "x") { id } }');
    assert.deepEqual(still.json.data, { search: [{ id: '3' }] }, 'the gateway keeps answering');
  });

  it('refuses schema synchronisation for a combined graph with a clear 400', async () => {
    const res = await dashboard(`/apis/${keyedId}/graphql/schema/sync`, { method: 'POST', body: {} });
    assert.equal(res.status, 400);
    assert.match(res.json.Message, /not available for combined-graph APIs/);
  });

  describe('bad definitions are refused at save time with a 400 envelope naming the problem', () => {
    const withSources = (dataSources: unknown[], schema = GRAPH_SDL) => {
      const api = definition(`bad-${Math.random().toString(36).slice(2, 8)}`);
      const graphqlSettings = api.api_definition.graphql as Record<string, unknown>;
      graphqlSettings.schema = schema;
      graphqlSettings.engine = { data_sources: dataSources, field_configs: [] };
      return api;
    };
    const refused = async (body: unknown, message: RegExp) => {
      const before = (await dashboard('/apis')).json;
      const res = await dashboard('/apis', { method: 'POST', body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.Status, 'Error');
      assert.match(`${res.json.Message} ${(res.json.Errors ?? []).join(' ')}`, message);
      assert.deepEqual((await dashboard('/apis')).json, before, 'nothing stored');
    };

    it('a data source naming a field that is not in the schema', () =>
      refused(
        withSources([
          {
            kind: 'REST',
            name: 'ghost',
            root_fields: [{ type: 'Query', fields: ['ghosts'] }],
            config: { url: 'http://x.test/' },
          },
        ]),
        /data source 'ghost': field 'Query.ghosts' is not in the schema/,
      ));
    it('a data source naming a type that is not in the schema', () =>
      refused(
        withSources([
          {
            kind: 'REST',
            name: 'ghost',
            root_fields: [{ type: 'Ghost', fields: ['id'] }],
            config: { url: 'http://x.test/' },
          },
        ]),
        /data source 'ghost': type 'Ghost' is not an object type/,
      ));
    const kafkaWith = (config: Record<string, unknown>) =>
      withSources([
        {
          kind: 'Kafka',
          name: 'events',
          root_fields: [{ type: 'Subscription', fields: ['orders'] }],
          config: { broker_addresses: ['broker.test:9092'], topics: ['orders'], ...config },
        },
      ]);
    it('a Kafka data source without brokers or topics', () =>
      refused(
        kafkaWith({ broker_addresses: [], topics: [] }),
        /data source 'events': broker_addresses must list at least one broker.*topics must list at least one topic/,
      ));
    it('a Kafka broker address that is not host:port', () =>
      refused(
        kafkaWith({ broker_addresses: ['kafka://broker.test'] }),
        /data source 'events': broker address 'kafka:\/\/broker.test' must be host:port/,
      ));
    it('an unknown Kafka balance strategy or isolation level', () =>
      refused(
        kafkaWith({ balance_strategy: 'Random', isolation_level: 'Dirty' }),
        /balance_strategy must be one of BalanceStrategyRange, BalanceStrategySticky, BalanceStrategyRoundRobin.*isolation_level must be ReadUncommitted or ReadCommitted/,
      ));
    it('Kafka SASL enabled without a user', () =>
      refused(
        kafkaWith({ sasl: { enable: true, user: '', password: 'p' } }),
        /sasl.user is needed when sasl.enable is true/,
      ));
    it('an unknown kind', () =>
      refused(
        withSources([{ kind: 'SOAP', name: 'soap', root_fields: [{ type: 'Query', fields: ['users'] }], config: {} }]),
        /data source 'soap': kind must be REST, GraphQL or Kafka/,
      ));
    it('a URL that is not http(s), or templated in its host', async () => {
      await refused(
        withSources([
          {
            kind: 'REST',
            name: 'ftp',
            root_fields: [{ type: 'Query', fields: ['users'] }],
            config: { url: 'ftp://x.test/users' },
          },
        ]),
        /data source 'ftp': config.url 'ftp:\/\/x.test\/users' must be http/,
      );
      await refused(
        withSources([
          {
            kind: 'GraphQL',
            name: 'host',
            root_fields: [{ type: 'Query', fields: ['users'] }],
            config: { url: 'http://{{.arguments.host}}/graphql' },
          },
        ]),
        /data source 'host': .*not templated in its host/,
      );
      // URL parsing would read these templates as the host: `http:{{…}}`, `http:/{{…}}`, `http:\\{{…}}`
      for (const url of [
        'http:{{.arguments.host}}/graphql',
        'http:/{{.arguments.host}}/graphql',
        'http:\\{{.arguments.host}}/graphql',
        'https:{{.arguments.host}}',
      ]) {
        await refused(
          withSources([
            { kind: 'REST', name: 'host', root_fields: [{ type: 'Query', fields: ['users'] }], config: { url } },
          ]),
          /data source 'host': .*not templated in its host/,
        );
      }
    });
    it('a URL naming a cloud-metadata or link-local address', async () => {
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/latest/meta-data/',
        'http://100.100.100.200/latest/meta-data/',
        'http://metadata.google.internal/computeMetadata/v1/',
      ]) {
        await refused(
          withSources([
            { kind: 'REST', name: 'imds', root_fields: [{ type: 'Query', fields: ['users'] }], config: { url } },
          ]),
          /data source 'imds': config.url '.*' names a (link-local|cloud metadata)/,
        );
      }
    });
    it('an empty target_url on an API that is not a combined graph', () =>
      refused(
        {
          api_definition: {
            name: 'no-target',
            use_keyless: true,
            proxy: { listen_path: '/no-target', target_url: '', strip_listen_path: true },
          },
        },
        /proxy.target_url '' is not a valid URL/,
      ));
    it('an SDL that does not parse', () =>
      refused(withSources([], 'type Query { users: [User }'), /Invalid GraphQL schema/));
  });
});
