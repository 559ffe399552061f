import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { newMessage, type ConnectorEnv, type Input, type Sink, type StreamMessage } from '../contract';
import { PartitionCheckpoints } from './checkpoints';
import { kafkaClient } from './client';

/** Bento's `kafka` input fields gw supports. */
export interface KafkaInputConfig {
  addresses: string[];
  topics: string[];
  consumer_group?: string;
  client_id?: string;
  start_from_oldest?: boolean;
  checkpoint_limit?: number;
}

/**
 * Consumes topics in a consumer group. Offsets are committed only once the stream's output
 * accepted the message (and every earlier one of its partition), so after a restart of the
 * stream, the gateway or the broker, consumption resumes with nothing accepted-but-unsent lost.
 */
export class KafkaInput implements Input {
  private consumer?: Consumer;
  private readonly stopping = new AbortController();
  private readonly stopped = new Promise<void>((resolve) =>
    this.stopping.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  private commits: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: KafkaInputConfig,
    private readonly env: ConnectorEnv,
  ) {}

  start(sink: Sink): void {
    void this.runUntilStopped(sink);
  }

  /** connects again (with growing waits) until it runs or the input stops: a broker may be down for a while */
  private async runUntilStopped(sink: Sink): Promise<void> {
    for (let wait = 200; !this.stopping.signal.aborted; wait = Math.min(wait * 2, 5000)) {
      try {
        return await this.run(sink);
      } catch (err) {
        if (this.stopping.signal.aborted) return;
        this.env.log('warn', `kafka input: ${(err as Error).message}; connecting again in ${wait} ms`);
        await this.consumer?.disconnect().catch(() => undefined);
        await sleep(wait, undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.consumer?.disconnect().catch(() => undefined);
  }

  private async run(sink: Sink): Promise<void> {
    const clientId = this.config.client_id ?? 'gw';
    const groupId = this.config.consumer_group || `gw-${randomUUID()}`;
    const consumer = kafkaClient(this.config.addresses, clientId, this.env).consumer({
      groupId,
      maxWaitTimeInMs: 500,
      heartbeatInterval: 1000,
    });
    this.consumer = consumer;
    if (this.stopping.signal.aborted) return;
    await consumer.connect();
    await consumer.subscribe({ topics: this.config.topics, fromBeginning: this.config.start_from_oldest ?? true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.consume(payload, sink),
    });
  }

  private async consume(
    { batch, heartbeat, isRunning, isStale, resolveOffset }: EachBatchPayload,
    sink: Sink,
  ): Promise<void> {
    const checkpoints = new PartitionCheckpoints(Math.max(1, this.config.checkpoint_limit ?? 1024));
    const signal = this.stopping.signal;
    const deliveries: Promise<void>[] = [];
    let lostGroup: Error | undefined;
    for (const record of batch.messages) {
      await checkpoints.slot(signal);
      if (signal.aborted || !isRunning() || isStale()) break;
      const offset = BigInt(record.offset);
      checkpoints.track(offset);
      const delivered = sink([toStreamMessage(batch.topic, batch.partition, record)]).then(
        () => {
          const next = checkpoints.accept(offset);
          if (next === undefined) return;
          resolveOffset((next - 1n).toString());
          this.commit(batch.topic, batch.partition, next);
        },
        () => checkpoints.fail(offset),
      );
      deliveries.push(delivered);
      // a failed heartbeat (rebalance, a restarted coordinator) ends the batch: kafkajs rejoins
      // and fetches again from the committed offsets
      lostGroup = await heartbeat().then(
        () => undefined,
        (err: Error) => err,
      );
      if (lostGroup) break;
    }
    await Promise.race([Promise.all(deliveries), this.stopped]);
    await this.commits;
    if (lostGroup) throw lostGroup;
  }

  /** commits in order, one at a time; a failed commit is repeated by the next one (offsets only grow) */
  private commit(topic: string, partition: number, offset: bigint): void {
    const consumer = this.consumer!;
    this.commits = this.commits.then(() =>
      consumer
        .commitOffsets([{ topic, partition, offset: offset.toString() }])
        .catch((err: Error) => this.env.log('warn', `kafka input: commit failed: ${err.message}`)),
    );
  }
}

function toStreamMessage(topic: string, partition: number, record: KafkaMessage): StreamMessage {
  const metadata: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    if (value !== undefined) metadata[name] = Array.isArray(value) ? value.map(String).join(',') : String(value);
  }
  Object.assign(metadata, {
    kafka_key: record.key?.toString() ?? '',
    kafka_topic: topic,
    kafka_partition: partition,
    kafka_offset: Number(record.offset),
    kafka_timestamp_unix: Math.floor(Number(record.timestamp) / 1000),
    kafka_tombstone_message: record.value === null,
  });
  return newMessage(record.value ?? Buffer.alloc(0), metadata);
}
