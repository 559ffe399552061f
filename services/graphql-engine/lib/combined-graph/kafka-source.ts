import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import type { KafkaSourceConfig } from '../../../../lib/graphql/combined-graph-config';
import { valueAt } from './field-mapping';
import { kafkaClient } from './kafka-client';
import { sinkIterator } from './sink-iterator';
import { compileTemplate, encoders, type TemplateScope } from './templates';
import type { OperationSink } from '../upstream-operations';

/** Kafka's own rule for topic names. */
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

/** A message of a Kafka data source: its value parsed as JSON, or why it could not be. */
type KafkaEvent = { value: unknown } | { error: string };

/**
 * A subscription field of a Kafka data source. Like the reference gateway, every client
 * subscription gets a consumer of its own in the data source's `group_id` (a group of its own
 * when none is set); the consumer is connected before the subscription is answered, so a broker
 * that can not be reached is a GraphQL error on the subscription, and it is disconnected (leaving
 * its group) when the client completes the operation or goes away.
 */
export function kafkaSubscription(name: string, config: KafkaSourceConfig, path: string[]) {
  const topics = config.topics.map((topic) => compileTemplate(topic));
  const subscribe = async (values: TemplateScope): Promise<AsyncIterableIterator<unknown>> => {
    const names = topics.map((topic) => topic.render(values, encoders.plain));
    const bad = names.find((topic) => !TOPIC_NAME.test(topic));
    if (bad !== undefined) throw new Error(`data source '${name}': '${bad}' is not a valid Kafka topic name`);
    const consumer = await connectedConsumer(name, config, names);
    return sinkIterator((sink) => {
      void consume(consumer, sink);
      return () => void consumer.disconnect().catch(() => undefined);
    });
  };
  const resolve = (event: KafkaEvent) => {
    if ('error' in event) throw new Error(`data source '${name}': ${event.error}`);
    return valueAt(event.value, path);
  };
  return { subscribe, resolve };
}

async function connectedConsumer(name: string, config: KafkaSourceConfig, topics: string[]): Promise<Consumer> {
  const consumer = kafkaClient(config).consumer({
    groupId: config.groupId || `gw-subscription-${randomUUID()}`,
    readUncommitted: config.isolationLevel === 'ReadUncommitted',
    maxWaitTimeInMs: 500,
    heartbeatInterval: 1000,
    retry: { retries: 2, restartOnFailure: () => Promise.resolve(false) },
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: !config.startConsumingLatest });
    return consumer;
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    throw new Error(`data source '${name}' failed: ${(err as Error).message}`);
  }
}

/** Runs the consumer into the sink: each message in order; a consumer that crashed ends the subscription with its error. */
async function consume(consumer: Consumer, sink: OperationSink): Promise<void> {
  consumer.on(consumer.events.CRASH, ({ payload }) =>
    sink.error([{ message: `the Kafka consumer stopped: ${payload.error.message}` }]),
  );
  try {
    await consumer.run({ eachMessage: async ({ message }) => sink.next(parsed(message.value)) });
  } catch (err) {
    sink.error([{ message: `the Kafka consumer stopped: ${(err as Error).message}` }]);
  }
}

function parsed(value: Buffer | null): KafkaEvent {
  if (value === null) return { value: null };
  try {
    return { value: JSON.parse(value.toString('utf8')) };
  } catch {
    return { error: 'a message is not JSON' };
  }
}
