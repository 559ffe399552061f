import { AmqpInput, AmqpOutput, type AmqpInputConfig, type AmqpOutputConfig } from './amqp';
import type { ConnectorEnv, Input, Output } from './contract';

export type { ConnectorEnv } from './contract';
import { KafkaInput, type KafkaInputConfig } from './kafka/input';
import { KafkaOutput, type KafkaOutputConfig } from './kafka/output';
import { MqttInput, MqttOutput, type MqttInputConfig, type MqttOutputConfig } from './mqtt';
import { NatsInput, NatsOutput, type NatsInputConfig, type NatsOutputConfig } from './nats/core';
import {
  JetStreamInput,
  JetStreamOutput,
  type JetStreamInputConfig,
  type JetStreamOutputConfig,
} from './nats/jetstream';

/**
 * Builders of the broker connectors by type, for the runtime's component factory. Configs are
 * the definition's, already checked against BROKER_INPUTS / BROKER_OUTPUTS when saved.
 */
export const BROKER_INPUT_BUILDERS: Record<string, (config: never, env: ConnectorEnv) => Input> = {
  kafka: (config: KafkaInputConfig, env) => new KafkaInput(config, env),
  nats: (config: NatsInputConfig, env) => new NatsInput(config, env),
  nats_jetstream: (config: JetStreamInputConfig, env) => new JetStreamInput(config, env),
  amqp_0_9: (config: AmqpInputConfig, env) => new AmqpInput(config, env),
  mqtt: (config: MqttInputConfig, env) => new MqttInput(config, env),
};

export const BROKER_OUTPUT_BUILDERS: Record<string, (config: never, env: ConnectorEnv) => Output> = {
  kafka: (config: KafkaOutputConfig, env) => new KafkaOutput(config, env),
  nats: (config: NatsOutputConfig, env) => new NatsOutput(config, env),
  nats_jetstream: (config: JetStreamOutputConfig, env) => new JetStreamOutput(config, env),
  amqp_0_9: (config: AmqpOutputConfig, env) => new AmqpOutput(config, env),
  mqtt: (config: MqttOutputConfig, env) => new MqttOutput(config, env),
};
