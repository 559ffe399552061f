import { buildSchema, isObjectType, type GraphQLSchema } from 'graphql';
import { literalHostRefusal, refusalReason } from '../net/outbound-address';

/**
 * The combined graph (`graphql.execution_mode: "executionEngine"`) in the reference gateway's
 * classic format (`graphql.version: "2"`): the SDL in `graphql.schema`, the data sources in
 * `graphql.engine.data_sources[]` and field mappings in `graphql.engine.field_configs[]`.
 * Read here once for both sides: apis refuses a definition with problems at save time, the
 * engine builds resolvers from what this returns.
 */
export type DataSourceKind = 'REST' | 'GraphQL' | 'Kafka';
export type SubscriptionType = 'graphql-ws' | 'graphql-transport-ws' | 'sse';

export interface RootField {
  type: string;
  fields: string[];
}

export interface RestSourceConfig {
  url: string;
  method: string;
  headers: Record<string, string>;
  query: Array<{ name: string; value: string }>;
  body: string;
}

export interface GraphqlSourceConfig {
  url: string;
  method: string;
  headers: Record<string, string>;
  subscriptionType: SubscriptionType;
  /** a fixed operation instead of the forwarded selection (`has_operation`, `operation`, `variables`) */
  operation?: { text: string; variables: string };
}

/** The reference gateway's Kafka data source (`broker_addresses`, `topics`, `group_id`, …). */
export interface KafkaSourceConfig {
  brokerAddresses: string[];
  /** topic names; `{{.arguments.x}}` templates filled per subscription */
  topics: string[];
  /** empty: every subscription consumes in a consumer group of its own */
  groupId: string;
  clientId: string;
  /** accepted as the reference stores it; kafkajs negotiates the protocol versions itself */
  kafkaVersion: string;
  startConsumingLatest: boolean;
  balanceStrategy: KafkaBalanceStrategy;
  isolationLevel: 'ReadUncommitted' | 'ReadCommitted';
  sasl: { enable: boolean; user: string; password: string };
}

export const KAFKA_BALANCE_STRATEGIES = [
  'BalanceStrategyRange',
  'BalanceStrategySticky',
  'BalanceStrategyRoundRobin',
] as const;
export type KafkaBalanceStrategy = (typeof KAFKA_BALANCE_STRATEGIES)[number];

interface SourceBase {
  name: string;
  internal: boolean;
  rootFields: RootField[];
}
export type DataSource =
  | (SourceBase & { kind: 'REST'; config: RestSourceConfig })
  | (SourceBase & { kind: 'GraphQL'; config: GraphqlSourceConfig })
  | (SourceBase & { kind: 'Kafka'; config: KafkaSourceConfig });

export interface FieldConfig {
  typeName: string;
  fieldName: string;
  disableDefaultMapping: boolean;
  path: string[];
}

export interface CombinedGraphConfig {
  schema: GraphQLSchema;
  dataSources: DataSource[];
  fieldConfigs: FieldConfig[];
}

export function isCombinedGraph(graphql: unknown): boolean {
  return (
    typeof graphql === 'object' &&
    graphql !== null &&
    (graphql as { execution_mode?: unknown }).execution_mode === 'executionEngine'
  );
}

/** Reads the combined graph of a `graphql` object, or the problems that make it unusable (each names its data source or field). */
export function readCombinedGraph(
  graphql: Record<string, unknown>,
): { config: CombinedGraphConfig } | { problems: string[] } {
  let schema: GraphQLSchema;
  try {
    schema = buildSchema(String(graphql.schema ?? ''));
  } catch (err) {
    return { problems: [`graphql.schema: ${(err as Error).message}`] };
  }
  const engine = isRecord(graphql.engine) ? graphql.engine : {};
  const problems: string[] = [];
  const rawSources = Array.isArray(engine.data_sources) ? engine.data_sources : [];
  if (engine.data_sources !== undefined && !Array.isArray(engine.data_sources))
    problems.push('graphql.engine.data_sources must be an array');
  const dataSources: DataSource[] = [];
  const owner = new Map<string, string>();
  rawSources.forEach((raw, index) => {
    const source = readSource(raw, index, schema, problems);
    if (!source) return;
    for (const root of source.rootFields) {
      for (const field of root.fields) {
        const key = `${root.type}.${field}`;
        if (owner.has(key))
          problems.push(
            `data source '${source.name}': field ${key} is already resolved by data source '${owner.get(key)}'`,
          );
        owner.set(key, source.name);
      }
    }
    dataSources.push(source);
  });
  const fieldConfigs = readFieldConfigs(engine.field_configs, schema, problems);
  return problems.length > 0 ? { problems } : { config: { schema, dataSources, fieldConfigs } };
}

