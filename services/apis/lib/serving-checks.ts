import { buildSchema, validateSchema } from 'graphql';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { isCombinedGraph, readCombinedGraph } from '../../../lib/graphql/combined-graph-config';
import { schemaProblems } from '../../../lib/graphql/schema-check';
import { isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { ApisErrors } from '../errors';
import { checkOutboundUrl } from '../../../lib/net/tenant-urls';

/**
 * Refuses, at save time and on every surface, a definition a gateway could not serve: its
 * `proxy.target_url` must parse as a URL (a combined graph may have none), a GraphQL API must
 * carry a schema the gateway can build (gateways validate requests against it and never
 * introspect by themselves), and a combined graph data sources the gateway can run.
 */
export function assertServable(definition: ApiDefinition): void {
  // Supergraphs and combined graphs answer from their subgraphs or data sources; the reference
  // gateway stores them with an empty target.
  const targetless =
    (isSupergraphApi(definition) || isCombinedGraph(definition.graphql)) && !definition.proxy.target_url;
  if (!targetless) assertTargetUrlParses(definition.proxy.target_url);
  assertGraphqlSchema(definition.graphql);
  assertUpstreamUrls(definition);
}

/**
 * The other URLs a gateway calls for the API: load-balanced targets must parse; the service
 * discovery endpoint and the uptime test URLs, called by the gateway on its own, must not name
 * a link-local address (cloud metadata).
 */
function assertUpstreamUrls(definition: ApiDefinition): void {
  const { proxy } = definition;
  const check = (field: string, url: unknown, tenantCalled: boolean) => {
    try {
      if (typeof url !== 'string') throw new Error(`'${String(url)}' is not a URL`);
      if (tenantCalled) checkOutboundUrl(url);
      else new URL(url);
    } catch (err) {
      throw ApisErrors.invalid(`${field}: ${(err as Error).message}`);
    }
  };
  if (proxy.enable_load_balancing === true) {
    const list = Array.isArray(proxy.target_list) ? proxy.target_list : [];
    if (list.length === 0)
      throw ApisErrors.invalid('proxy.target_list needs at least one URL when enable_load_balancing is on');
    list.forEach((url, i) => check(`proxy.target_list[${i}]`, url, false));
  }
  const discovery = proxy.service_discovery as Record<string, unknown> | undefined;
  if (discovery?.use_discovery_service === true)
    check('proxy.service_discovery.query_endpoint', discovery.query_endpoint, true);
  const checks = (definition.uptime_tests as { check_list?: unknown } | undefined)?.check_list;
  if (Array.isArray(checks))
    checks.forEach((entry, i) =>
      check(`uptime_tests.check_list[${i}].url`, (entry as { url?: unknown } | null)?.url, true),
    );
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
  const {
    enabled,
    execution_mode: mode,
    schema,
  } = graphql as { enabled?: unknown; execution_mode?: unknown; schema?: unknown };
  if (enabled === false || (enabled !== true && !mode)) return;
  // Subgraph SDL carries federation directives and a supergraph's schema is composed: both are checked by federation (supergraph-composition.ts).
  if (mode === 'subgraph' || mode === 'supergraph') return;
  if (typeof schema !== 'string' || schema.trim() === '') {
    throw ApisErrors.invalid(
      'graphql.schema is required: the gateway validates requests against it and does not introspect the upstream',
    );
  }
  const problems = graphqlSchemaProblems(schema);
  if (problems.length > 0) throw ApisErrors.invalidSchema(problems);
  if (isCombinedGraph(graphql)) assertDataSources(graphql as Record<string, unknown>);
}

/** A combined graph's data sources and field configs must name fields of its schema, a known kind and an http(s) URL. */
function assertDataSources(graphql: Record<string, unknown>): void {
  const read = readCombinedGraph(graphql);
  if ('problems' in read) throw ApisErrors.invalidDataSources(read.problems);
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
