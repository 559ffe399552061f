import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import WebSocket from 'ws';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { API, KafkaTestBroker } from '../support/kafka-broker';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { installOutboundPolicy, outboundPolicy } from '../../lib/net/outbound-policy';

const STREETLIGHTS_YAML = readFileSync(join(__dirname, '..', 'fixtures', 'udg', 'streetlights-kafka.yaml'), 'utf8');

const GRAPH_SDL = `
  type Query { hello: String }
  type Subscription { orders(shop: String!): Order  rawOrders: Order  anyPrice: Float }
  type Order { id: ID! total: Float item: String }
`;

describe('the combined graph: Kafka data sources for subscription fields', function () {
  this.timeout(30_000);
  let node: TestNode;
  let tenant: Tenant;
  let broker: KafkaTestBroker;
  let producer: Producer;
  const clients: Client[] = [];
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const produce = (topic: string, ...values: unknown[]) =>
    producer.send({
      topic,
      messages: values.map((value) => ({ value: typeof value === 'string' ? value : JSON.stringify(value) })),
    });
  /** a graphql-ws client; with a key, its WebSocket handshake carries it in Authorization */
  const client = (listenPath: string, key?: string) => {
    const webSocketImpl = key
      ? class extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers: { authorization: key } });
          }
        }
      : WebSocket;
    const one = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}${listenPath}`,
      webSocketImpl,
      retryAttempts: 0,
      lazy: true,
    });
    clients.push(one);
    return one;
  };
  /** the first `count` events of a subscription, then the client completes it */
  const take = (listenPath: string, query: string, count: number, onStarted?: () => void, key?: string) =>
    new Promise<unknown[]>((resolve, reject) => {
      const seen: unknown[] = [];
      const stop = client(listenPath, key).subscribe(
        { query },
        {
          next: (value) => {
            seen.push(value);
            if (seen.length === 1) onStarted?.();
            if (seen.length === count) {
              stop();
              resolve(seen);
            }
          },
          error: reject,
          complete: () => resolve(seen),
        },
      );
    });
  const kafkaSource = (name: string, field: string, topics: string[], extra: Record<string, unknown> = {}) => ({
    kind: 'Kafka',
    name,
    root_fields: [{ type: 'Subscription', fields: [field] }],
    config: {
      broker_addresses: [broker.address],
      topics,
      group_id: '',
      client_id: 'gw-spec',
      start_consuming_latest: false,
      ...extra,
    },
  });

  before(async () => {
    broker = await new KafkaTestBroker().start();
    producer = new Kafka({ clientId: 'spec', brokers: [broker.address], logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Kafka Shop');
    const created = await dashboard('/apis', {
      method: 'POST',
      body: {
        api_definition: {
          name: 'shop-events',
          use_keyless: true,
          proxy: { listen_path: '/shop-events', target_url: '', strip_listen_path: true },
          graphql: {
            enabled: true,
            execution_mode: 'executionEngine',
            version: '2',
            schema: GRAPH_SDL,
            engine: {
              field_configs: [
                { type_name: 'Subscription', field_name: 'orders', disable_default_mapping: true, path: [''] },
                {
                  type_name: 'Subscription',
                  field_name: 'anyPrice',
                  disable_default_mapping: true,
                  path: ['price', 'amount'],
                },
              ],
              data_sources: [
                kafkaSource('orders', 'orders', ['orders.{{.arguments.shop}}']),
                kafkaSource('raw-orders', 'rawOrders', ['raw-orders'], { group_id: 'gw-raw-orders' }),
                kafkaSource('prices', 'anyPrice', ['prices.eu', 'prices.us']),
              ],
            },
          },
        },
      },
    });
    assert.equal(created.status, 200, created.text);
    await eventually(
      async () =>
        assert.equal(
          (await http(`${node.gatewayUrl}/shop-events`, { method: 'POST', body: { query: '{ __typename }' } })).status,
          200,
        ),
      5000,
    );
  });
  after(async () => {
    for (const client of clients) await client.dispose();
    await producer?.disconnect();
    if (node) {
      await node.stop();
      removeDir(node.dataDir);
    }
    await broker?.stop();
  });

  it('streams each message of the topic named by the arguments, its JSON value as the field (path ""), in order', async () => {
    await produce('orders.north', { id: '1', total: 10.5, item: 'tea' }, { id: '2', total: 3, item: 'cup' });
    await produce('orders.south', { id: 'other-shop', total: 1, item: 'x' });
    const events = await take(
      '/shop-events',
      'subscription { orders(shop: "north") { id total item } }',
      4,
      () => void produce('orders.north', { id: '3', total: 7, item: 'pot' }, { id: '4', total: 0, item: 'lid' }),
    );
    assert.deepEqual(events, [
      { data: { orders: { id: '1', total: 10.5, item: 'tea' } } },
      { data: { orders: { id: '2', total: 3, item: 'cup' } } },
      { data: { orders: { id: '3', total: 7, item: 'pot' } } },
      { data: { orders: { id: '4', total: 0, item: 'lid' } } },
    ]);
  });

  it('maps by the field name without a field config, and by a configured path across several topics', async () => {
    await produce('raw-orders', { rawOrders: { id: 'r1', total: 2 } });
    assert.deepEqual(await take('/shop-events', 'subscription { rawOrders { id total } }', 1), [
      { data: { rawOrders: { id: 'r1', total: 2 } } },
    ]);
    await produce('prices.eu', { price: { amount: 1.25 } });
    assert.deepEqual(await take('/shop-events', 'subscription { anyPrice }', 1), [{ data: { anyPrice: 1.25 } }]);
  });

  it('gives every client subscription its own consumer: without a group_id, two clients both receive every message', async () => {
    await produce('orders.both', { id: 'b1' }, { id: 'b2' });
    const query = 'subscription { orders(shop: "both") { id } }';
    const [first, second] = await Promise.all([take('/shop-events', query, 2), take('/shop-events', query, 2)]);
    assert.deepEqual(first, [{ data: { orders: { id: 'b1' } } }, { data: { orders: { id: 'b2' } } }]);
    assert.deepEqual(second, first);
  });

  it('answers a message that is not JSON with a GraphQL error on that event, and goes on with the next', async () => {
    await produce('orders.west', 'not json', { id: '5', total: 1, item: 'mug' });
    const events = await take('/shop-events', 'subscription { orders(shop: "west") { id } }', 2);
    assert.deepEqual(events[0], {
      data: { orders: null },
      errors: [
        {
          message: "data source 'orders': a message is not JSON",
          locations: [{ line: 1, column: 16 }],
          path: ['orders'],
        },
      ],
    });
    assert.deepEqual(events[1], { data: { orders: { id: '5' } } });
  });

  it('refuses a topic name the arguments would make invalid, with a GraphQL error', async () => {
    const outcome = await new Promise<unknown>((resolve) => {
      client('/shop-events').subscribe(
        { query: 'subscription { orders(shop: "a/b c") { id } }' },
        { next: resolve, error: resolve, complete: () => resolve('complete') },
      );
    });
    assert.match(JSON.stringify(outcome), /'orders\.a\/b c' is not a valid Kafka topic name/);
  });

  it('disconnects the consumer (it leaves its group) when the client completes the subscription or goes away', async () => {
    const leaves = () => broker.requests.get(API.leaveGroup) ?? 0;
    const before = leaves();
    await produce('orders.east', { id: 'e1' });
    await take('/shop-events', 'subscription { orders(shop: "east") { id } }', 1);
    await eventually(() => assert.equal(leaves(), before + 1), 5000);
    // a client that goes away without completing its operation
    const gone = createClient({
      url: `${node.gatewayUrl.replace('http', 'ws')}/shop-events`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    await new Promise<void>((resolve, reject) =>
      gone.subscribe(
        { query: 'subscription { orders(shop: "east") { id } }' },
        { next: () => resolve(), error: reject, complete: () => undefined },
      ),
    );
    await gone.dispose();
    await eventually(() => assert.equal(leaves(), before + 2), 5000);
    const fetches = () => broker.requests.get(API.fetch) ?? 0;
    const settled = fetches();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(fetches() - settled <= 2, 'no consumer keeps fetching after its subscription ended');
  });

  const metadataEvents = (brokerAddress: string) => ({
    api_definition: {
      name: 'metadata-events',
      use_keyless: true,
      proxy: { listen_path: '/metadata-events', target_url: '', strip_listen_path: true },
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        schema: GRAPH_SDL,
        engine: {
          data_sources: [
            {
              ...kafkaSource('orders', 'rawOrders', ['x']),
              config: { broker_addresses: [brokerAddress], topics: ['x'] },
            },
          ],
        },
      },
    },
  });

  it('refuses a broker address the outbound policy refuses (cloud metadata) when saved, naming the field', async () => {
    const created = await dashboard('/apis', { method: 'POST', body: metadataEvents('169.254.169.254:9092') });
    assert.equal(created.status, 400, created.text);
    const refused = 'names a link-local, cloud-metadata or multicast address, which gw does not call';
    assert.equal(
      created.json.Message,
      `data source 'orders': config.broker_addresses[0] '169.254.169.254:9092' ${refused}`,
    );
  });

  it('answers a broker address refused on connection with a GraphQL error, never connecting', async () => {
    // saved while private addresses were allowed; the operator then turns deny-private on
    let connections = 0;
    const listener = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const created = await dashboard('/apis', { method: 'POST', body: metadataEvents(`127.0.0.1:${port}`) });
    assert.equal(created.status, 200, created.text);
    const release = installOutboundPolicy(outboundPolicy('deny-private'));
    try {
      const served = async () =>
        (await http(`${node.gatewayUrl}/metadata-events`, { method: 'POST', body: { query: '{ __typename }' } }))
          .status;
      await eventually(async () => assert.equal(await served(), 200), 5000);
      const outcome = await new Promise<unknown>((resolve) => {
        const sink = { next: resolve, error: resolve, complete: () => resolve('complete') };
        client('/metadata-events').subscribe({ query: 'subscription { rawOrders { id } }' }, sink);
      });
      assert.match(
        JSON.stringify(outcome),
        /data source 'orders' failed: .*127\.0\.0\.1 is a loopback or private-network address/,
      );
      assert.equal(connections, 0);
    } finally {
      release();
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('ends the subscription with a GraphQL error when its broker goes away, and the gateway goes on', async () => {
    const lonely = await new KafkaTestBroker().start();
    try {
      const created = await dashboard('/apis', {
        method: 'POST',
        body: {
          api_definition: {
            name: 'lonely-events',
            use_keyless: true,
            proxy: { listen_path: '/lonely-events', target_url: '', strip_listen_path: true },
            graphql: {
              enabled: true,
              execution_mode: 'executionEngine',
              version: '2',
              schema: GRAPH_SDL,
              engine: {
                data_sources: [
                  {
                    ...kafkaSource('lonely', 'rawOrders', ['lonely']),
                    config: { broker_addresses: [lonely.address], topics: ['lonely'] },
                  },
                ],
              },
            },
          },
        },
      });
      assert.equal(created.status, 200, created.text);
      await eventually(
        async () =>
          assert.equal(
            (await http(`${node.gatewayUrl}/lonely-events`, { method: 'POST', body: { query: '{ __typename }' } }))
              .status,
            200,
          ),
        5000,
      );
      const producerOfLonely = new Kafka({
        clientId: 'spec',
        brokers: [lonely.address],
        logLevel: logLevel.NOTHING,
      }).producer();
      await producerOfLonely.connect();
      await producerOfLonely.send({
        topic: 'lonely',
        messages: [{ value: JSON.stringify({ rawOrders: { id: 'l1' } }) }],
      });
      await producerOfLonely.disconnect();
      const seen: unknown[] = [];
      const ended = new Promise<unknown>((resolve) => {
        client('/lonely-events').subscribe(
          { query: 'subscription { rawOrders { id } }' },
          {
            next: (value) => {
              seen.push(value);
              if (seen.length === 1) void lonely.stop();
            },
            error: resolve,
            complete: () => resolve('complete'),
          },
        );
      });
      const outcome = await ended;
      assert.deepEqual(seen[0], { data: { rawOrders: { id: 'l1' } } });
      assert.match(JSON.stringify(seen.length > 1 ? seen.slice(1) : outcome), /Kafka consumer stopped/);
      assert.equal(
        (await http(`${node.gatewayUrl}/shop-events`, { method: 'POST', body: { query: '{ __typename }' } })).status,
        200,
      );
    } finally {
      await lonely.stop();
    }
  });

  it('an imported AsyncAPI document (streetlights) end to end: import, subscribe, produce, receive', async () => {
    const document = STREETLIGHTS_YAML.replace('kafka.example.test:{port}', `127.0.0.1:{port}`).replace(
      "default: '9092'",
      `default: '${broker.port}'`,
    );
    const res = await http(`${node.dashboardUrl}/api/data-graphs/data-sources/import`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/vnd.gw.udg.v2.asyncapi' },
      body: document,
    });
    assert.equal(res.status, 200, res.text);
    const api = (await dashboard(`/apis/${res.json.Meta}`)).json.api_definition;
    const listenPath = api.proxy.listen_path;
    assert.deepEqual(api.graphql.engine.data_sources[0].config.broker_addresses, [broker.address]);
    const key = await dashboard('/keys', {
      method: 'POST',
      body: { access_rights: { [api.api_id]: { api_id: api.api_id } } },
    });
    assert.equal(key.status, 200, key.text);
    const token = key.json.key_id as string;
    await eventually(
      async () =>
        assert.equal(
          (
            await http(`${node.gatewayUrl}${listenPath}`, {
              method: 'POST',
              headers: { authorization: token },
              body: { query: '{ __typename }' },
            })
          ).status,
          200,
        ),
      5000,
    );
    const topic = 'smartylighting.streetlights.1.0.event.lamp-7.lighting.measured';
    await produce(topic, { lumens: 120, sentAt: '2026-11-22T07:00:00Z' });
    const events = await take(
      listenPath,
      'subscription { receiveLightMeasurement(streetlightId: "lamp-7") { lumens sentAt } }',
      2,
      () => void produce(topic, { lumens: 80, sentAt: '2026-11-22T07:01:00Z' }),
      token,
    );
    assert.deepEqual(events, [
      { data: { receiveLightMeasurement: { lumens: 120, sentAt: '2026-11-22T07:00:00Z' } } },
      { data: { receiveLightMeasurement: { lumens: 80, sentAt: '2026-11-22T07:01:00Z' } } },
    ]);
  });
});
