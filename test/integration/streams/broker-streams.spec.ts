import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { connect as amqpConnect } from 'amqplib';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { KafkaTestBroker } from '../../support/kafka-broker';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { SseReader } from '../../support/stream-clients';

const NATS = process.env.GW_TEST_NATS ?? 'nats://127.0.0.1:4222';
const AMQP = 'amqp://guest:guest@127.0.0.1:5672';
const MQTT = 'mqtt://127.0.0.1:1883';

/** Message brokers between streams, through the gateway port: HTTP in → broker → SSE out. */
describe('Streams: message brokers end to end through the gateway', function () {
  this.timeout(60_000);
  let node: TestNode;
  let tenant: Tenant;
  let kafka: KafkaTestBroker;
  const readers: SseReader[] = [];

  const api = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const post = (path: string, body: string) => http(`${node.gatewayUrl}${path}`, { method: 'POST', body });

  async function streamsApi(name: string, listenPath: string, streams: Record<string, unknown>): Promise<string> {
    const res = await api('/apis/streams', {
      method: 'POST',
      body: JSON.stringify(streamsDocument(name, listenPath, streams)),
      headers: STREAMS_TYPE,
    });
    assert.equal(res.status, 200, res.text);
    await eventually(
      async () => assert.notEqual((await http(`${node.gatewayUrl}${listenPath}no-such-stream-path`)).status, 404),
      5000,
    );
    return res.json.ID as string;
  }
  async function sse(url: string): Promise<SseReader> {
    const reader = await SseReader.open(url);
    readers.push(reader);
    return reader;
  }
  /** posts until the first message comes out (the broker subscriptions start asynchronously), then the rest */
  async function postUntilFlowing(inPath: string, reader: SseReader, probe: string): Promise<void> {
    await eventually(
      async () => {
        assert.equal((await post(inPath, probe)).status, 200);
        assert.ok(reader.events.length > 0);
      },
      20_000,
      300,
    );
  }

  before(async () => {
    kafka = await new KafkaTestBroker().start();
    node = await startTestNode({ streamsDrainTimeout: 1 });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Brokers');
  });
  after(async () => {
    readers.forEach((r) => r.close());
    await node?.stop();
    await kafka?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('HTTP in → mapping → kafka out, kafka in → SSE out', async () => {
    const topic = `orders-${randomUUID()}`;
    await streamsApi('Kafka round trip', '/kafka/', {
      produce: {
        input: { http_server: { path: '/in' } },
        pipeline: { processors: [{ mapping: 'root = this\nroot.total = this.qty * this.price' }] },
        output: { kafka: { addresses: [kafka.address], topic, key: '${! this.id }' } },
      },
      consume: {
        input: { kafka: { addresses: [kafka.address], topics: [topic], consumer_group: `gw-${randomUUID()}` } },
        pipeline: { processors: [{ mapping: 'root = this\nroot.key = meta("kafka_key")' }] },
        output: { http_server: { stream_path: '/out' } },
      },
    });
    const reader = await sse(`${node.gatewayUrl}/kafka/out`);
    for (let i = 0; i < 5; i++)
      assert.equal((await post('/kafka/in', JSON.stringify({ id: `o${i}`, qty: i, price: 2 }))).status, 200);
    const events = (await reader.waitFor(5)).map((e) => JSON.parse(e));
    assert.deepEqual(
      events,
      [0, 1, 2, 3, 4].map((i) => ({ id: `o${i}`, qty: i, price: 2, total: i * 2, key: `o${i}` })),
    );
    assert.equal(kafka.data.partition(topic, 0)!.next, 5n);
  });

  it('two streams in one kafka consumer group share the partitions, each message once', async () => {
    const topic = `shared-${randomUUID()}`;
    const group = `gw-${randomUUID()}`;
    kafka.createTopic(topic, 4);
    const consumer = (path: string) => ({
      input: { kafka: { addresses: [kafka.address], topics: [topic], consumer_group: group } },
      output: { http_server: { stream_path: path } },
    });
    await streamsApi('Kafka group', '/group/', {
      produce: {
        input: { http_server: { path: '/in' } },
        output: { kafka: { addresses: [kafka.address], topic, key: '${! content() }' } },
      },
      a: consumer('/a'),
      b: consumer('/b'),
    });
    const a = await sse(`${node.gatewayUrl}/group/a`);
    const b = await sse(`${node.gatewayUrl}/group/b`);
    let n = 0;
    await eventually(
      async () => {
        assert.equal((await post('/group/in', `probe-${n++}`)).status, 200);
        assert.ok(a.events.length > 0 && b.events.length > 0, 'both streams receive messages');
      },
      30_000,
      300,
    );
    const sent = Array.from({ length: 20 }, (_, i) => `g${i}`);
    for (const body of sent) assert.equal((await post('/group/in', body)).status, 200);
    const got = () => [...a.events, ...b.events].filter((e) => e.startsWith('g'));
    await eventually(() => assert.deepEqual(got().sort(), [...sent].sort()), 15_000);
  });

  it('nats round trip: HTTP in → nats out, nats in (queue group) → SSE out', async () => {
    const subject = `gw.e2e.${randomUUID()}`;
    await streamsApi('NATS', '/nats/', {
      publish: { input: { http_server: { path: '/in' } }, output: { nats: { urls: [NATS], subject } } },
      subscribe: {
        input: { nats: { urls: [NATS], subject, queue: 'gw' } },
        output: { http_server: { stream_path: '/out' } },
      },
    });
    const reader = await sse(`${node.gatewayUrl}/nats/out`);
    await postUntilFlowing('/nats/in', reader, 'probe');
    for (const body of ['n1', 'n2', 'n3']) assert.equal((await post('/nats/in', body)).status, 200);
    await eventually(
      () =>
        assert.deepEqual(
          reader.events.filter((e) => e !== 'probe'),
          ['n1', 'n2', 'n3'],
        ),
      5000,
    );
  });

  it('amqp round trip: HTTP in → amqp_0_9 out, amqp_0_9 in → SSE out', async () => {
    const queue = `gw-e2e-${randomUUID()}`;
    await streamsApi('AMQP', '/amqp/', {
      publish: {
        input: { http_server: { path: '/in' } },
        output: { amqp_0_9: { urls: [AMQP], exchange: 'amq.direct', key: queue } },
      },
      subscribe: {
        input: {
          amqp_0_9: {
            urls: [AMQP],
            queue,
            queue_declare: { enabled: true, durable: false, auto_delete: true },
            bindings_declare: [{ exchange: 'amq.direct', key: queue }],
          },
        },
        output: { http_server: { stream_path: '/out' } },
      },
    });
    const reader = await sse(`${node.gatewayUrl}/amqp/out`);
    try {
      await postUntilFlowing('/amqp/in', reader, 'probe');
      for (const body of ['r1', 'r2', 'r3']) assert.equal((await post('/amqp/in', body)).status, 200);
      await eventually(
        () =>
          assert.deepEqual(
            reader.events.filter((e) => e !== 'probe'),
            ['r1', 'r2', 'r3'],
          ),
        5000,
      );
    } finally {
      const admin = await amqpConnect(AMQP);
      await (await admin.createChannel()).deleteQueue(queue).catch(() => undefined);
      await admin.close();
    }
  });

  it('mqtt round trip: HTTP in → mqtt out, mqtt in → SSE out', async () => {
    const topic = `gw/e2e/${randomUUID()}`;
    await streamsApi('MQTT', '/mqtt/', {
      publish: { input: { http_server: { path: '/in' } }, output: { mqtt: { urls: [MQTT], topic } } },
      subscribe: {
        input: { mqtt: { urls: [MQTT], topics: [topic], qos: 1 } },
        output: { http_server: { stream_path: '/out' } },
      },
    });
    const reader = await sse(`${node.gatewayUrl}/mqtt/out`);
    await postUntilFlowing('/mqtt/in', reader, 'probe');
    for (const body of ['q1', 'q2', 'q3']) assert.equal((await post('/mqtt/in', body)).status, 200);
    await eventually(
      () =>
        assert.deepEqual(
          reader.events.filter((e) => e !== 'probe'),
          ['q1', 'q2', 'q3'],
        ),
      5000,
    );
  });

  it('refuses a broker connector with a bad field, naming stream and field; nothing stored', async () => {
    const refused = async (
      output: Record<string, unknown>,
      input: Record<string, unknown> = { http_server: { path: '/in' } },
    ) => {
      const res = await api('/apis/streams', {
        method: 'POST',
        body: JSON.stringify(streamsDocument('Bad', '/bad/', { s: { input, output } })),
        headers: STREAMS_TYPE,
      });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.Status, 'Error');
      return res.json.Message as string;
    };
    assert.match(
      await refused(
        { http_server: { stream_path: '/o' } },
        { kafka: { addresses: [kafka.address], topics: 'orders' } },
      ),
      /streams\/s\/input\/kafka\/topics: must be an array of strings/,
    );
    assert.match(
      await refused({ kafka: { addresses: [kafka.address], topic: 't', partitioner: 'sideways' } }),
      /streams\/s\/output\/kafka\/partitioner: must be one of fnv1a_hash/,
    );
    assert.match(await refused({ mqtt: { urls: [MQTT] } }), /output\/mqtt\/topic: is required/);
    assert.match(await refused({ amqp_0_9: { urls: [AMQP], exchange: 'x', key: '${! meta(' } }), /amqp_0_9\/key/);
    const list = await api('/apis');
    assert.ok(!JSON.stringify(list.json).includes('/bad/'));
  });
});
