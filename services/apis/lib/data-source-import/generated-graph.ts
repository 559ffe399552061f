import { buildSchema, printSchema } from 'graphql';
import type { FieldConfig } from './schema-types';

/** A REST data source of a combined graph (`graphql.engine.data_sources[]`, the reference gateway's format). */
export interface RestDataSource {
  kind: 'REST';
  name: string;
  internal: boolean;
  root_fields: Array<{ type: string; fields: string[] }>;
  config: {
    url: string;
    method: string;
    headers: Record<string, string>;
    query: Array<{ name: string; value: string }>;
    body: string;
  };
}

/** A Kafka data source of a combined graph, for subscription fields. */
export interface KafkaDataSource {
  kind: 'Kafka';
  name: string;
  internal: boolean;
  root_fields: Array<{ type: string; fields: string[] }>;
  config: {
    broker_addresses: string[];
    topics: string[];
    group_id: string;
    client_id: string;
    kafka_version: string;
    start_consuming_latest: boolean;
    balance_strategy: string;
    isolation_level: string;
    sasl: { enable: boolean; user: string; password: string };
  };
}

export type DataSource = RestDataSource | KafkaDataSource;

/** What a converter makes of a document: the graph's SDL, its data sources and field configs. */
export interface GeneratedGraph {
  title: string;
  sdl: string;
  dataSources: DataSource[];
  fieldConfigs: FieldConfig[];
}

/** A root type's fields as SDL lines. */
export type RootFields = Record<'Query' | 'Mutation' | 'Subscription', string[]>;

/**
 * The schema text of the graph, checked and printed by graphql-js. GraphQL wants a Query type:
 * a graph without queries (an AsyncAPI document) gets one nullable placeholder field.
 */
export function printGraphSchema(roots: RootFields, types: string): string {
  const blocks: string[] = [];
  const query =
    roots.Query.length > 0
      ? roots.Query
      : ['  "Placeholder: the imported document describes no queries."\n  _empty: String'];
  blocks.push(`type Query {\n${query.join('\n')}\n}`);
  if (roots.Mutation.length > 0) blocks.push(`type Mutation {\n${roots.Mutation.join('\n')}\n}`);
  if (roots.Subscription.length > 0) blocks.push(`type Subscription {\n${roots.Subscription.join('\n')}\n}`);
  if (types !== '') blocks.push(types);
  return printSchema(buildSchema(blocks.join('\n\n')));
}

/** `"text"` as a GraphQL description line, or nothing. */
export function descriptionLine(parts: unknown[], indent = '  '): string {
  const text = parts
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join('\n');
  return text === '' ? '' : `${indent}${JSON.stringify(text)}\n`;
}

/** Hands out unique names: `name`, then `name2`, `name3`… */
export function uniqueNames(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
    taken.add(candidate);
    return candidate;
  };
}
