import { headers as natsHeaders, type MsgHdrs, type NatsConnection, type Msg } from 'nats';
import { newMessage, type ConnectorEnv, type Input, type Output, type Sink, type StreamMessage } from '../contract';
import { Interpolated } from '../interpolated';
import { withTimeout } from '../timeout';
import { natsConnection } from './connection';
import { tracedPublish } from '../traced-publish';

/** Bento's `nats` input: core NATS subjects, optionally in a queue group (each message to one member). */
export interface NatsInputConfig {
  urls: string[];
  subject: string;
  queue?: string;
}

/** Bento's `nats` output. */
export interface NatsOutputConfig {
  urls: string[];
  subject: string;
  headers?: Record<string, string>;
}

export function natsMetadata(msg: Pick<Msg, 'subject' | 'headers'>): Record<string, unknown> {
  const metadata: Record<string, unknown> = { nats_subject: msg.subject };
  for (const [name, values] of msg.headers ?? []) metadata[name] = values.join(',');
  return metadata;
}

/**
 * Core NATS delivers at most once: a message that arrives while the stream is down is not kept
 * by the server (use nats_jetstream for at-least-once). After a server restart the
 * subscription is renewed on reconnection.
 */
export class NatsInput implements Input {
  private nc?: Promise<NatsConnection>;

  constructor(
    private readonly config: NatsInputConfig,
    private readonly env: ConnectorEnv,
  ) {}

  start(sink: Sink): void {
    this.nc = natsConnection(this.config.urls, 'gw-stream-input', this.env);
    this.nc.then(
      (nc) => {
        const sub = nc.subscribe(this.config.subject, { queue: this.config.queue });
        void (async () => {
          for await (const msg of sub)
            await sink([newMessage(Buffer.from(msg.data), natsMetadata(msg))]).catch(() => undefined);
        })();
      },
      (err: Error) => this.env.log('warn', `nats input: ${err.message}`),
    );
  }

  async stop(): Promise<void> {
    const nc = await this.nc?.catch(() => undefined);
    await nc?.drain().catch(() => nc.close());
  }
}

export class NatsOutput implements Output {
  private nc?: Promise<NatsConnection>;
  private readonly subject: Interpolated;
  private readonly headers: Array<[string, Interpolated]>;

  constructor(
    private readonly config: NatsOutputConfig,
    private readonly env: ConnectorEnv,
  ) {
    this.subject = new Interpolated('subject', config.subject);
    this.headers = Object.entries(config.headers ?? {}).map(([name, value]) => [
      name,
      new Interpolated(`headers.${name}`, value),
    ]);
  }

  /** accepted once the server answered the PING after it: it has taken the message */
  async write(message: StreamMessage): Promise<void> {
    const subject = this.subject.valueFor(message);
    await tracedPublish(message, 'nats', subject, async (traceHeaders) => {
      const nc = await this.connection();
      nc.publish(subject, message.content, { headers: withTraceHeaders(this.headersOf(message), traceHeaders) });
      // while disconnected the client buffers and flush waits; the stream retries after the timeout
      await withTimeout(nc.flush(), 5000, 'nats output: the server did not confirm the message');
    });
  }

  async close(): Promise<void> {
    const nc = await this.nc?.catch(() => undefined);
    await nc?.drain().catch(() => nc.close());
  }

  private connection(): Promise<NatsConnection> {
    if (!this.nc) {
      this.nc = natsConnection(this.config.urls, 'gw-stream-output', this.env);
      this.nc.catch(() => (this.nc = undefined));
    }
    return this.nc;
  }

  private headersOf(message: StreamMessage) {
    if (!this.headers.length) return undefined;
    const h = natsHeaders();
    for (const [name, value] of this.headers) h.set(name, value.valueFor(message));
    return h;
  }
}

/** A message's headers with the trace context of the request it came in with added (when traced). */
export function withTraceHeaders(
  headers: MsgHdrs | undefined,
  trace: Record<string, string> | undefined,
): MsgHdrs | undefined {
  if (!trace) return headers;
  const out = headers ?? natsHeaders();
  for (const [name, value] of Object.entries(trace)) out.set(name, value);
  return out;
}
