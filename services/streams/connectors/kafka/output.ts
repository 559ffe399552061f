import type { Producer } from 'kafkajs';
import type { ConnectorEnv, Output, StreamMessage } from '../contract';
import { InFlightLimit, Interpolated } from '../interpolated';
import { kafkaClient } from './client';
import { partitionerOf, type PartitionerName } from './partitioners';
import { tracedPublish } from '../traced-publish';

/** Bento's `kafka` output fields gw supports. */
export interface KafkaOutputConfig {
  addresses: string[];
  topic: string;
  key?: string;
  partition?: string;
  client_id?: string;
  partitioner?: PartitionerName;
  max_in_flight?: number;
  /** metadata keys sent as record headers (Bento's metadata.include_prefixes) */
  metadata?: { include_prefixes?: string[] };
}

/** Writes each message as a record; accepted once the broker acknowledged it (acks=all). */
export class KafkaOutput implements Output {
  private readonly topic: Interpolated;
  private readonly key?: Interpolated;
  private readonly partition?: Interpolated;
  private readonly limit: InFlightLimit;
  private producer?: Promise<Producer>;
  private readonly producers = new Set<Producer>();

  constructor(
    private readonly config: KafkaOutputConfig,
    private readonly env: ConnectorEnv,
  ) {
    this.topic = new Interpolated('topic', config.topic);
    this.key = config.key ? new Interpolated('key', config.key) : undefined;
    this.partition = config.partition ? new Interpolated('partition', config.partition) : undefined;
    this.limit = new InFlightLimit(Math.max(1, config.max_in_flight ?? 64));
  }

  async write(message: StreamMessage): Promise<void> {
    const topic = this.topic.valueFor(message);
    const key = this.key?.valueFor(message);
    const partition = this.partition ? Number(this.partition.valueFor(message)) : undefined;
    const headers = this.headersOf(message);
    await this.limit.run(() =>
      tracedPublish(message, 'kafka', topic, async (traceHeaders) => {
        const producer = await this.connected();
        const sent = traceHeaders ? { ...headers, ...traceHeaders } : headers;
        await producer.send({ topic, acks: -1, messages: [{ key, value: message.content, partition, headers: sent }] });
      }),
    );
  }

  async close(): Promise<void> {
    this.producer = undefined;
    await Promise.all([...this.producers].map((p) => p.disconnect().catch(() => undefined)));
    this.producers.clear();
  }

  private connected(): Promise<Producer> {
    if (!this.producer) {
      const producer = kafkaClient(this.config.addresses, this.config.client_id ?? 'gw', this.env).producer({
        createPartitioner: partitionerOf(this.config.partitioner),
        allowAutoTopicCreation: true,
      });
      this.producers.add(producer);
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => {
        this.producer = undefined;
        this.producers.delete(producer);
      });
    }
    return this.producer;
  }

  private headersOf(message: StreamMessage): Record<string, string> | undefined {
    const prefixes = this.config.metadata?.include_prefixes;
    if (!prefixes?.length) return undefined;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.metadata)) {
      if (prefixes.some((p) => name.startsWith(p)) && value !== undefined && value !== null)
        headers[name] = String(value);
    }
    return headers;
  }
}
