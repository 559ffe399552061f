import { buildSchema, validateSchema } from 'graphql';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { schemaProblems } from '../../../lib/graphql/schema-check';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { ApisErrors } from '../errors';

/**
 * Refuses, at save time and on every surface, a definition a gateway could not serve: its
 * `proxy.target_url` must parse as a URL, and a GraphQL API must carry a schema the gateway can
 * build (gateways validate requests against it and never introspect by themselves).
 */
export function assertServable(definition: ApiDefinition): void {
  // A supergraph sends its operations to its subgraphs; the reference gateway stores it with an empty target.
  if (!(isSupergraphApi(definition) && definition.proxy.target_url === '')) assertTargetUrlParses(definition.proxy.target_url);
  assertGraphqlSchema(definition.graphql);
}

function assertTargetUrlParses(targetUrl: string): void {
  try {
    new URL(targetUrl);
  } catch {
    throw ApisErrors.invalid(`proxy.target_url '${targetUrl}' is not a valid URL`);
  }
}

/** Same test as the gateway's: `enabled: true`, or an execution mode without `enabled: false`. */
function assertGraphqlSchema(graphql: unknown): void {
  if (typeof graphql !== 'object' || graphql === null) return;
  const { enabled, execution_mode: mode, schema } = graphql as { enabled?: unknown; execution_mode?: unknown; schema?: unknown };
  if (enabled === false || (enabled !== true && !mode)) return;
  // Subgraph SDL carries federation directives and a supergraph's schema is composed: both are checked by federation (supergraph-composition.ts).
  if (mode === 'subgraph' || mode === 'supergraph') return;
  if (typeof schema !== 'string' || schema.trim() === '') {
    throw ApisErrors.invalid('graphql.schema is required: the gateway validates requests against it and does not introspect the upstream');
  }
  const problems = graphqlSchemaProblems(schema);
  if (problems.length > 0) throw ApisErrors.invalidSchema(problems);
}

/** The dashboard's SDL checks, then what the gateway needs to build it (a Query type, fields, …). */
function graphqlSchemaProblems(sdl: string): string[] {
  const problems = schemaProblems(sdl);
  if (problems.length > 0) return problems;
  try {
    return validateSchema(buildSchema(sdl)).map((error) => error.message);
  } catch (err) {
    return [(err as Error).message];
  }
}
