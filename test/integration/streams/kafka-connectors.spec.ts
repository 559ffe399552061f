import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type EachMessagePayload } from 'kafkajs';
import { KafkaInput, type KafkaInputConfig } from '../../../services/streams/connectors/kafka/input';
import { KafkaOutput } from '../../../services/streams/connectors/kafka/output';
import { newMessage, type Input } from '../../../services/streams/connectors/contract';
import { eventually } from '../../support/eventually';
import { KafkaTestBroker } from '../../support/kafka-broker';
import { collectFrom, testEnv, texts } from '../../support/stream-harness';

describe('Streams: kafka input and output', function () {
  this.timeout(60_000);
  let broker: KafkaTestBroker;
  const closing: Array<() => Promise<unknown>> = [];
  const env = testEnv();

  const kafka = () => new Kafka({ clientId: 'spec', brokers: [broker.address], logLevel: logLevel.NOTHING });
  async function produce(topic: string, values: string[]): Promise<void> {
    const producer = kafka().producer();
    await producer.connect();
    await producer.send({ topic, messages: values.map((value) => ({ key: value, value })) });
    await producer.disconnect();
  }
  function input(config: Partial<KafkaInputConfig> & { topics: string[] }): Input {
    const i = new KafkaInput({ addresses: [broker.address], consumer_group: `g-${randomUUID()}`, ...config }, env);
    closing.push(() => i.stop());
    return i;
  }

  beforeEach(async () => {
    broker = await new KafkaTestBroker().start();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
    await broker.stop();
  });

  it('output: topic and key interpolated from the message, acknowledged records readable by a consumer', async () => {
    const suffix = randomUUID();
    const output = new KafkaOutput(
      { addresses: [broker.address], topic: `orders-\${! meta("region") }-${suffix}`, key: '${! this.id }' },
      env,
    );
    closing.push(() => output.close());
    await output.write(newMessage('{"id":"a1"}', { region: 'eu' }));
    await output.write(newMessage('{"id":"b2"}', { region: 'eu' }));
    const got: EachMessagePayload[] = [];
    const consumer: Consumer = kafka().consumer({ groupId: randomUUID(), maxWaitTimeInMs: 100 });
    closing.push(() => consumer.disconnect());
    await consumer.connect();
    await consumer.subscribe({ topic: `orders-eu-${suffix}`, fromBeginning: true });
    await consumer.run({ eachMessage: async (p) => void got.push(p) });
    await eventually(() => assert.equal(got.length, 2), 10_000);
    assert.deepEqual(
      got.map((p) => [p.message.key!.toString(), p.message.value!.toString()]),
      [
        ['a1', '{"id":"a1"}'],
        ['b2', '{"id":"b2"}'],
      ],
    );
  });

  it('input: messages with Kafka metadata; offsets committed only up to the first message the output has not accepted', async () => {
    const topic = `t-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    await produce(topic, ['m1', 'm2', 'm3', 'm4']);
    const first = input({ topics: [topic], consumer_group: group, checkpoint_limit: 10 });
    const run1 = collectFrom(first, (text) => text === 'm3');
    await eventually(() => assert.deepEqual(texts(run1.received), ['m1', 'm2', 'm3', 'm4']), 10_000);
    assert.deepEqual(run1.received[1].metadata, {
      kafka_key: 'm2',
      kafka_topic: topic,
      kafka_partition: 0,
      kafka_offset: 1,
      kafka_timestamp_unix: run1.received[1].metadata.kafka_timestamp_unix,
      kafka_tombstone_message: false,
    });
    await eventually(() => assert.equal(broker.data.offsetsOf(group).get(`${topic}/0`)?.offset, 2n), 5000);
    await first.stop();
    const run2 = collectFrom(input({ topics: [topic], consumer_group: group }));
    await eventually(() => assert.deepEqual(texts(run2.received), ['m3', 'm4']), 15_000);
    await eventually(() => assert.equal(broker.data.offsetsOf(group).get(`${topic}/0`)?.offset, 4n), 5000);
  });

  it('input: resumes after a broker restart with nothing lost', async () => {
    const topic = `t-${randomUUID()}`;
    await produce(topic, ['a', 'b', 'c']);
    const run = collectFrom(input({ topics: [topic] }));
    await eventually(() => assert.deepEqual(texts(run.received), ['a', 'b', 'c']), 10_000);
    await broker.restart();
    await produce(topic, ['d', 'e']);
    await eventually(() => assert.deepEqual([...new Set(texts(run.received))], ['a', 'b', 'c', 'd', 'e']), 30_000, 100);
  });

  it('input: a message still in the pipeline when the broker restarts is committed or delivered again, none lost', async () => {
    const topic = `t-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    await produce(topic, ['r1', 'r2', 'r3']);
    let heldOnce = false;
    const run = collectFrom(
      input({ topics: [topic], consumer_group: group, checkpoint_limit: 1 }),
      (t) => t === 'r2' && !heldOnce && (heldOnce = true),
    );
    await eventually(() => assert.deepEqual(texts(run.received), ['r1', 'r2']), 10_000);
    await eventually(() => assert.equal(broker.data.offsetsOf(group).get(`${topic}/0`)?.offset, 1n), 5000);
    await broker.restart();
    run.held.splice(0).forEach((release) => release());
    await produce(topic, ['r4']);
    await eventually(() => assert.deepEqual([...new Set(texts(run.received))], ['r1', 'r2', 'r3', 'r4']), 30_000, 100);
    await eventually(() => assert.equal(broker.data.offsetsOf(group).get(`${topic}/0`)?.offset, 4n), 10_000);
  });

  it('input: start_from_oldest false starts a new group at the end of the topic', async () => {
    const topic = `t-${randomUUID()}`;
    await produce(topic, ['old']);
    const run = collectFrom(input({ topics: [topic], start_from_oldest: false }));
    await eventually(
      async () => {
        await produce(topic, ['new']);
        assert.ok(run.received.length > 0);
      },
      15_000,
      500,
    );
    assert.ok(!texts(run.received).includes('old'));
  });

  it('two inputs of one consumer group share the partitions, each message once', async () => {
    const topic = `t-${randomUUID()}`;
    const group = `g-${randomUUID()}`;
    broker.createTopic(topic, 4);
    const a = collectFrom(input({ topics: [topic], consumer_group: group }));
    const b = collectFrom(input({ topics: [topic], consumer_group: group }));
    const output = new KafkaOutput({ addresses: [broker.address], topic, key: '${! content() }' }, env);
    closing.push(() => output.close());
    let n = 0;
    await eventually(
      async () => {
        await output.write(newMessage(`probe-${n++}`));
        assert.ok(a.received.length > 0 && b.received.length > 0, 'both inputs received messages');
      },
      30_000,
      300,
    );
    const values = Array.from({ length: 30 }, (_, i) => `v${i}`);
    for (const v of values) await output.write(newMessage(v));
    const both = () => [...texts(a.received), ...texts(b.received)].filter((t) => t.startsWith('v'));
    await eventually(() => assert.deepEqual(both().sort(), [...values].sort()), 15_000);
  });

  it("refuses a broker address on this node's own port", async () => {
    const guarded = testEnv([broker.port]);
    const output = new KafkaOutput({ addresses: [broker.address], topic: 'x' }, guarded);
    closing.push(() => output.close());
    await assert.rejects(
      Promise.race([
        output.write(newMessage('x')),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 20_000)),
      ]),
    );
    assert.equal(broker.data.topics.has('x'), false);
  });
});
