import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type EachMessagePayload } from 'kafkajs';
import { eventually } from '../../support/eventually';
import { API, KafkaTestBroker } from '../../support/kafka-broker';
import { splitRecordBatches } from '../../support/kafka-broker/log';

/** kafkajs against the test broker: the broker is only worth its keep if a real client agrees. */
describe('Kafka test broker (kafkajs over TCP)', function () {
  this.timeout(60_000);
  let broker: KafkaTestBroker;
  const consumers: Consumer[] = [];

  const kafka = () =>
    new Kafka({
      clientId: 'spec',
      brokers: [broker.address],
      logLevel: logLevel.NOTHING,
      retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 },
    });
  const consumer = (groupId: string) => {
    const c = kafka().consumer({
      groupId,
      sessionTimeout: 6000,
      heartbeatInterval: 200,
      maxWaitTimeInMs: 200,
      rebalanceTimeout: 3000,
    });
    consumers.push(c);
    return c;
  };
  async function produce(topic: string, values: string[], key = (i: number) => `k${i}`): Promise<void> {
    const producer = kafka().producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: values.map((value, i) => ({ key: key(i), value, headers: { h: `v${i}` } })),
    });
    await producer.disconnect();
  }
  async function collect(c: Consumer, topic: string, into: EachMessagePayload[]): Promise<void> {
    await c.connect();
    await c.subscribe({ topic, fromBeginning: true });
    await c.run({ eachMessage: async (payload) => void into.push(payload) });
  }

  beforeEach(async () => {
    broker = await new KafkaTestBroker().start();
  });
  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.disconnect().catch(() => undefined)));
    await broker.stop();
  });

  it('round-trips records: key, value, headers, offsets in order', async () => {
    const topic = `t-${randomUUID()}`;
    await produce(topic, ['a', 'b', 'c']);
    const got: EachMessagePayload[] = [];
    await collect(consumer(`g-${randomUUID()}`), topic, got);
    await eventually(() => assert.equal(got.length, 3), 10_000);
    assert.deepEqual(
      got.map((p) => p.message.value!.toString()),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      got.map((p) => p.message.key!.toString()),
      ['k0', 'k1', 'k2'],
    );
    assert.deepEqual(
      got.map((p) => p.message.offset),
      ['0', '1', '2'],
    );
    assert.equal(got[1].message.headers!.h!.toString(), 'v1');
    await produce(topic, ['d']);
    await eventually(
      () =>
        assert.deepEqual(
          got.map((p) => p.message.value!.toString()),
          ['a', 'b', 'c', 'd'],
        ),
      10_000,
    );
  });

  it('shares the partitions of a topic between two consumers of one group, each record read once', async () => {
    const topic = `t-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    broker.createTopic(topic, 4);
    const first: EachMessagePayload[] = [];
    const second: EachMessagePayload[] = [];
    await collect(consumer(group), topic, first);
    await collect(consumer(group), topic, second);
    const values = Array.from({ length: 40 }, (_, i) => `m${i}`);
    await eventually(
      async () => {
        await produce(topic, ['probe'], () => randomUUID());
        assert.ok(first.length > 0 && second.length > 0, 'both members received records');
      },
      20_000,
      500,
    );
    const partitionsOf = (list: EachMessagePayload[]) => new Set(list.map((p) => p.partition));
    await produce(topic, values);
    await eventually(
      () => assert.equal([...first, ...second].filter((p) => p.message.value!.toString().startsWith('m')).length, 40),
      10_000,
    );
    const read = [...first, ...second]
      .filter((p) => p.message.value!.toString().startsWith('m'))
      .map((p) => p.message.value!.toString());
    assert.equal(new Set(read).size, 40);
    const late = (list: EachMessagePayload[]) => list.filter((p) => p.message.value!.toString().startsWith('m'));
    const overlap = [...partitionsOf(late(first))].filter((p) => partitionsOf(late(second)).has(p));
    assert.deepEqual(overlap, [], 'a partition read by both members');
  });

  it('resumes from the committed offset when a consumer restarts, and keeps its data across a broker restart', async () => {
    const topic = `t-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    await produce(topic, ['one', 'two']);
    const before: EachMessagePayload[] = [];
    const c1 = consumer(group);
    await collect(c1, topic, before);
    await eventually(() => assert.equal(before.length, 2), 10_000);
    await c1.disconnect();
    await broker.restart();
    await produce(topic, ['three']);
    const after: EachMessagePayload[] = [];
    await collect(consumer(group), topic, after);
    await eventually(
      () =>
        assert.deepEqual(
          after.map((p) => p.message.value!.toString()),
          ['three'],
        ),
      15_000,
    );
  });

  it('long-polls fetches: an idle consumer waits max_wait_ms per fetch, and a new record ends the wait at once', async () => {
    const topic = `t-${randomUUID()}`;
    await produce(topic, ['first']);
    const got: EachMessagePayload[] = [];
    const c = kafka().consumer({ groupId: `g-${randomUUID()}`, maxWaitTimeInMs: 2000, heartbeatInterval: 500 });
    consumers.push(c);
    await collect(c, topic, got);
    await eventually(() => assert.equal(got.length, 1), 10_000);
    const fetches = broker.requests.get(API.fetch)!;
    await eventually(
      () =>
        assert.ok(
          broker.fetchWaits.some((ms) => ms >= 1900),
          'an empty fetch was held for max_wait_ms',
        ),
      10_000,
      50,
    );
    assert.ok(broker.requests.get(API.fetch)! - fetches < 10, 'fetches wait instead of returning empty at once');
    const sent = Date.now();
    await produce(topic, ['second']);
    await eventually(() => assert.equal(got.length, 2), 1500, 10);
    assert.ok(Date.now() - sent < 1500);
  });

  it('refuses a record batch whose CRC-32C does not match', async () => {
    const topic = `t-${randomUUID()}`;
    await produce(topic, ['fine']);
    const log = broker.data.partition(topic, 0)!;
    const corrupt = Buffer.from(log.batches[0].bytes);
    corrupt[corrupt.length - 1] ^= 0xff;
    assert.deepEqual(splitRecordBatches(corrupt), { error: 'corrupt' });
    assert.ok('batches' in splitRecordBatches(log.batches[0].bytes));
  });
});
