import { subgraphWords, type CompositionHint } from './hint-codes';
import type { SubgraphIndex } from './hint-index';

/** UNUSED_ENUM_TYPE: an enum no field, argument or input field of any subgraph refers to. */
export function unusedEnumHints(index: SubgraphIndex): CompositionHint[] {
  const hints: CompositionHint[] = [];
  for (const [type, bySubgraph] of index.types) {
    const defining = [...bySubgraph].filter(([, view]) => view.kind === 'enum').map(([subgraph]) => subgraph);
    if (defining.length === 0 || index.referencedTypes.has(type)) continue;
    hints.push({
      code: 'UNUSED_ENUM_TYPE',
      message: `Enum type "${type}" is defined in ${subgraphWords(defining)} but no field, argument or input field of any subgraph uses it`,
      subgraphs: defining,
      type,
    });
  }
  return hints;
}

/**
 * INCONSISTENT_EXECUTABLE_DIRECTIVE_PRESENCE: a directive clients may put in operations that
 * only some subgraphs define. Both of gw's composers keep it in the supergraph, so a client may
 * send it, but the subgraphs without it do not know it.
 */
export function executableDirectiveHints(index: SubgraphIndex): CompositionHint[] {
  const hints: CompositionHint[] = [];
  for (const [directive, bySubgraph] of index.executableDirectives) {
    const missing = index.subgraphs.filter((subgraph) => !bySubgraph.has(subgraph));
    if (missing.length === 0) continue;
    const defining = [...bySubgraph.keys()];
    hints.push({
      code: 'INCONSISTENT_EXECUTABLE_DIRECTIVE_PRESENCE',
      message: `Executable directive "@${directive}" is defined in ${subgraphWords(defining)} but not in ${subgraphWords(missing)}: the supergraph accepts it in operations, but ${subgraphWords(missing)} do${missing.length === 1 ? 'es' : ''} not know it`,
      subgraphs: [...defining, ...missing],
    });
  }
  return hints;
}
