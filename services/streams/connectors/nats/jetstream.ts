import { consumerOpts, createInbox, headers as natsHeaders, type JsMsg, type NatsConnection } from 'nats';
import { newMessage, type ConnectorEnv, type Input, type Output, type Sink, type StreamMessage } from '../contract';
import { parseDuration } from '../../../../lib/streams/duration';
import { Interpolated } from '../interpolated';
import { natsConnection } from './connection';
import { natsMetadata, withTraceHeaders } from './core';
import { tracedPublish } from '../traced-publish';
import { withTimeout } from '../timeout';

/** Bento's `nats_jetstream` input fields gw supports. */
export interface JetStreamInputConfig {
  urls: string[];
  subject?: string;
  stream?: string;
  durable?: string;
  queue?: string;
  deliver?: 'all' | 'last' | 'last_per_subject' | 'new';
  /** Bento's duration strings ("30s", "500ms") */
  ack_wait?: string;
  max_ack_pending?: number;
}

export interface JetStreamOutputConfig {
  urls: string[];
  subject: string;
  headers?: Record<string, string>;
}

/**
 * A JetStream push consumer with explicit acks: a message is acked once the stream's output
 * accepted it and nak'ed if the stream stopped first, so the server redelivers it. With a
 * `durable` name the consumer's position survives restarts of the stream and of the server.
 */
export class JetStreamInput implements Input {
  private nc?: Promise<NatsConnection>;

  constructor(
    private readonly config: JetStreamInputConfig,
    private readonly env: ConnectorEnv,
  ) {}

  start(sink: Sink): void {
    this.nc = natsConnection(this.config.urls, 'gw-stream-jetstream-input', this.env);
    this.nc.then(
      (nc) =>
        this.consume(nc, sink).catch((err: Error) => this.env.log('warn', `nats_jetstream input: ${err.message}`)),
      (err: Error) => this.env.log('warn', `nats_jetstream input: ${err.message}`),
    );
  }

  async stop(): Promise<void> {
    const nc = await this.nc?.catch(() => undefined);
    await nc?.drain().catch(() => nc.close());
  }

  private async consume(nc: NatsConnection, sink: Sink): Promise<void> {
    const opts = consumerOpts()
      .manualAck()
      .ackExplicit()
      .deliverTo(createInbox())
      .ackWait(parseDuration(this.config.ack_wait) ?? 30_000)
      .maxAckPending(this.config.max_ack_pending ?? 1024);
    if (this.config.durable) opts.durable(this.config.durable);
    if (this.config.queue) opts.queue(this.config.queue);
    if (this.config.stream) opts.bindStream(this.config.stream);
    ({
      all: () => opts.deliverAll(),
      last: () => opts.deliverLast(),
      last_per_subject: () => opts.deliverLastPerSubject(),
      new: () => opts.deliverNew(),
    })[this.config.deliver ?? 'all']();
    const sub = await nc.jetstream().subscribe(this.config.subject ?? '>', opts);
    for await (const msg of sub) {
      sink([newMessage(Buffer.from(msg.data), jetStreamMetadata(msg))]).then(
        () => msg.ack(),
        () => msg.nak(),
      );
    }
  }
}

function jetStreamMetadata(msg: JsMsg): Record<string, unknown> {
  return {
    ...natsMetadata(msg),
    nats_sequence_stream: msg.info.streamSequence,
    nats_sequence_consumer: msg.info.deliverySequence,
    nats_num_delivered: msg.info.redeliveryCount,
    nats_num_pending: msg.info.pending,
    nats_timestamp_unix_nano: String(msg.info.timestampNanos),
  };
}

/** Publishes to a stream's subject; accepted once JetStream acknowledged (stored) it. */
export class JetStreamOutput implements Output {
  private nc?: Promise<NatsConnection>;
  private readonly subject: Interpolated;
  private readonly headers: Array<[string, Interpolated]>;

  constructor(
    private readonly config: JetStreamOutputConfig,
    private readonly env: ConnectorEnv,
  ) {
    this.subject = new Interpolated('subject', config.subject);
    this.headers = Object.entries(config.headers ?? {}).map(([name, value]) => [
      name,
      new Interpolated(`headers.${name}`, value),
    ]);
  }

  async write(message: StreamMessage): Promise<void> {
    const subject = this.subject.valueFor(message);
    await tracedPublish(message, 'nats', subject, async (traceHeaders) => {
      const nc = await this.connection();
      const h = this.headers.length ? natsHeaders() : undefined;
      for (const [name, value] of this.headers) h!.set(name, value.valueFor(message));
      await withTimeout(
        nc.jetstream().publish(subject, message.content, { headers: withTraceHeaders(h, traceHeaders) }),
        10_000,
        'nats_jetstream output: no acknowledgement',
      );
    });
  }

  async close(): Promise<void> {
    const nc = await this.nc?.catch(() => undefined);
    await nc?.drain().catch(() => nc.close());
  }

  private connection(): Promise<NatsConnection> {
    if (!this.nc) {
      this.nc = natsConnection(this.config.urls, 'gw-stream-jetstream-output', this.env);
      this.nc.catch(() => (this.nc = undefined));
    }
    return this.nc;
  }
}
