import { subgraphWords, type CompositionHint } from './hint-codes';
import type { SubgraphIndex } from './hint-index';

/**
 * INCONSISTENT_ENTITY: an object type with a `@key` in some of the subgraphs declaring it and
 * none in others. The keyless subgraphs cannot be reached through `_entities`, so a field only
 * they resolve is answered only where they return the object themselves.
 */
export function entityHints(index: SubgraphIndex): CompositionHint[] {
  const hints: CompositionHint[] = [];
  for (const [type, bySubgraph] of index.types) {
    const objects = [...bySubgraph].filter(([, view]) => view.kind === 'object');
    const keyed = objects.filter(([, view]) => view.keyed).map(([subgraph]) => subgraph);
    const keyless = objects.filter(([, view]) => !view.keyed).map(([subgraph]) => subgraph);
    if (keyed.length === 0 || keyless.length === 0) continue;
    hints.push({
      code: 'INCONSISTENT_ENTITY',
      message: `Type "${type}" is declared as an entity (has a @key applied) in some but not all defining subgraphs: it has no @key in ${subgraphWords(keyless)} but has one in ${subgraphWords(keyed)}`,
      subgraphs: [...keyed, ...keyless],
      type,
    });
  }
  return hints;
}

/**
 * FROM_SUBGRAPH_DOES_NOT_EXIST (`@override(from:)` names no subgraph of the supergraph) and
 * OVERRIDE_DIRECTIVE_CAN_BE_REMOVED (the subgraph it names no longer declares the field, so
 * there is nothing left to take over).
 */
export function overrideHints(index: SubgraphIndex): CompositionHint[] {
  const subgraphs = new Set(index.subgraphs);
  const hints: CompositionHint[] = [];
  for (const [type, bySubgraph] of index.types)
    for (const [subgraph, view] of bySubgraph)
      for (const [field, declared] of view.fields) {
        const from = declared.overrideFrom;
        if (from === undefined || from === subgraph) continue;
        const coordinate = `"${type}.${field}" on subgraph "${subgraph}"`;
        if (!subgraphs.has(from))
          hints.push({
            code: 'FROM_SUBGRAPH_DOES_NOT_EXIST',
            message: `Source subgraph "${from}" for field ${coordinate} does not exist: the supergraph has no subgraph of that name, so @override(from: "${from}") overrides nothing`,
            subgraphs: [subgraph],
            type,
            field,
          });
        else if (!bySubgraph.get(from)?.fields.has(field))
          hints.push({
            code: 'OVERRIDE_DIRECTIVE_CAN_BE_REMOVED',
            message: `Field ${coordinate} no longer exists in the from subgraph "${from}": the @override directive can be removed`,
            subgraphs: [subgraph, from],
            type,
            field,
          });
      }
  return hints;
}
