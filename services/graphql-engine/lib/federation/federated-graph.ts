import { execute, parse, valueFromASTUntyped, type GraphQLSchema, type VariableDefinitionNode } from 'graphql';
import { DocumentCache } from '../document-cache';
import { PlanningError, readClientOperation } from './client-operation';
import { executePlan } from './execute-plan';
import { planOperation } from './plan-operation';
import type { QueryPlan } from './query-plan';
import { shapeResponse } from './shape-response';
import { fetchFromSubgraph, type GraphqlError, type SubgraphFetcher, type SubgraphResponse } from './subgraph-client';
import type { SubgraphEndpoint, Supergraph } from './supergraph';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';

export interface FederatedRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string;
}

export interface FederatedResponse {
  data?: Record<string, unknown> | null;
  errors?: GraphqlError[];
}

/** The answer to a subscription sent over HTTP to a supergraph. */
export const SUBSCRIPTIONS_OVER_WEBSOCKET =
  'Subscriptions are served over WebSocket (graphql-transport-ws or graphql-ws).';

/** Plans kept per supergraph, bounded by the bytes of their operation texts. */
const PLAN_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * One supergraph API's executor: operations are planned once per text (cached), then run
 * against the subgraphs; the answer has the client's shape. Subscriptions plan the same way:
 * fetch 0 is the stream from the subscription root's subgraph, the rest runs per event.
 */
export class FederatedGraph {
  readonly schema: GraphQLSchema;
  readonly subgraphs: Map<string, SubgraphEndpoint>;
  private readonly plans = new DocumentCache<QueryPlan | PlanningError>(PLAN_CACHE_BYTES);

  constructor(
    readonly supergraph: Supergraph,
    private readonly fetcher: SubgraphFetcher = fetchFromSubgraph,
    private readonly options: { batching?: boolean } = {},
  ) {
    this.schema = supergraph.schema;
    this.subgraphs = new Map(supergraph.subgraphs.map((s) => [s.name, s]));
  }

  /** The plan of an operation, from the cache when it was planned before; throws a PlanningError. */
  planFor(query: string, operationName: string | undefined): QueryPlan {
    const key = `${operationName ?? ''}\u0000${query}`;
    let plan = this.plans.get(key);
    if (!plan) {
      try {
        plan = planOperation(this.supergraph, readClientOperation(this.schema, query, operationName));
      } catch (err) {
        if (!(err instanceof PlanningError)) throw err;
        plan = err;
      }
      this.plans.set(key, plan);
    }
    if (plan instanceof PlanningError) throw plan;
    return plan;
  }

  /** Runs a query or mutation; `headers` are the global headers of this request. */
  async execute(
    request: FederatedRequest,
    headers: Record<string, string>,
    trace?: OutboundTrace,
  ): Promise<FederatedResponse> {
    let plan: QueryPlan;
    try {
      plan = this.planFor(request.query, request.operationName);
    } catch (err) {
      return { errors: [{ message: (err as Error).message }] };
    }
    if (plan.operation.operation === 'subscription') return { errors: [{ message: SUBSCRIPTIONS_OVER_WEBSOCKET }] };
    return this.run(plan, request, headers, undefined, trace);
  }

  /** Answers one event of a subscription: the stream's payload, completed by entity fetches. */
  async run(
    plan: QueryPlan,
    request: FederatedRequest,
    headers: Record<string, string>,
    rootResult?: SubgraphResponse,
    trace?: OutboundTrace,
  ): Promise<FederatedResponse> {
    const variables = withDefaults(plan.operation.variableDefinitions, request.variables ?? {});
    const raw = await executePlan({
      plan,
      subgraphs: this.subgraphs,
      variables,
      headers,
      fetcher: this.fetcher,
      rootResult,
      batching: this.options.batching,
      trace,
    });
    if (plan.introspection) this.introspect(plan, request, raw.data);
    const data = shapeResponse(this.schema, plan.operation, raw.data, variables, raw.errors);
    return raw.errors.length > 0 ? { errors: raw.errors, data } : { data };
  }

  /** `__schema` and `__type` are answered from the supergraph schema, never by a subgraph. */
  private introspect(plan: QueryPlan, request: FederatedRequest, into: Record<string, unknown>): void {
    const result = execute({
      schema: this.schema,
      document: parse(request.query),
      variableValues: request.variables ?? {},
      operationName: request.operationName,
      rootValue: {},
    });
    const answered = (result as { data?: Record<string, unknown> }).data ?? {};
    for (const selection of plan.operation.selections) {
      if (selection.kind === 'field' && (selection.name === '__schema' || selection.name === '__type'))
        into[selection.responseKey] = answered[selection.responseKey];
    }
  }
}

/** The client's variables plus the defaults of those it left out: `@skip(if: $flag)` reads them at the gateway too. */
function withDefaults(
  definitions: readonly VariableDefinitionNode[],
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const missing = definitions.filter((d) => d.defaultValue && variables[d.variable.name.value] === undefined);
  if (missing.length === 0) return variables;
  const completed = { ...variables };
  for (const definition of missing)
    completed[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue!);
  return completed;
}
