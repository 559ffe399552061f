import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { AmqpInput, AmqpOutput } from '../../../services/streams/connectors/amqp';
import { newMessage } from '../../../services/streams/connectors/contract';
import { eventually } from '../../support/eventually';
import { privateRabbitMq, rabbitmqInstalled, type PrivateRabbitMq } from '../../support/private-rabbitmq';
import { collectFrom, testEnv, texts } from '../../support/stream-harness';

const SHARED_AMQP = 'amqp://guest:guest@127.0.0.1:5672';

describe('Streams: amqp_0_9 connectors', function () {
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
    const input = new AmqpInput(
      {
        urls: [SHARED_AMQP],
        queue,
        queue_declare: { enabled: true, durable: false },
        bindings_declare: [{ exchange: 'amq.direct', key }],
      },
      env,
    );
    closing.push(() => input.stop());
    const run = collectFrom(input);
    const output = new AmqpOutput(
      { urls: [SHARED_AMQP], exchange: 'amq.direct', key: '${! meta("route") }', content_type: 'text/plain' },
      env,
    );
    closing.push(() => output.close());
    await eventually(
      async () => {
        await output.write(newMessage('rabbit', { route: key }));
        assert.ok(texts(run.received).includes('rabbit'));
      },
      10_000,
      200,
    );
    const got = run.received.find((r) => r.text === 'rabbit')!;
    assert.equal(got.metadata.amqp_routing_key, key);
    assert.equal(got.metadata.amqp_exchange, 'amq.direct');
    assert.equal(got.metadata.amqp_content_type, 'text/plain');
  });

  describe('with a private RabbitMQ that restarts', function () {
    // a RabbitMQ node takes seconds to boot and to stop, more on a busy machine
    this.timeout(120_000);
    let broker: PrivateRabbitMq;
    before(async function () {
      if (!rabbitmqInstalled()) {
        console.warn(
          '    skipped: rabbitmq-server is not installed (/usr/lib/rabbitmq/bin/rabbitmq-server), no private broker to restart',
        );
        this.skip();
      }
      broker = await privateRabbitMq();
    });
    after(async () => {
      await broker?.dispose();
    });

    /** publishes persistent messages on a confirm channel: once this returns, the broker has them on disk */
    async function publish(queue: string, values: string[]): Promise<void> {
      const connection = await connect(broker.url);
      try {
        const confirms = await connection.createConfirmChannel();
        for (const v of values) confirms.sendToQueue(queue, Buffer.from(v), { persistent: true });
        await confirms.waitForConfirms();
      } finally {
        await connection.close();
      }
    }

    it('the input resumes after the broker restarts: the delivered-but-unacknowledged message comes again, nothing acknowledged is lost', async () => {
      const queue = `gw-resume-${randomUUID()}`;
      const input = new AmqpInput(
        { urls: [broker.url], queue, queue_declare: { enabled: true, durable: true }, prefetch_count: 10 },
        env,
      );
      closing.push(() => input.stop());
      // the output accepts everything but the first a2, which it holds (a slow output) across the restart
      let heldOnce = false;
      const run = collectFrom(input, (t) => t === 'a2' && !heldOnce && (heldOnce = true));
      await eventually(() => broker.queue(queue), 20_000, 100);
      await publish(queue, ['a1', 'a2', 'a3']);
      await eventually(() => assert.deepEqual(texts(run.received), ['a1', 'a2', 'a3']), 10_000);
      // the broker has the acks for a1 and a3: only a2 is out, delivered and not acknowledged
      await eventually(
        async () => assert.deepEqual(await broker.queue(queue), { ready: 0, unacknowledged: 1 }),
        10_000,
        100,
      );

      await broker.restart();
      await publish(queue, ['a4']);

      await eventually(() => assert.deepEqual(texts(run.received.slice(3)).sort(), ['a2', 'a4']), 30_000, 100);
      assert.equal(run.received[3].text, 'a2', 'the requeued a2 comes before a4, published after the restart');
      assert.equal(run.received[3].metadata.amqp_redelivered, true);
      await eventually(
        async () => assert.deepEqual(await broker.queue(queue), { ready: 0, unacknowledged: 0 }),
        10_000,
        100,
      );
      // exactly what was published; only a2, never acknowledged before the restart, twice
      assert.deepEqual(texts(run.received), ['a1', 'a2', 'a3', 'a2', 'a4']);
    });
  });
});
