import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { subgraphWords, type CompositionHint } from './hint-codes';
import type { SubgraphIndex } from './hint-index';

/** Long descriptions are cut in the message; the author finds the whole one in the subgraph. */
const QUOTED_LENGTH = 80;

/**
 * INCONSISTENT_DESCRIPTION: a type, field, input field or enum value that two subgraphs describe
 * differently (a subgraph without a description does not count). Clients see one of them.
 */
export function descriptionHints(index: SubgraphIndex, supergraph: GraphQLSchema): CompositionHint[] {
  const hints: CompositionHint[] = [];
  for (const [type, bySubgraph] of index.types) {
    const typeHint = hintFor(
      `Type "${type}"`,
      [...bySubgraph].map(([subgraph, view]) => [subgraph, view.description]),
      supergraph.getType(type)?.description ?? undefined,
    );
    if (typeHint) hints.push({ ...typeHint, type });
    const fields = new Set([...bySubgraph.values()].flatMap((view) => [...view.fields.keys()]));
    for (const field of fields) {
      const fieldHint = hintFor(
        `Field "${type}.${field}"`,
        [...bySubgraph].map(([subgraph, view]) => [subgraph, view.fields.get(field)?.description]),
        supergraphDescription(supergraph, type, field),
      );
      if (fieldHint) hints.push({ ...fieldHint, type, field });
    }
  }
  return hints;
}

function hintFor(
  what: string,
  described: Array<[string, string | undefined]>,
  used: string | undefined,
): Omit<CompositionHint, 'type' | 'field'> | undefined {
  const present = described.filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (new Set(present.map(([, description]) => description)).size < 2) return undefined;
  const usedTrimmed = used?.trim();
  const bySubgraph = present
    .filter(([, description]) => description !== usedTrimmed)
    .map(([subgraph, description]) => `${subgraphWords([subgraph])} describes it as ${quoted(description)}`);
  const from = present.filter(([, description]) => description === usedTrimmed).map(([subgraph]) => subgraph);
  const uses = usedTrimmed
    ? `the supergraph uses ${quoted(usedTrimmed)}${from.length > 0 ? ` (from ${subgraphWords(from)})` : ''}; `
    : '';
  return {
    code: 'INCONSISTENT_DESCRIPTION',
    message: `${what} has inconsistent descriptions across subgraphs: ${uses}${bySubgraph.join('; ')}`,
    subgraphs: present.map(([subgraph]) => subgraph),
  };
}

function quoted(description: string): string {
  const line = description.replace(/\s+/g, ' ');
  return JSON.stringify(line.length > QUOTED_LENGTH ? `${line.slice(0, QUOTED_LENGTH - 1)}…` : line);
}

function supergraphDescription(supergraph: GraphQLSchema, type: string, field: string): string | undefined {
  const named = supergraph.getType(type);
  if (isObjectType(named) || isInterfaceType(named) || isInputObjectType(named))
    return named.getFields()[field]?.description ?? undefined;
  if (isEnumType(named)) return named.getValue(field)?.description ?? undefined;
  return undefined;
}
