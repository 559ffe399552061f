import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { newMessage } from '../../../services/streams/connectors/contract';
import { MqttInput, MqttOutput } from '../../../services/streams/connectors/mqtt';
import { eventually } from '../../support/eventually';
import { privateMosquitto, type PrivateBroker } from '../../support/private-brokers';
import { collectFrom, testEnv, texts } from '../../support/stream-harness';

const SHARED_MQTT = 'mqtt://127.0.0.1:1883';

describe('Streams: mqtt connectors', function () {
  this.timeout(60_000);
  const env = testEnv();
  const closing: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
  });

  it('round trip: output publishes to an interpolated topic, input receives with MQTT metadata', async () => {
    const base = `gw/test/${randomUUID()}`;
    const input = new MqttInput({ urls: [SHARED_MQTT], topics: [`${base}/#`] }, env);
    closing.push(() => input.stop());
    const run = collectFrom(input);
    const output = new MqttOutput({ urls: [SHARED_MQTT], topic: `${base}/\${! meta("room") }` }, env);
    closing.push(() => output.close());
    await eventually(
      async () => {
        await output.write(newMessage('hi', { room: 'lobby' }));
        assert.ok(texts(run.received).includes('hi'));
      },
      10_000,
      200,
    );
    const got = run.received.find((r) => r.text === 'hi')!;
    assert.equal(got.metadata.mqtt_topic, `${base}/lobby`);
    assert.equal(got.metadata.mqtt_qos, 1);
  });

  describe('with a private mosquitto that restarts', () => {
    let broker: PrivateBroker;
    before(async () => {
      broker = await privateMosquitto();
    });
    after(async () => {
      await broker.dispose();
    });

    it('a persistent session resumes after the broker restarts: the unacknowledged message and those sent meanwhile arrive', async () => {
      const topic = `gw/resume/${randomUUID()}`;
      let heldOnce = false;
      const input = new MqttInput(
        { urls: [broker.url], topics: [topic], client_id: `gw-${randomUUID()}`, clean_session: false, qos: 1 },
        env,
      );
      closing.push(() => input.stop());
      const run = collectFrom(input, (t) => t === 'q2' && !heldOnce && (heldOnce = true));
      const output = new MqttOutput({ urls: [broker.url], topic }, env);
      closing.push(() => output.close());
      await eventually(
        async () => {
          await output.write(newMessage('q1'));
          assert.ok(texts(run.received).includes('q1'));
        },
        10_000,
        200,
      );
      await output.write(newMessage('q2'));
      await eventually(() => assert.ok(texts(run.received).includes('q2')), 5000);
      await broker.stop();
      await broker.start();
      await eventually(() => output.write(newMessage('q3')), 15_000, 200);
      await eventually(
        () =>
          assert.deepEqual(
            [...new Set(texts(run.received))].filter((t) => t !== 'q1'),
            ['q2', 'q3'],
          ),
        20_000,
        100,
      );
      await eventually(
        () =>
          assert.equal(
            texts(run.received).filter((t) => t === 'q2').length,
            2,
            'q2 came again, as it was never acknowledged',
          ),
        10_000,
        100,
      );
    });
  });
});
