import type { GraphQLSchema } from 'graphql';

/**
 * What composition hands the federation planner: the client-facing schema plus, for every
 * field, which subgraphs can resolve it and with which federation directives. Composition
 * (compose-supergraph) builds it; the planner and executor only read it.
 */

export type SubscriptionTransport = 'graphql-ws' | 'graphql-transport-ws' | 'sse';

export interface SubgraphEndpoint {
  /** the subgraph's name in `graphql.supergraph.subgraphs[].name` */
  name: string;
  url: string;
  /** headers of the subgraph entry, sent on every fetch to it */
  headers: Record<string, string>;
  subscriptionType: SubscriptionTransport;
}

export interface FieldPlacement {
  /** subgraphs that resolve the field themselves (it is defined there and not `@external`) */
  resolvedBy: string[];
  /** per subgraph name: the `@requires(fields:)` selection that subgraph needs, e.g. "price weight" */
  requires: Record<string, string>;
  /** per subgraph name: the `@provides(fields:)` selection on the field's returned entity */
  provides: Record<string, string>;
}

export interface EntityPlacement {
  /** per subgraph name: the `@key(fields:)` selections it declares for the type, in SDL order */
  keys: Record<string, string[]>;
}

/** A composition of Federation v1 subgraphs, planned and executed by gw's own federation planner. */
export interface Supergraph {
  federation?: 1;
  /** the client-facing schema: federation directives, `_service`, `_entities`, `_Any` removed */
  schema: GraphQLSchema;
  /** `schema` printed; stored as the supergraph API's `merged_sdl` */
  sdl: string;
  subgraphs: SubgraphEndpoint[];
  /** object or interface type name → field name → where it is resolved */
  fields: Record<string, Record<string, FieldPlacement>>;
  /** entity type name → its keys per subgraph */
  entities: Record<string, EntityPlacement>;
}

/**
 * A composition with at least one Federation 2 subgraph (`@link`ed to federation/v2.x):
 * composed by `@theguild/federation-composition` into a supergraph SDL (the `join__` form every
 * Federation 2 gateway reads), executed by the stitching planner of `@graphql-tools/federation`.
 */
export interface Federation2Supergraph {
  federation: 2;
  /** the client-facing schema: `@inaccessible` parts and federation machinery removed */
  schema: GraphQLSchema;
  /** `schema` printed; stored as the supergraph API's `merged_sdl` */
  sdl: string;
  subgraphs: SubgraphEndpoint[];
  /** the supergraph SDL with its `join__` and `link__` directives: where every field is resolved */
  supergraphSdl: string;
}

export type ComposedSupergraph = Supergraph | Federation2Supergraph;

export function isFederation2(supergraph: ComposedSupergraph): supergraph is Federation2Supergraph {
  return supergraph.federation === 2;
}
