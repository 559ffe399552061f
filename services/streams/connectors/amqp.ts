import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import { tenantLookup } from '../../../lib/net/tenant-agent';
import { checkBrokerUrls } from './broker-address';
import { newMessage, type ConnectorEnv, type Input, type Output, type Sink, type StreamMessage } from './contract';
import { InFlightLimit, Interpolated } from './interpolated';
import { withTimeout } from './timeout';
import { tracedPublish } from './traced-publish';

/** Bento's `amqp_0_9` input fields gw supports. */
export interface AmqpInputConfig {
  urls: string[];
  queue: string;
  queue_declare?: { enabled?: boolean; durable?: boolean; auto_delete?: boolean };
  bindings_declare?: Array<{ exchange: string; key?: string }>;
  consumer_tag?: string;
  auto_ack?: boolean;
  prefetch_count?: number;
}

/** Bento's `amqp_0_9` output fields gw supports. */
export interface AmqpOutputConfig {
  urls: string[];
  exchange: string;
  key?: string;
  type?: string;
  content_type?: string;
  persistent?: boolean;
  mandatory?: boolean;
  exchange_declare?: { enabled?: boolean; type?: string; durable?: boolean };
  max_in_flight?: number;
}

function urlsOf(urls: readonly string[]): string[] {
  return urls
    .flatMap((u) => u.split(','))
    .map((u) => u.trim())
    .filter(Boolean);
}

