import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { AmqpInput, AmqpOutput } from '../../../services/streams/connectors/amqp';
import { newMessage } from '../../../services/streams/connectors/contract';
import { eventually } from '../../support/eventually';
import { collectFrom, testEnv, texts } from '../../support/stream-harness';
import { TcpProxy } from '../../support/tcp-proxy';

const SHARED_AMQP = 'amqp://guest:guest@127.0.0.1:5672';

describe('Streams: amqp_0_9 connectors (shared RabbitMQ)', function () {
  this.timeout(60_000);
  const env = testEnv();
  const closing: Array<() => Promise<unknown>> = [];
  let admin: ChannelModel;
  let channel: Channel;

  before(async () => {
    admin = await connect(SHARED_AMQP);
    channel = await admin.createChannel();
  });
  after(async () => {
    await admin.close();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
  });
  const queueName = () => {
    const name = `gw-test-${randomUUID()}`;
    closing.unshift(() => channel.deleteQueue(name));
    return name;
  };

  it('round trip: declared queue bound to an exchange, output with an interpolated routing key', async () => {
    const queue = queueName();
    const key = `k-${randomUUID()}`;
    const input = new AmqpInput({ urls: [SHARED_AMQP], queue, queue_declare: { enabled: true, durable: false }, bindings_declare: [{ exchange: 'amq.direct', key }] }, env);
    closing.push(() => input.stop());
    const run = collectFrom(input);
    const output = new AmqpOutput({ urls: [SHARED_AMQP], exchange: 'amq.direct', key: '${! meta("route") }', content_type: 'text/plain' }, env);
    closing.push(() => output.close());
    await eventually(async () => {
      await output.write(newMessage('rabbit', { route: key }));
      assert.ok(texts(run.received).includes('rabbit'));
    }, 10_000, 200);
    const got = run.received.find((r) => r.text === 'rabbit')!;
    assert.equal(got.metadata.amqp_routing_key, key);
    assert.equal(got.metadata.amqp_exchange, 'amq.direct');
    assert.equal(got.metadata.amqp_content_type, 'text/plain');
  });

  it('resumes after the connection to the broker drops: the unacknowledged message comes again, nothing lost', async () => {
    // a private RabbitMQ is too heavy to start in a test: the connection is cut by a relay instead
    const proxy = await new TcpProxy(5672).start();
    closing.push(() => proxy.stop());
    const queue = queueName();
    await channel.assertQueue(queue, { durable: false });
    for (const v of ['a1', 'a2', 'a3']) channel.sendToQueue(queue, Buffer.from(v));
    let heldOnce = false;
    const input = new AmqpInput({ urls: [`amqp://guest:guest@127.0.0.1:${proxy.port}`], queue, prefetch_count: 10 }, env);
    closing.push(() => input.stop());
    const run = collectFrom(input, (t) => t === 'a2' && !heldOnce && (heldOnce = true));
    await eventually(() => assert.deepEqual(texts(run.received), ['a1', 'a2', 'a3']), 10_000);
    proxy.drop();
    // what was not acknowledged when the connection dropped is back in the queue (a2, perhaps an ack in flight)
    await eventually(async () => assert.ok((await channel.checkQueue(queue)).messageCount >= 1), 10_000, 100);
    proxy.restore();
    channel.sendToQueue(queue, Buffer.from('a4'));
    const after = () => new Set(texts(run.received.slice(3)));
    await eventually(() => assert.ok(after().has('a2') && after().has('a4'), JSON.stringify([...after()])), 20_000, 100);
    assert.equal(run.received.find((r, i) => i >= 3 && r.text === 'a2')!.metadata.amqp_redelivered, true);
    assert.deepEqual([...new Set(texts(run.received))].sort(), ['a1', 'a2', 'a3', 'a4']);
  });
});
