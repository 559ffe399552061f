import { buildSchema, type GraphQLSchema } from 'graphql';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { AccessDefinition, Session } from '../../../contracts/keys/session';
import { analyseOperation, type AnalysedOperation } from './analyse-operation';
import { DEFAULT_DOCUMENT_CACHE_BYTES, DocumentCache } from './document-cache';
import { subgraphSdlOf } from '../../../lib/graphql/federation/federated-definitions';
import { subgraphServiceSchema } from '../../../lib/graphql/federation/subgraph-service-schema';

/** A refusal in the shape the reference gateway uses for it. */
export interface GraphqlRefusal {
  status: number;
  body: unknown;
}

/**
 * The GraphQL checks of an API (proxy-only or combined graph): the query must be valid against
 * the API's schema, within the key's depth limits, use no restricted field, and ask for
 * introspection only when the key may. Analyses are cached by query text, so a repeated query
 * costs a hash lookup; one cache per node, shared by every API, bounded by bytes of query text.
 */
export class GraphqlGate {
  readonly schema: GraphQLSchema;
  private static nextId = 0;
  /** tells this gate's entries apart in the node's cache (a replaced gate's entries age out) */
  private readonly id = `${GraphqlGate.nextId++}`;

  constructor(
    private readonly definition: ApiDefinition,
    schema: string | GraphQLSchema,
    /** keep each query's parsed document with its analysis (the engine executes it) */
    private readonly keepDocuments = false,
  ) {
    this.schema = typeof schema === 'string' ? buildSchema(schema) : schema;
  }

  analyse(query: string, operationName: string | undefined): AnalysedOperation {
    const cacheKey = `${this.id}\u0000${operationName ?? ''}\u0000${query}`;
    let analysed = analyses.get(cacheKey);
    if (!analysed)
      analyses.set(cacheKey, (analysed = analyseOperation(this.schema, query, operationName, this.keepDocuments)));
    return analysed;
  }

  /** Why the caller may not run this operation, or undefined when they may. */
  refusal(analysed: AnalysedOperation, session: Session | undefined): GraphqlRefusal | undefined {
    if (analysed.errors.length > 0) return { status: 400, body: { errors: analysed.errors } };
    const access = session?.access_rights?.[this.definition.api_id];
    if (analysed.introspection && access?.disable_introspection === true && this.definition.use_keyless !== true) {
      return { status: 403, body: { errors: [{ message: 'introspection is disabled' }] } };
    }
    if (session && exceedsDepth(analysed, session, access))
      return { status: 403, body: { error: 'depth limit exceeded' } };
    const restricted = access ? firstRestricted(analysed, access) : undefined;
    if (restricted)
      return {
        status: 400,
        body: { errors: [{ message: `field: ${restricted.field} is restricted on type: ${restricted.type}` }] },
      };
    return undefined;
  }
}

/** The analyses of every GraphQL API on this node. */
const analyses = new DocumentCache<AnalysedOperation>(DEFAULT_DOCUMENT_CACHE_BYTES);

/** Sets how many bytes of query text the node keeps analyses for (GW_GRAPHQL_DOCUMENT_CACHE_BYTES). */
export function setDocumentCacheBudget(bytes: number): void {
  analyses.setBudget(bytes);
}

/** Builds the gate of a proxy-only GraphQL API (lib/graphql/graphql-api.ts says which APIs are GraphQL); throws when it can not be served. */
export function graphqlGateFor(definition: ApiDefinition): GraphqlGate {
  const graphql = (definition.graphql ?? {}) as { schema?: string; execution_mode?: string };
  // A subgraph exposed on its listen path (`internal: false`) is proxied like a proxy-only API, checked against the schema it serves.
  if (graphql.execution_mode === 'subgraph')
    return new GraphqlGate(definition, subgraphServiceSchema(definition.name, subgraphSdlOf(definition) ?? ''));
  if (graphql.execution_mode && graphql.execution_mode !== 'proxyOnly')
    throw new Error(
      `graphql.execution_mode '${graphql.execution_mode}' is not supported; use proxyOnly, subgraph, supergraph or executionEngine`,
    );
  if (typeof graphql.schema !== 'string' || graphql.schema.trim() === '')
    throw new Error('graphql.schema is required: the gateway validates requests against it');
  return new GraphqlGate(definition, buildSchema(graphql.schema));
}

/**
 * Limits, highest priority first: the root field's `field_access_rights` entry, the API's
 * `limit.max_query_depth`, the key's `max_query_depth`. -1 (or 0) is unlimited.
 */
function exceedsDepth(analysed: AnalysedOperation, session: Session, access: AccessDefinition | undefined): boolean {
  const apiLimit = access?.limit?.max_query_depth;
  const base = typeof apiLimit === 'number' && apiLimit !== 0 ? apiLimit : session.max_query_depth;
  for (const [field, depth] of analysed.depthByRootField) {
    const perField = access?.field_access_rights?.find(
      (right) =>
        right.field_name === field &&
        (right.type_name === 'Query' || right.type_name === 'Mutation' || right.type_name === 'Subscription'),
    );
    const limit = perField?.limits?.max_query_depth ?? base;
    if (typeof limit === 'number' && limit > 0 && depth > limit) return true;
  }
  return false;
}

/**
 * With `allowed_types` set it alone decides: fields not listed are restricted. Otherwise
 * `restricted_types` lists what is. `*` is every field of that type, now and later.
 */
function firstRestricted(
  analysed: AnalysedOperation,
  access: AccessDefinition,
): { type: string; field: string } | undefined {
  const allowed = access.allowed_types ?? [];
  if (allowed.length > 0) {
    const byType = new Map(allowed.map((entry) => [entry.name, entry.fields ?? []]));
    return analysed.fields.find(({ type, field }) => {
      const fields = byType.get(type);
      return !fields || !(fields.includes('*') || fields.includes(field));
    });
  }
  const restricted = new Map((access.restricted_types ?? []).map((entry) => [entry.name, entry.fields ?? []]));
  if (restricted.size === 0) return undefined;
  return analysed.fields.find(({ type, field }) => {
    const fields = restricted.get(type);
    return fields !== undefined && (fields.includes('*') || fields.includes(field));
  });
}