/** the first of the urls that accepts a connection, each checked against the outbound policy */
async function amqpConnection(urls: readonly string[], env: ConnectorEnv): Promise<ChannelModel> {
  const list = urlsOf(urls);
  await checkBrokerUrls(list, 5672, env);
  let last: unknown = new Error('amqp: no urls');
  for (const url of list) {
    try {
      // the socket resolves the name through the guarded lookup: the address judged is the one connected to
      const port = Number(new URL(url).port || (url.startsWith('amqps:') ? 5671 : 5672));
      return await connect(url, { lookup: tenantLookup(port, () => env.ownPorts()) });
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

function amqpMetadata(msg: ConsumeMessage): Record<string, unknown> {
  const p = msg.properties;
  const metadata: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(p.headers ?? {}))
    metadata[name] = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
  const props: Record<string, unknown> = {
    amqp_content_type: p.contentType,
    amqp_content_encoding: p.contentEncoding,
    amqp_delivery_mode: p.deliveryMode,
    amqp_priority: p.priority,
    amqp_correlation_id: p.correlationId,
    amqp_reply_to: p.replyTo,
    amqp_expiration: p.expiration,
    amqp_message_id: p.messageId,
    amqp_timestamp: p.timestamp,
    amqp_type: p.type,
    amqp_user_id: p.userId,
    amqp_app_id: p.appId,
    amqp_consumer_tag: msg.fields.consumerTag,
    amqp_delivery_tag: msg.fields.deliveryTag,
    amqp_redelivered: msg.fields.redelivered,
    amqp_exchange: msg.fields.exchange,
    amqp_routing_key: msg.fields.routingKey,
  };
  for (const [name, value] of Object.entries(props)) if (value !== undefined) metadata[name] = value;
  return metadata;
}

/**
 * Consumes a queue with manual acks: a message is acked once the stream's output accepted it,
 * and requeued (nack) if the stream stopped first. When the connection drops, RabbitMQ requeues
 * what was not acked, and the input connects again (growing waits) until it is stopped.
 */
export class AmqpInput implements Input {
  private readonly stopping = new AbortController();
  private connection?: ChannelModel;

  constructor(
    private readonly config: AmqpInputConfig,
    private readonly env: ConnectorEnv,
  ) {}

  start(sink: Sink): void {
    void this.keepConsuming(sink);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.connection?.close().catch(() => undefined);
  }

  private async keepConsuming(sink: Sink): Promise<void> {
    for (let wait = 100; !this.stopping.signal.aborted; wait = Math.min(wait * 2, 5000)) {
      try {
        const closed = await this.consume(sink);
        wait = 100;
        await closed.done;
      } catch (err) {
        this.env.log('warn', `amqp_0_9 input: ${(err as Error).message}`);
      }
      await sleep(wait, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  /** starts consuming; `done` resolves when the connection closes */
  private async consume(sink: Sink): Promise<{ done: Promise<void> }> {
    const connection = await amqpConnection(this.config.urls, this.env);
    this.connection = connection;
    const closed = new Promise<void>((resolve) => connection.once('close', () => resolve()));
    connection.on('error', (err: Error) => this.env.log('warn', `amqp_0_9 input: ${err.message}`));
    if (this.stopping.signal.aborted) await connection.close().catch(() => undefined);
    const channel = await connection.createChannel();
    await this.declare(channel);
    await channel.prefetch(this.config.prefetch_count ?? 10);
    const autoAck = this.config.auto_ack ?? false;
    await channel.consume(this.config.queue, (msg) => msg && this.deliver(channel, msg, sink, autoAck), {
      noAck: autoAck,
      consumerTag: this.config.consumer_tag || undefined,
    });
    return { done: closed };
  }

  private deliver(channel: Channel, msg: ConsumeMessage, sink: Sink, autoAck: boolean): void {
    const settle = (accepted: boolean) => {
      if (autoAck) return;
      try {
        if (accepted) channel.ack(msg);
        else channel.nack(msg, false, true);
      } catch {
        // the channel closed meanwhile: RabbitMQ requeued the message already
      }
    };
    sink([newMessage(msg.content, amqpMetadata(msg))]).then(
      () => settle(true),
      () => settle(false),
    );
  }

  private async declare(channel: Channel): Promise<void> {
    const declare = this.config.queue_declare;
    if (declare?.enabled)
      await channel.assertQueue(this.config.queue, {
        durable: declare.durable ?? true,
        autoDelete: declare.auto_delete ?? false,
      });
    for (const binding of this.config.bindings_declare ?? [])
      await channel.bindQueue(this.config.queue, binding.exchange, binding.key ?? '');
  }
}

/** Publishes on a confirm channel: a message is accepted once RabbitMQ confirmed it. */
export class AmqpOutput implements Output {
  private channel?: Promise<{ connection: ChannelModel; channel: ConfirmChannel }>;
  private readonly exchange: Interpolated;
  private readonly key: Interpolated;
  private readonly limit: InFlightLimit;

  constructor(
    private readonly config: AmqpOutputConfig,
    private readonly env: ConnectorEnv,
  ) {
    this.exchange = new Interpolated('exchange', config.exchange);
    this.key = new Interpolated('key', config.key ?? '');
    this.limit = new InFlightLimit(Math.max(1, config.max_in_flight ?? 64));
  }

  async write(message: StreamMessage): Promise<void> {
    const exchange = this.exchange.valueFor(message);
    const key = this.key.valueFor(message);
    await this.limit.run(() =>
      tracedPublish(message, 'rabbitmq', exchange, async (traceHeaders) => {
        const { channel } = await this.open();
        const confirmed = new Promise<void>((resolve, reject) =>
          channel.publish(
            exchange,
            key,
            message.content,
            {
              contentType: this.config.content_type ?? 'application/octet-stream',
              type: this.config.type,
              persistent: this.config.persistent ?? false,
              mandatory: this.config.mandatory ?? false,
              ...(traceHeaders ? { headers: traceHeaders } : {}),
            },
            (err) => (err ? reject(err) : resolve()),
          ),
        );
        await withTimeout(confirmed, 10_000, 'amqp_0_9 output: no confirmation');
      }),
    );
  }

  async close(): Promise<void> {
    const open = await this.channel?.catch(() => undefined);
    this.channel = undefined;
    await open?.connection.close().catch(() => undefined);
  }

  private open(): Promise<{ connection: ChannelModel; channel: ConfirmChannel }> {
    if (!this.channel) {
      const opening = (async () => {
        const connection = await amqpConnection(this.config.urls, this.env);
        connection.on('error', (err: Error) => this.env.log('warn', `amqp_0_9 output: ${err.message}`));
        connection.once('close', () => this.channel === opening && (this.channel = undefined));
        const channel = await connection.createConfirmChannel();
        const declare = this.config.exchange_declare;
        if (declare?.enabled)
          await channel.assertExchange(this.config.exchange, declare.type ?? 'direct', {
            durable: declare.durable ?? true,
          });
        return { connection, channel };
      })();
      this.channel = opening;
      opening.catch(() => this.channel === opening && (this.channel = undefined));
    }
    return this.channel;
  }
}
