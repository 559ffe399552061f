import { ApisErrors } from '../../errors';
import {
  descriptionLine,
  printGraphSchema,
  uniqueNames,
  type GeneratedGraph,
  type KafkaDataSource,
  type RootFields,
} from './generated-graph';
import { camelCase, slug } from './graphql-names';
import { SchemaTypes, type JsonSchema, type ResolvedSchema } from './schema-types';

/* eslint-disable @typescript-eslint/no-explicit-any -- a parsed AsyncAPI document is read as plain JSON */
type Json = Record<string, any>;

const KAFKA_PROTOCOLS = new Set(['kafka', 'kafka-secure']);

/**
 * Converts a parsed AsyncAPI 2 document (references resolved) into a combined graph, as the
 * reference gateway's importer does: one Subscription field per channel with a `subscribe`
 * operation, named after its operationId, typed by its message (named after the message) with
 * the channel's parameters as arguments, and one Kafka data source per field reading the
 * channel's topic (parameters templated in) from the document's Kafka servers.
 */
export function asyncApiGraph(document: Json): GeneratedGraph {
  const title = String(document.info?.title ?? 'Imported data graph');
  const types = new SchemaTypes(resolveParsedSchema);
  const roots: RootFields = { Query: [], Mutation: [], Subscription: [] };
  const dataSources: KafkaDataSource[] = [];
  const fieldNames = uniqueNames();
  for (const [channel, item] of Object.entries<Json>(document.channels ?? {})) {
    const operation = item.subscribe as Json | undefined;
    if (!operation) continue;
    const field = fieldNames(camelCase(operation.operationId ?? channel));
    const message = firstMessage(operation.message);
    const type = types.outputNamed(message.payload ?? {}, message.name ?? message['x-parser-message-name'] ?? channel);
    const parameters = Object.entries<Json>(item.parameters ?? {});
    const args = parameters.map(
      ([name, parameter]) =>
        `${argName(name)}: ${types.input(parameter.schema ?? { type: 'string' }, `${field} ${name}`, true)}`,
    );
    const description = descriptionLine([
      message.title,
      operation.summary ?? message.summary,
      operation.description ?? message.description,
    ]);
    roots.Subscription.push(`${description}  ${field}${args.length > 0 ? `(${args.join(', ')})` : ''}: ${type}`);
    dataSources.push(kafkaDataSource(document, channel, item, operation, field, slug(title)));
  }
  if (dataSources.length === 0)
    throw ApisErrors.importInvalid(
      'The AsyncAPI document has no channel with a subscribe operation: there is nothing to subscribe to',
    );
  const fieldConfigs = dataSources.map((source) => ({
    type_name: 'Subscription',
    field_name: source.root_fields[0].fields[0],
    disable_default_mapping: true,
    path: [''],
  }));
  return {
    title,
    sdl: printGraphSchema(roots, types.sdl()),
    dataSources,
    fieldConfigs: [...fieldConfigs, ...types.fieldConfigs],
  };
}

function kafkaDataSource(
  document: Json,
  channel: string,
  item: Json,
  operation: Json,
  field: string,
  apiSlug: string,
): KafkaDataSource {
  const binding = kafkaBinding(operation);
  const servers = kafkaServers(document, item.servers as string[] | undefined);
  if (servers.length === 0) {
    throw ApisErrors.importInvalid(
      `Channel '${channel}' has no Kafka server (protocol kafka or kafka-secure): combined graphs subscribe to Kafka topics only`,
    );
  }
  return {
    kind: 'Kafka',
    name: field,
    internal: false,
    root_fields: [{ type: 'Subscription', fields: [field] }],
    config: {
      broker_addresses: servers.map((server) => server.address),
      topics: [channel.replace(/\{([^}]+)\}/g, (_, name: string) => `{{.arguments.${argName(name)}}}`)],
      group_id: binding.groupId ?? `${apiSlug}-${field}`,
      client_id: binding.clientId ?? '',
      kafka_version: kafkaVersion(servers[0].protocolVersion),
      start_consuming_latest: false,
      balance_strategy: 'BalanceStrategyRange',
      isolation_level: 'ReadUncommitted',
      sasl: { enable: false, user: '', password: '' },
    },
  };
}

/** The servers a channel names (all of the document's when it names none) that speak Kafka. */
function kafkaServers(
  document: Json,
  names: string[] | undefined,
): Array<{ address: string; protocolVersion: string }> {
  const all = Object.entries<Json>(document.servers ?? {});
  const chosen = names && names.length > 0 ? all.filter(([name]) => names.includes(name)) : all;
  return chosen
    .filter(([, server]) => KAFKA_PROTOCOLS.has(String(server.protocol).toLowerCase()))
    .map(([, server]) => ({ address: brokerAddress(server), protocolVersion: String(server.protocolVersion ?? '') }));
}

/** `host:port` of a server URL, its variables replaced by their defaults and any scheme dropped. */
function brokerAddress(server: Json): string {
  const url = String(server.url).replace(/\{([^}]+)\}/g, (whole, name: string) =>
    String(server.variables?.[name]?.default ?? whole),
  );
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '');
}

/** The reference's Kafka version names (`2.8.0` → `V2_8_0_0`); empty = the client's default. */
function kafkaVersion(protocolVersion: string): string {
  const parts = protocolVersion.split('.').filter((part) => /^\d+$/.test(part));
  if (parts.length === 0) return '';
  while (parts.length < 4) parts.push('0');
  return `V${parts.slice(0, 4).join('_')}`;
}

/** `groupId` and `clientId` of the operation's Kafka binding (or its traits'): a value, or a schema's const, default or first enum value. */
function kafkaBinding(operation: Json): { groupId?: string; clientId?: string } {
  const bindings = [
    operation.bindings?.kafka,
    ...(operation.traits ?? []).map((trait: Json) => trait?.bindings?.kafka),
  ].filter(Boolean);
  const pick = (key: string) => {
    for (const binding of bindings) {
      const value = bindingValue(binding[key]);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  return { groupId: pick('groupId'), clientId: pick('clientId') };
}

function bindingValue(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const schema = value as JsonSchema;
  const candidate = schema.const ?? schema.default ?? schema.enum?.[0];
  return typeof candidate === 'string' && candidate !== '' ? candidate : undefined;
}

/** A message, or the first of a `oneOf` of messages. */
function firstMessage(message: Json | undefined): Json {
  if (Array.isArray(message?.oneOf) && message.oneOf.length > 0) return message.oneOf[0];
  return message ?? {};
}

/** Channel parameters keep their names when GraphQL allows them (the topic template uses the same name). */
function argName(name: string): string {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(name) ? name : camelCase(name);
}

/** The parser resolved every reference; a component schema keeps its name in `x-parser-schema-id`. */
function resolveParsedSchema(schema: JsonSchema): ResolvedSchema {
  const id = schema?.['x-parser-schema-id'];
  return { schema: schema ?? {}, name: typeof id === 'string' && !id.startsWith('<') ? id : undefined };
}