function readSource(raw: unknown, index: number, schema: GraphQLSchema, problems: string[]): DataSource | undefined {
  if (!isRecord(raw)) return void problems.push(`graphql.engine.data_sources[${index}] must be an object`);
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : `#${index}`;
  const label = `data source '${name}'`;
  const kind = raw.kind;
  if (kind !== 'REST' && kind !== 'GraphQL' && kind !== 'Kafka')
    return void problems.push(`${label}: kind must be REST, GraphQL or Kafka, not '${String(kind)}'`);
  const rootFields = readRootFields(raw.root_fields, label, schema, problems);
  const config = isRecord(raw.config) ? raw.config : {};
  const base = { name, internal: raw.internal === true, rootFields };
  if (kind === 'Kafka') return { ...base, kind, config: readKafka(config, label, problems) };
  const url = checkedUrl(config.url, label, problems);
  const method =
    typeof config.method === 'string' && config.method !== ''
      ? config.method.toUpperCase()
      : kind === 'REST'
        ? 'GET'
        : 'POST';
  const headers = readHeaders(config.headers, label, problems);
  if (kind === 'REST') {
    const query = (Array.isArray(config.query) ? config.query : [])
      .filter(isRecord)
      .map((entry) => ({ name: String(entry.name ?? ''), value: String(entry.value ?? '') }));
    return {
      ...base,
      kind,
      config: { url, method, headers, query, body: typeof config.body === 'string' ? config.body : '' },
    };
  }
  // On the data source, or in its config as the reference gateway's GraphQL data source has it.
  const requested = raw.subscription_type ?? config.subscription_type;
  const subscriptionType = (
    ['graphql-transport-ws', 'sse'].includes(String(requested)) ? requested : 'graphql-ws'
  ) as SubscriptionType;
  if (
    requested !== undefined &&
    requested !== '' &&
    !['graphql-ws', 'graphql-transport-ws', 'sse'].includes(String(requested))
  ) {
    problems.push(`${label}: subscription_type must be graphql-ws, graphql-transport-ws or sse`);
  }
  const operation =
    config.has_operation === true && typeof config.operation === 'string'
      ? { text: config.operation, variables: variablesText(config.variables) }
      : undefined;
  return { ...base, kind, config: { url, method, headers, subscriptionType, operation } };
}

function readRootFields(raw: unknown, label: string, schema: GraphQLSchema, problems: string[]): RootField[] {
  const list = Array.isArray(raw) ? raw.filter(isRecord) : [];
  if (list.length === 0) problems.push(`${label}: root_fields must name at least one type and field`);
  return list.map((entry) => {
    const typeName = String(entry.type ?? '');
    const fields = (Array.isArray(entry.fields) ? entry.fields : []).map(String);
    const type = schema.getType(typeName);
    if (!type || !isObjectType(type)) problems.push(`${label}: type '${typeName}' is not an object type of the schema`);
    else
      for (const field of fields)
        if (!type.getFields()[field]) problems.push(`${label}: field '${typeName}.${field}' is not in the schema`);
    if (fields.length === 0) problems.push(`${label}: root_fields entry for '${typeName}' lists no fields`);
    return { type: typeName, fields };
  });
}

function readFieldConfigs(raw: unknown, schema: GraphQLSchema, problems: string[]): FieldConfig[] {
  const list = Array.isArray(raw) ? raw.filter(isRecord) : [];
  return list.map((entry) => {
    const typeName = String(entry.type_name ?? '');
    const fieldName = String(entry.field_name ?? '');
    const type = schema.getType(typeName);
    if (!type || !isObjectType(type) || !type.getFields()[fieldName])
      problems.push(`field_configs: field '${typeName}.${fieldName}' is not in the schema`);
    const path = (Array.isArray(entry.path) ? entry.path : []).map(String).filter((step) => step !== '');
    return { typeName, fieldName, disableDefaultMapping: entry.disable_default_mapping === true, path };
  });
}

