import type { ComponentSpec, FieldSpec } from './catalogue';

/**
 * The message-broker connectors' fields (Bento's names), spread into the catalogue's INPUTS and
 * OUTPUTS so a definition is checked when saved. The connectors are in
 * services/streams/connectors/.
 */

/** Bento's kafka output partitioners (fnv1a_hash is its default) */
export const KAFKA_PARTITIONERS = ['fnv1a_hash', 'murmur2_hash', 'random', 'round_robin', 'manual'] as const;

const urls: FieldSpec = { kind: 'strings', required: true };

export const BROKER_INPUTS: Record<string, ComponentSpec> = {
  kafka: {
    addresses: { kind: 'strings', required: true },
    topics: { kind: 'strings', required: true },
    consumer_group: { kind: 'string' },
    client_id: { kind: 'string' },
    start_from_oldest: { kind: 'boolean' },
    checkpoint_limit: { kind: 'number' },
  },
  nats: { urls, subject: { kind: 'string', required: true }, queue: { kind: 'string' } },
  nats_jetstream: {
    urls,
    subject: { kind: 'string' },
    stream: { kind: 'string' },
    durable: { kind: 'string' },
    queue: { kind: 'string' },
    deliver: { kind: 'string', oneOf: ['all', 'last', 'last_per_subject', 'new'] },
    ack_wait: { kind: 'duration' },
    max_ack_pending: { kind: 'number' },
  },
  amqp_0_9: {
    urls,
    queue: { kind: 'string', required: true },
    queue_declare: {
      kind: 'object',
      fields: { enabled: { kind: 'boolean' }, durable: { kind: 'boolean' }, auto_delete: { kind: 'boolean' } },
    },
    /** a list of { exchange, key } (the catalogue has no list-of-objects kind) */
    bindings_declare: { kind: 'any' },
    consumer_tag: { kind: 'string' },
    auto_ack: { kind: 'boolean' },
    prefetch_count: { kind: 'number' },
  },
  mqtt: {
    urls,
    topics: { kind: 'strings', required: true },
    client_id: { kind: 'string' },
    qos: { kind: 'number' },
    clean_session: { kind: 'boolean' },
    user: { kind: 'string' },
    password: { kind: 'string' },
  },
};

export const BROKER_OUTPUTS: Record<string, ComponentSpec> = {
  kafka: {
    addresses: { kind: 'strings', required: true },
    topic: { kind: 'string', required: true, interpolated: true },
    key: { kind: 'string', interpolated: true },
    partition: { kind: 'string', interpolated: true },
    client_id: { kind: 'string' },
    partitioner: { kind: 'string', oneOf: KAFKA_PARTITIONERS },
    max_in_flight: { kind: 'number' },
    metadata: { kind: 'object', fields: { include_prefixes: { kind: 'strings' } } },
  },
  nats: { urls, subject: { kind: 'string', required: true, interpolated: true }, headers: { kind: 'string-map' } },
  nats_jetstream: {
    urls,
    subject: { kind: 'string', required: true, interpolated: true },
    headers: { kind: 'string-map' },
  },
  amqp_0_9: {
    urls,
    exchange: { kind: 'string', required: true, interpolated: true },
    key: { kind: 'string', interpolated: true },
    type: { kind: 'string' },
    content_type: { kind: 'string' },
    persistent: { kind: 'boolean' },
    mandatory: { kind: 'boolean' },
    exchange_declare: {
      kind: 'object',
      fields: {
        enabled: { kind: 'boolean' },
        type: { kind: 'string', oneOf: ['direct', 'fanout', 'topic', 'headers', 'x-custom'] },
        durable: { kind: 'boolean' },
      },
    },
    max_in_flight: { kind: 'number' },
  },
  mqtt: {
    urls,
    topic: { kind: 'string', required: true, interpolated: true },
    client_id: { kind: 'string' },
    qos: { kind: 'number' },
    retained: { kind: 'boolean' },
    user: { kind: 'string' },
    password: { kind: 'string' },
    max_in_flight: { kind: 'number' },
  },
};
