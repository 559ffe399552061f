import { randomUUID } from 'node:crypto';
import { connectAsync, type IPublishPacket, type MqttClient } from 'mqtt';
import { guardedLookup } from '../../../lib/net/outbound-address';
import { pinnedBrokerUrl } from './broker-address';
import { newMessage, type ConnectorEnv, type Input, type Output, type Sink, type StreamMessage } from './contract';
import { InFlightLimit, Interpolated } from './interpolated';
import { withTimeout } from './timeout';
import { tracedPublish } from './traced-publish';

type QoS = 0 | 1 | 2;

/** Bento's `mqtt` input fields gw supports. */
export interface MqttInputConfig {
  urls: string[];
  topics: string[];
  client_id?: string;
  qos?: QoS;
  clean_session?: boolean;
  user?: string;
  password?: string;
}

/** Bento's `mqtt` output fields gw supports. */
export interface MqttOutputConfig {
  urls: string[];
  topic: string;
  client_id?: string;
  qos?: QoS;
  retained?: boolean;
  user?: string;
  password?: string;
  max_in_flight?: number;
}

const serverOf = (url: URL) => ({
  host: url.hostname.replace(/^\[|\]$/g, ''),
  port: Number(url.port || 1883),
});

async function mqttClient(
  config: { urls: string[]; client_id?: string; clean_session?: boolean; user?: string; password?: string },
  env: ConnectorEnv,
): Promise<MqttClient> {
  const urls = config.urls
    .flatMap((u) => u.split(','))
    .map((u) => u.trim())
    .filter(Boolean);
  // plain servers are dialled at their checked address; TLS ones resolve through the guarded lookup
  const pin = (url: string) =>
    pinnedBrokerUrl(url.replace(/^tcp:/, 'mqtt:'), url.startsWith('mqtts:') ? 8883 : 1883, ['mqtt:'], env);
  const pinned = await Promise.all(urls.map(pin));
  const [first, ...others] = pinned.map((u) => new URL(u));
  // mqtt.js hands its options to tls.connect, which takes a lookup; its types do not list it
  const guarded: object = { lookup: guardedLookup() };
  return connectAsync(first.toString(), {
    ...guarded,
    clientId: config.client_id || `gw-${randomUUID()}`,
    clean: config.clean_session ?? true,
    username: config.user,
    password: config.password,
    reconnectPeriod: 250,
    connectTimeout: 10_000,
    servers: others.length ? [first, ...others].map(serverOf) : undefined,
  });
}

/**
 * Subscribes to `topics`. A QoS 1/2 message is acknowledged to the broker (PUBACK) only once
 * the stream's output accepted it; with `clean_session: false` and a fixed `client_id` the
 * broker keeps the session, so unacknowledged and missed messages come after a reconnection.
 */
export class MqttInput implements Input {
  private client?: Promise<MqttClient>;
  private stopped = false;

  constructor(
    private readonly config: MqttInputConfig,
    private readonly env: ConnectorEnv,
  ) {}

  start(sink: Sink): void {
    this.client = mqttClient(this.config, this.env);
    this.client.then(
      async (client) => {
        client.handleMessage = (packet, done) => this.handle(packet, sink, done);
        client.on('error', (err) => this.env.log('warn', `mqtt input: ${err.message}`));
        await client.subscribeAsync(this.config.topics, { qos: this.config.qos ?? 1 });
      },
      (err: Error) => this.env.log('warn', `mqtt input: ${err.message}`),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = await this.client?.catch(() => undefined);
    await client?.endAsync(true).catch(() => undefined);
  }

  /** the client acknowledges the packet when `done` is called, and reads the next one after */
  private handle(packet: IPublishPacket, sink: Sink, done: (err?: Error) => void): void {
    const metadata = {
      mqtt_topic: packet.topic,
      mqtt_qos: packet.qos,
      mqtt_retained: packet.retain,
      mqtt_duplicate: packet.dup,
      mqtt_message_id: packet.messageId ?? 0,
    };
    const content = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : Buffer.from(packet.payload);
    sink([newMessage(content, metadata)]).then(
      () => done(),
      // stopping: leave it unacknowledged, the broker sends it again to the next session
      () => this.stopped || done(),
    );
  }
}

/** Publishes each message; accepted once the broker acknowledged it (QoS 1 and 2) or it was sent (QoS 0). */
export class MqttOutput implements Output {
  private client?: Promise<MqttClient>;
  private readonly topic: Interpolated;
  private readonly limit: InFlightLimit;

  constructor(
    private readonly config: MqttOutputConfig,
    private readonly env: ConnectorEnv,
  ) {
    this.topic = new Interpolated('topic', config.topic);
    this.limit = new InFlightLimit(Math.max(1, config.max_in_flight ?? 64));
  }

  /**
   * A message from a traced request is a producer span of that request's trace. MQTT 3.1.1 has no
   * message headers, so its trace context stays with gw: a subscriber starts a trace of its own.
   */
  async write(message: StreamMessage): Promise<void> {
    const topic = this.topic.valueFor(message);
    await tracedPublish(message, 'mqtt', topic, () =>
      this.limit.run(async () => {
        const client = await this.connection();
        if (!client.connected) throw new Error('mqtt output: not connected');
        await withTimeout(
          client.publishAsync(topic, message.content, {
            qos: this.config.qos ?? 1,
            retain: this.config.retained ?? false,
          }),
          10_000,
          'mqtt output: no acknowledgement',
        );
      }),
    );
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await client?.endAsync().catch(() => undefined);
  }

  private connection(): Promise<MqttClient> {
    if (!this.client) {
      this.client = mqttClient({ ...this.config, clean_session: true }, this.env);
      this.client.then(
        (client) => client.on('error', (err) => this.env.log('warn', `mqtt output: ${err.message}`)),
        () => (this.client = undefined),
      );
    }
    return this.client;
  }
}
