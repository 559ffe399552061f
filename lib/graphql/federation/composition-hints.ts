import type { GraphQLSchema } from 'graphql';
import { descriptionHints } from './hints-descriptions';
import { entityHints, overrideHints } from './hints-entities';
import { argumentHints, fieldTypeHints } from './hints-field-types';
import { executableDirectiveHints, unusedEnumHints } from './hints-unused';
import type { CompositionHint } from './hint-codes';
import { subgraphIndex, type HintSubgraph } from './hint-index';

/** Hints are kept on the API definition: a schema with thousands of inconsistencies keeps the first ones. */
export const MAX_HINTS = 100;

/**
 * The hints (at most MAX_HINTS) about subgraphs that composed into `supergraph` (the client
 * schema, which says what the supergraph uses where subgraphs differ). Pure and one pass over the
 * subgraphs' definitions, so it adds little to composition on save.
 */
export function compositionHints(subgraphs: readonly HintSubgraph[], supergraph: GraphQLSchema): CompositionHint[] {
  const index = subgraphIndex(subgraphs);
  return [
    ...fieldTypeHints(index, supergraph),
    ...argumentHints(index, supergraph),
    ...entityHints(index),
    ...overrideHints(index),
    ...descriptionHints(index, supergraph),
    ...unusedEnumHints(index),
    ...executableDirectiveHints(index),
  ].slice(0, MAX_HINTS);
}

export type { CompositionHint, HintCode } from './hint-codes';