function readKafka(config: Record<string, unknown>, label: string, problems: string[]): KafkaSourceConfig {
  const strings = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const sasl = isRecord(config.sasl) ? config.sasl : {};
  const kafka: KafkaSourceConfig = {
    brokerAddresses: strings(config.broker_addresses),
    topics: strings(config.topics),
    groupId: text(config.group_id),
    clientId: text(config.client_id),
    kafkaVersion: text(config.kafka_version),
    startConsumingLatest: config.start_consuming_latest === true,
    balanceStrategy: (text(config.balance_strategy) || 'BalanceStrategyRange') as KafkaBalanceStrategy,
    isolationLevel: text(config.isolation_level) === 'ReadCommitted' ? 'ReadCommitted' : 'ReadUncommitted',
    sasl: { enable: sasl.enable === true, user: text(sasl.user), password: text(sasl.password) },
  };
  if (kafka.brokerAddresses.length === 0) problems.push(`${label}: broker_addresses must list at least one broker`);
  for (const address of kafka.brokerAddresses)
    if (!/^(\[[0-9a-f:.]+\]|[^\s:/[\]]+):\d{1,5}$/i.test(address))
      problems.push(`${label}: broker address '${address}' must be host:port`);
  if (kafka.topics.length === 0) problems.push(`${label}: topics must list at least one topic`);
  if (!(KAFKA_BALANCE_STRATEGIES as readonly string[]).includes(kafka.balanceStrategy))
    problems.push(`${label}: balance_strategy must be one of ${KAFKA_BALANCE_STRATEGIES.join(', ')}`);
  const isolation = text(config.isolation_level);
  if (isolation && isolation !== 'ReadUncommitted' && isolation !== 'ReadCommitted')
    problems.push(`${label}: isolation_level must be ReadUncommitted or ReadCommitted`);
  if (kafka.sasl.enable && !kafka.sasl.user) problems.push(`${label}: sasl.user is needed when sasl.enable is true`);
  return kafka;
}

const NOT_CALLED = 'which gw does not call';

/** Names of cloud metadata services (their addresses are refused on every connection anyway: lib/net/tenant-agent.ts). */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/**
 * A data source's URL follows the rules of any API target: http or https. Templates may fill
 * its path and query, never its origin, so a caller can not point the gateway at another host.
 * A literal address the outbound policy refuses is refused here, at save time; names are judged
 * on connection (and by the apis service's save check under deny-private).
 */
function checkedUrl(raw: unknown, label: string, problems: string[]): string {
  const url = typeof raw === 'string' ? raw : '';
  // `http:{{…}}/x`, `http:/{{…}}` or `http:\\{{…}}` would let a template become the host after
  // URL parsing: the URL must open with scheme, `//` and a literal host.
  const origin = /^https?:\/\/[^/?#\\]+(?=[/?#]|$)/i.exec(url)?.[0] ?? '';
  if (!origin || origin.includes('{{') || origin.includes('}}')) {
    problems.push(
      `${label}: config.url '${url}' must be http:// or https:// with a literal host, not templated in its host (templates may fill its path and query only)`,
    );
    return url;
  }
  try {
    const parsed = new URL(url.replace(/\{\{[^}]*\}\}/g, 'x'));
    const refusal = literalHostRefusal(parsed);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      problems.push(`${label}: config.url '${url}' must be http:// or https://`);
    else if (refusal) problems.push(`${label}: config.url '${url}' names ${refusalReason(refusal)}, ${NOT_CALLED}`);
    else if (METADATA_HOSTS.has(parsed.hostname.toLowerCase()))
      problems.push(`${label}: config.url '${url}' names a cloud metadata service, which gw does not call`);
  } catch {
    problems.push(`${label}: config.url '${url}' is not a valid URL`);
  }
  return url;
}

function readHeaders(raw: unknown, label: string, problems: string[]): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) {
    problems.push(`${label}: config.headers must be an object of header names to values`);
    return {};
  }
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, String(value)]));
}

function variablesText(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  return raw === undefined || raw === null ? '' : JSON.stringify(raw);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
