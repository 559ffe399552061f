import { buildASTSchema, printSchema, validateSchema, type DirectiveDefinitionNode, type GraphQLSchema } from 'graphql';
import { compositionError, type CompositionError } from './composition-errors';
import { compositionHints, type CompositionHint } from './composition-hints';
import { baseLookup, groupTypes } from './declarations';
import { directiveErrors } from './directive-rules';
import { parseSubgraph, type ParsedSubgraph } from './subgraph-sdl';
import { buildMergedGraph } from './supergraph-builder';
import { composeFederation2 } from './compose-federation2';
import { federationVersionOf } from './federation-version';
import type { ComposedSupergraph, SubgraphEndpoint, SubscriptionTransport } from './supergraph';
import { typeGroupErrors } from './type-rules';

/** One subgraph of a supergraph: `graphql.supergraph.subgraphs[]` with its URL resolved. */
export interface SubgraphSource {
  /** its name in the supergraph, unique there */
  name: string;
  /** its SDL: Federation v1 (`@key`, `extend type`, `@external`, …) or Federation 2 (`@link`ed) */
  sdl: string;
  url: string;
  headers?: Record<string, string>;
  subscriptionType?: SubscriptionTransport;
}

export type CompositionResult =
  { ok: true; supergraph: ComposedSupergraph; hints: CompositionHint[] } | { ok: false; errors: CompositionError[] };

export interface CompositionOptions {
  /**
   * Compute the composition hints (composition-hints.ts): on save, where the author sees them;
   * a gateway node loading the supergraph has no use for them.
   * @default false
   */
  hints?: boolean;
}

/**
 * Composes subgraphs into a supergraph. When every subgraph is written for Federation v1, gw's
 * own composition and planner serve it (the fast path); once one subgraph `@link`s Federation 2,
 * the whole supergraph is composed and planned as Federation 2 (compose-federation2).
 */
export function composeSupergraph(
  subgraphs: readonly SubgraphSource[],
  options: CompositionOptions = {},
): CompositionResult {
  const nameErrors = subgraphNameErrors(subgraphs);
  if (nameErrors.length > 0) return { ok: false, errors: nameErrors };
  if (subgraphs.some((source) => federationVersionOf(source.sdl) === 2))
    return composeFederation2(subgraphs, endpointOf, options);
  return composeFederation1(subgraphs, options);
}

/**
 * Composes federation v1 subgraphs into a supergraph (docs/federation.md#composition-rules).
 * Pure: the same subgraphs give the same result. Every rule is checked and every error returned,
 * so a schema author sees all of them at once; a subgraph whose SDL is invalid on its own stops
 * the cross-subgraph rules (they would only repeat its problems).
 */
function composeFederation1(subgraphs: readonly SubgraphSource[], options: CompositionOptions): CompositionResult {
  const parsed: ParsedSubgraph[] = [];
  const sdlErrors: CompositionError[] = [];
  for (const source of subgraphs) {
    const result = parseSubgraph(source.name, source.sdl);
    if (result.errors) sdlErrors.push(...result.errors);
    else parsed.push(result.subgraph);
  }
  if (sdlErrors.length > 0) return { ok: false, errors: sdlErrors };

  const groups = groupTypes(parsed);
  const lookup = baseLookup(groups);
  const errors = [
    ...[...groups.values()].flatMap((group) => typeGroupErrors(group, lookup)),
    ...parsed.flatMap((subgraph) => directiveErrors(subgraph, groups)),
  ];
  if (errors.length > 0) return { ok: false, errors };

  const merged = buildMergedGraph(groups, uniqueDirectives(parsed));
  const built = buildSchemaOf(merged.document);
  if ('errors' in built) return { ok: false, errors: built.errors };
  return {
    ok: true,
    supergraph: {
      schema: built.schema,
      sdl: printSchema(built.schema),
      subgraphs: subgraphs.map(endpointOf),
      fields: merged.fields,
      entities: merged.entities,
    },
    hints: options.hints
      ? compositionHints(
          parsed.map((subgraph) => ({ name: subgraph.name, typeDefs: subgraph.document })),
          built.schema,
        )
      : [],
  };
}

function subgraphNameErrors(subgraphs: readonly SubgraphSource[]): CompositionError[] {
  if (subgraphs.length === 0)
    return [
      compositionError(
        'INVALID_SUPERGRAPH',
        'A supergraph needs at least one subgraph (graphql.supergraph.subgraphs is empty)',
        { subgraphs: [] },
      ),
    ];
  const seen = new Set<string>();
  const errors: CompositionError[] = [];
  for (const { name } of subgraphs) {
    if (!name.trim())
      errors.push(
        compositionError(
          'INVALID_SUPERGRAPH',
          'Every subgraph of a supergraph needs a name (graphql.supergraph.subgraphs[].name)',
          { subgraphs: [] },
        ),
      );
    else if (seen.has(name))
      errors.push(
        compositionError(
          'INVALID_SUPERGRAPH',
          `Two subgraphs of the supergraph are named '${name}'; subgraph names must be unique`,
          { subgraphs: [name] },
        ),
      );
    seen.add(name);
  }
  return errors;
}

function uniqueDirectives(subgraphs: readonly ParsedSubgraph[]): DirectiveDefinitionNode[] {
  const byName = new Map<string, DirectiveDefinitionNode>();
  for (const subgraph of subgraphs)
    for (const directive of subgraph.executableDirectives)
      if (!byName.has(directive.name.value)) byName.set(directive.name.value, directive);
  return [...byName.values()];
}

function buildSchemaOf(
  document: Parameters<typeof buildASTSchema>[0],
): { schema: GraphQLSchema } | { errors: CompositionError[] } {
  const fail = (message: string) => ({
    errors: [
      compositionError('INVALID_SUPERGRAPH', `The composed supergraph is not a valid schema: ${message}`, {
        subgraphs: [],
      }),
    ],
  });
  try {
    const schema = buildASTSchema(document);
    const problems = validateSchema(schema);
    return problems.length > 0 ? { errors: problems.map((problem) => fail(problem.message).errors[0]) } : { schema };
  } catch (err) {
    return fail((err as Error).message);
  }
}

function endpointOf(source: SubgraphSource): SubgraphEndpoint {
  return {
    name: source.name,
    url: source.url,
    headers: { ...(source.headers ?? {}) },
    subscriptionType: source.subscriptionType ?? 'graphql-ws',
  };
}
