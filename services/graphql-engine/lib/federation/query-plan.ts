import type { DirectiveNode } from 'graphql';
import type { ClientOperation } from './client-operation';
import type { FieldSetNode } from './field-set';

/** One request to one subgraph. */
export interface PlannedFetch {
  id: number;
  subgraph: string;
  /** the query text sent (for an entity fetch it takes `$representations`) */
  query: string;
  /** the client's variables the query uses */
  variables: string[];
  /** fetches whose results this one needs (its entities, their required fields) */
  dependsOn: number[];
  /** response keys of the fields this fetch answers, set to null when it fails */
  ownedKeys: string[];
  /** for a root fetch: the `@skip`/`@include` of each root field it answers; skipped when none is included */
  rootConditions?: ReadonlyArray<readonly DirectiveNode[]>;
  /** for an `_entities` fetch: where its entities are and what represents them */
  entity?: EntityTarget;
}

export interface EntityTarget {
  /** the concrete entity type fetched */
  typeName: string;
  /** response keys from `data` to the objects (lists are walked through) */
  path: string[];
  /** the key and `@requires` fields sent with `__typename` */
  representation: FieldSetNode[];
  /**
   * the fields of `representation` the schema declares non-null: an entity without a value for
   * one (the fetch that was to answer it failed) is not sent, as @apollo/gateway does
   */
  nonNull: string[];
}

/** How an operation is answered; built once per operation text and cached. */
export interface QueryPlan {
  operation: ClientOperation;
  /** in an order where every fetch comes after those it depends on; for a subscription, fetch 0 is the stream */
  fetches: PlannedFetch[];
  /** `__schema` / `__type` at the root: answered by the gateway from the supergraph schema */
  introspection: boolean;
}
