import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { newMessage } from '../../../services/streams/connectors/contract';
import { NatsInput, NatsOutput } from '../../../services/streams/connectors/nats/core';
import { JetStreamInput, JetStreamOutput } from '../../../services/streams/connectors/nats/jetstream';
import { eventually } from '../../support/eventually';
import { privateNatsServer, type PrivateBroker } from '../../support/private-brokers';
import { collectFrom, testEnv, texts } from '../../support/stream-harness';

const SHARED_NATS = process.env.GW_TEST_NATS ?? 'nats://127.0.0.1:4222';

describe('Streams: nats and nats_jetstream connectors', function () {
  this.timeout(60_000);
  const env = testEnv();
  const closing: Array<() => Promise<unknown>> = [];
  let nc: NatsConnection;

  before(async () => {
    nc = await connect({ servers: SHARED_NATS });
  });
  after(async () => {
    await nc.close();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
  });
  const track = <T extends { stop?: () => Promise<void>; close?: () => Promise<void> }>(c: T): T => {
    closing.push(() => (c.stop ?? c.close)!.call(c));
    return c;
  };
  /** waits until the server has the input's subscription(s) by publishing probes */
  async function subscribed(subject: string, received: () => number): Promise<void> {
    await eventually(
      async () => {
        nc.publish(subject, 'probe');
        await nc.flush();
        assert.ok(received() > 0);
      },
      10_000,
      100,
    );
  }

  it('nats: output publishes to an interpolated subject with headers, input receives body and metadata', async () => {
    const base = `gw.test.${randomUUID()}`;
    const input = track(new NatsInput({ urls: [SHARED_NATS], subject: `${base}.*` }, env));
    const run = collectFrom(input);
    await subscribed(`${base}.probe`, () => run.received.length);
    const output = track(
      new NatsOutput(
        { urls: [SHARED_NATS], subject: `${base}.\${! meta("kind") }`, headers: { 'X-Kind': '${! meta("kind") }' } },
        env,
      ),
    );
    await output.write(newMessage('hello', { kind: 'greeting' }));
    await eventually(() => assert.ok(texts(run.received).includes('hello')), 5000);
    const got = run.received.find((r) => r.text === 'hello')!;
    assert.equal(got.metadata.nats_subject, `${base}.greeting`);
    assert.equal(got.metadata['X-Kind'], 'greeting');
  });

  it('nats: two inputs in one queue group each get a share, every message once', async () => {
    const subject = `gw.test.${randomUUID()}`;
    const a = collectFrom(track(new NatsInput({ urls: [SHARED_NATS], subject, queue: 'workers' }, env)));
    const b = collectFrom(track(new NatsInput({ urls: [SHARED_NATS], subject, queue: 'workers' }, env)));
    await subscribed(subject, () => a.received.length);
    await subscribed(subject, () => b.received.length);
    for (let i = 0; i < 40; i++) nc.publish(subject, `m${i}`);
    await nc.flush();
    const all = () => [...texts(a.received), ...texts(b.received)].filter((t) => t.startsWith('m'));
    await eventually(() => assert.equal(all().length, 40), 5000);
    assert.equal(new Set(all()).size, 40);
    assert.ok(texts(a.received).some((t) => t.startsWith('m')) && texts(b.received).some((t) => t.startsWith('m')));
  });

  it('nats_jetstream: durable consumer acks only accepted messages; an unaccepted one comes again', async () => {
    const stream = `GW_${randomUUID().replace(/-/g, '')}`;
    const subject = `gw.js.${stream}`;
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [subject] });
    closing.push(() => jsm.streams.delete(stream));
    const output = track(new JetStreamOutput({ urls: [SHARED_NATS], subject }, env));
    for (const v of ['j1', 'j2', 'j3']) await output.write(newMessage(v));
    const first = new JetStreamInput({ urls: [SHARED_NATS], subject, durable: 'gw', ack_wait: '1s' }, env);
    const run1 = collectFrom(first, (t) => t === 'j2');
    await eventually(() => assert.deepEqual(texts(run1.received).slice(0, 3), ['j1', 'j2', 'j3']), 5000);
    await first.stop();
    const run2 = collectFrom(
      track(new JetStreamInput({ urls: [SHARED_NATS], subject, durable: 'gw', ack_wait: '1s' }, env)),
    );
    await eventually(() => assert.deepEqual(texts(run2.received), ['j2']), 10_000);
    assert.equal(run2.received[0].metadata.nats_sequence_stream, 2);
  });

  describe('with a private nats-server that restarts', () => {
    let server: PrivateBroker;
    before(async () => {
      server = await privateNatsServer();
    });
    after(async () => {
      await server.dispose();
    });

    it('nats_jetstream input resumes after the server restarts, redelivering what was not accepted', async () => {
      const own = await connect({ servers: server.url });
      const jsm = await own.jetstreamManager();
      await jsm.streams.add({ name: 'ORDERS', subjects: ['orders.>'] });
      const js = own.jetstream();
      for (const v of ['o1', 'o2', 'o3']) await js.publish('orders.new', Buffer.from(v));
      await own.close();
      const run = collectFrom(
        track(
          new JetStreamInput({ urls: [server.url], subject: 'orders.>', durable: 'gw-orders', ack_wait: '2s' }, env),
        ),
        (t) => t === 'o3',
      );
      await eventually(() => assert.deepEqual(texts(run.received), ['o1', 'o2', 'o3']), 5000);
      await server.stop();
      await server.start();
      const output = track(new JetStreamOutput({ urls: [server.url], subject: 'orders.new' }, env));
      await eventually(() => output.write(newMessage('o4')), 15_000, 200);
      await eventually(
        () => assert.deepEqual([...new Set(texts(run.received))].sort(), ['o1', 'o2', 'o3', 'o4']),
        20_000,
        100,
      );
      await eventually(
        () => assert.ok(texts(run.received).filter((t) => t === 'o3').length >= 2, 'o3 was redelivered'),
        10_000,
        100,
      );
      assert.equal(texts(run.received).filter((t) => t === 'o1').length, 1, 'o1 was acknowledged before the restart');
    });

    it('nats input subscribes again after the server restarts', async () => {
      const subject = `gw.core.${randomUUID()}`;
      const run = collectFrom(track(new NatsInput({ urls: [server.url], subject }, env)));
      const output = track(new NatsOutput({ urls: [server.url], subject }, env));
      await eventually(
        async () => {
          await output.write(newMessage('before'));
          assert.ok(texts(run.received).includes('before'));
        },
        5000,
        100,
      );
      await server.stop();
      await server.start();
      await eventually(
        async () => {
          await output.write(newMessage('after'));
          assert.ok(texts(run.received).includes('after'));
        },
        20_000,
        200,
      );
    });
  });
});
