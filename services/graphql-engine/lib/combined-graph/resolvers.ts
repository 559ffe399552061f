import type { IncomingHttpHeaders } from 'node:http';
import {
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type {
  CombinedGraphConfig,
  DataSource,
  FieldConfig,
  GraphqlSourceConfig,
} from '../../../../lib/graphql/combined-graph-config';
import { subscribeUpstream } from '../upstream-operations';
import type { ExecutionLoader, GraphqlEndpoint } from './execution-loader';
import { configuredPath, mappingPath, valueAt } from './field-mapping';
import { FixedQuery } from './fixed-operation';
import { SelectionForwarder, variableDefinitions } from './forwarded-selection';
import { kafkaSubscription } from './kafka-source';
import { compileRestSource, objectFieldsOf } from './rest-source';
import { sinkIterator } from './sink-iterator';
import { compileTemplate, encoders, type TemplateScope } from './templates';

/** What every resolver of one operation shares. */
export interface ExecutionContext {
  loader: ExecutionLoader;
  headers: IncomingHttpHeaders;
}

type Resolver = GraphQLFieldResolver<unknown, ExecutionContext>;

/**
 * Puts the combined graph's data sources on its schema's fields: each root field of a data
 * source resolves through it, with the field's arguments, its parent object and the client's
 * request headers; fields with a field config read their `path` of the parent. Returns the
 * notices the gateway reports in /gw/health (none today: every kind of data source runs).
 */
export function attachResolvers(config: CombinedGraphConfig): string[] {
  const { schema } = config;
  const configs = new Map(config.fieldConfigs.map((fc) => [`${fc.typeName}.${fc.fieldName}`, fc]));
  const forwarder = new SelectionForwarder(schema, parentReads(config.dataSources));
  const notices: string[] = [];
  for (const source of config.dataSources) {
    for (const root of source.rootFields) {
      const type = schema.getType(root.type) as GraphQLObjectType;
      for (const name of root.fields) {
        const field = type.getFields()[name];
        attach(field, type, source, mappingPath(configs.get(`${root.type}.${name}`), name, source), schema, forwarder);
        configs.delete(`${root.type}.${name}`);
      }
    }
  }
  for (const fc of configs.values()) mapFromParent(schema, fc);
  return notices;
}

function attach(
  field: GraphQLField<unknown, unknown>,
  parent: GraphQLObjectType,
  source: DataSource,
  path: string[],
  schema: GraphQLSchema,
  forwarder: SelectionForwarder,
): void {
  const isSubscription = parent === schema.getSubscriptionType();
  const share = parent !== schema.getMutationType();
  if (source.kind === 'Kafka') {
    if (!isSubscription)
      return void (field.resolve = () =>
        Promise.reject(new Error(`data source '${source.name}' (Kafka) resolves subscription fields only`)));
    const kafka = kafkaSubscription(source.name, source.config, path);
    field.subscribe = ((object, args, context) =>
      kafka.subscribe(scope(object, args, context))) as Resolver as GraphQLFieldResolver<unknown, unknown>;
    field.resolve = ((event: Parameters<typeof kafka.resolve>[0], _args: unknown, context: ExecutionContext) => {
      context.loader.forget();
      return kafka.resolve(event);
    }) as GraphQLFieldResolver<unknown, unknown>;
    return;
  }
  if (source.kind === 'REST') {
    if (isSubscription)
      return void (field.subscribe = () =>
        Promise.reject(new Error(`data source '${source.name}' (REST) can not resolve a subscription field`)));
    const build = compileRestSource(source.config);
    // Plain promise chains, not async functions: this runs once per parent object.
    const resolve: Resolver = (object, args, context) =>
      failing(source, context.loader.fetch(build(scope(object, args, context)), share)).then((answer) =>
        valueAt(answer, path),
      );
    field.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
    return;
  }
  const resolvers = isSubscription
    ? subscriptionResolvers(source.name, source.config, path, forwarder)
    : { resolve: graphqlResolver(source.name, source.config, path, forwarder, share, schema) };
  Object.assign(field, resolvers);
}

/** A field of a GraphQL data source: its selection (or the source's own operation), batched with the other fields of this pass. */
function graphqlResolver(
  name: string,
  config: GraphqlSourceConfig,
  path: string[],
  forwarder: SelectionForwarder,
  share: boolean,
  schema: GraphQLSchema,
): GraphQLFieldResolver<unknown, unknown> {
  const url = compileTemplate(config.url);
  const headers = Object.entries(config.headers).map(
    ([header, value]) => [header.toLowerCase(), compileTemplate(value)] as const,
  );
  const fixed = config.operation
    ? fixedOperation(name, config.operation, share ? FixedQuery.of(config.operation.text, schema) : undefined)
    : undefined;
  const resolve: Resolver = async (object, args, context, info) => {
    const values = scope(object, args, context);
    const endpoint = {
      url: url.render(values, encoders.url),
      method: config.method,
      headers: Object.fromEntries(headers.map(([header, value]) => [header, value.render(values, encoders.header)])),
      operationType: share ? ('query' as const) : ('mutation' as const),
    };
    if (fixed) return valueAt(await fixed(endpoint, values, context.loader, share), path);
    const forwarded = forwarder.forward(info);
    const used = new Set(forwarded.variables);
    const variables = Object.fromEntries([...used].map((v) => [v, info.variableValues[v]]));
    const value = await failing(
      { name },
      context.loader.graphqlField(endpoint, forwarded, variableDefinitions(info, used), variables),
    );
    return valueAt({ [info.fieldName]: value }, path);
  };
  return resolve as GraphQLFieldResolver<unknown, unknown>;
}

type FixedRunner = (
  endpoint: GraphqlEndpoint,
  values: TemplateScope,
  loader: ExecutionLoader,
  share: boolean,
) => Promise<unknown>;

/**
 * The data source's own operation, its `variables` templated (JSON-escaped). A batchable query
 * (fixed-operation.ts) goes out as literal fields with the other fields of this pass; anything
 * else is sent as written, identical calls shared. Gives the upstream's `data`.
 */
function fixedOperation(
  name: string,
  operation: { text: string; variables: string },
  batchable: FixedQuery | undefined,
): FixedRunner {
  const variables = compileTemplate(operation.variables || '{}');
  return async (endpoint, values, loader, share) => {
    const filled = JSON.parse(variables.render(values, encoders.json) || '{}') as Record<string, unknown>;
    if (batchable) {
      const fields = batchable.fieldsWith(filled);
      const answers = await Promise.all(
        fields.map(([, text]) => failing({ name }, loader.graphqlField(endpoint, { text, variables: [] }, '', {}))),
      );
      return Object.fromEntries(fields.map(([key], index) => [key, answers[index]]));
    }
    const body = JSON.stringify({ query: operation.text, variables: filled });
    const answer = (await failing(
      { name },
      loader.fetch({ ...endpoint, headers: { ...endpoint.headers, 'content-type': 'application/json' }, body }, share),
    )) as { data?: unknown; errors?: Array<{ message: string }> };
    if (!answer?.data && answer?.errors?.length)
      throw new Error(`data source '${name}': ${answer.errors.map((e) => e.message).join('; ')}`);
    return answer?.data ?? null;
  };
}

/** A subscription field of a GraphQL data source: one upstream subscription per client operation, over its `subscription_type`. */
function subscriptionResolvers(
  name: string,
  config: GraphqlSourceConfig,
  path: string[],
  forwarder: SelectionForwarder,
): Pick<GraphQLField<unknown, unknown>, 'subscribe' | 'resolve'> {
  const url = compileTemplate(config.url);
  const headers = Object.entries(config.headers).map(([header, value]) => [header, compileTemplate(value)] as const);
  const subscribe: Resolver = (object, args, context, info) => {
    const values = scope(object, args, context);
    const target = {
      url: url.render(values, encoders.url),
      headers: Object.fromEntries(headers.map(([header, value]) => [header, value.render(values, encoders.header)])),
      subscriptionType: config.subscriptionType,
    };
    const forwarded = forwarder.forward(info);
    const used = new Set(forwarded.variables);
    const query = `subscription${variableDefinitions(info, used)} { ${forwarded.text} }`;
    const variables = Object.fromEntries([...used].map((v) => [v, info.variableValues[v]]));
    // a failed connection or subscription names its data source, as a failed fetch does
    return sinkIterator((sink) =>
      subscribeUpstream(
        target,
        { query, variables },
        {
          ...sink,
          error: (errors) =>
            sink.error(errors.map((e) => ({ ...e, message: `data source '${name}' failed: ${e.message}` }))),
        },
      ),
    );
  };
  const resolve = (event: unknown, _args: unknown, context: ExecutionContext) => {
    context.loader.forget();
    const answer = event as { data?: unknown; errors?: Array<{ message: string }> };
    if (!answer?.data && answer?.errors?.length)
      throw new Error(`data source '${name}': ${answer.errors.map((e) => e.message).join('; ')}`);
    return valueAt(answer?.data ?? null, path);
  };
  return {
    subscribe: subscribe as GraphQLFieldResolver<unknown, unknown>,
    resolve: resolve as GraphQLFieldResolver<unknown, unknown>,
  };
}

function mapFromParent(schema: GraphQLSchema, fc: FieldConfig): void {
  const type = schema.getType(fc.typeName);
  if (!isObjectType(type) || (!fc.disableDefaultMapping && fc.path.length === 0)) return;
  const field = type.getFields()[fc.fieldName];
  const path = configuredPath(fc, fc.fieldName);
  if (field) field.resolve = (parent) => valueAt(parent, path);
}

/** `Type.field` → the parent fields its data source's templates read (so a GraphQL upstream is asked for them). */
function parentReads(sources: DataSource[]): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  for (const source of sources) {
    const config = source.config as Partial<{
      url: string;
      headers: Record<string, string>;
      body: string;
      query: Array<{ value: string }>;
      operation: { variables: string };
    }>;
    const texts = [
      config.url ?? '',
      config.body ?? '',
      ...Object.values(config.headers ?? {}),
      ...(config.query ?? []).map((q) => q.value),
      config.operation?.variables ?? '',
    ];
    const fields = objectFieldsOf(texts);
    for (const root of source.rootFields) for (const field of root.fields) reads.set(`${root.type}.${field}`, fields);
  }
  return reads;
}

function scope(object: unknown, args: Record<string, unknown>, context: ExecutionContext): TemplateScope {
  return { arguments: args, object, headers: context.headers };
}

/** A data source's failure, as the field's error naming the data source. */
function failing<T>(source: { name: string }, pending: Promise<T>): Promise<T> {
  return pending.catch((err: Error) => {
    throw new Error(`data source '${source.name}' failed: ${err.message}`);
  });
}
