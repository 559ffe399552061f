import type { EntityPlacement, FieldPlacement, Federation2Supergraph, Supergraph } from '../supergraph';
import { readJoinSupergraph, type JoinSupergraph } from './join-directives';
import { graphsOf, ownersOf, resolvableKeys } from './join-ownership';
import { v1PlanObstacles } from './v1-plan-eligibility';

export type V1Derivation = { supergraph: Supergraph } | { obstacles: string[] };

/**
 * The v1 form (`Supergraph`) of a Federation 2 supergraph that uses nothing beyond what gw's own
 * planner plans correctly (v1-plan-eligibility), read from its `join__` directives: owners,
 * `@requires` and `@provides` per subgraph, resolvable keys per subgraph. Such a supergraph
 * then runs on gw's planner, which plans once per operation text and is several times cheaper
 * per request than the Federation 2 planner; any other gets the reasons it can not.
 */
export function v1SupergraphOf(federation2: Federation2Supergraph): V1Derivation {
  const join = readJoinSupergraph(federation2.supergraphSdl);
  const obstacles = v1PlanObstacles(
    join,
    federation2.schema,
    federation2.subgraphs.map((subgraph) => subgraph.name),
  );
  if (obstacles.length > 0) return { obstacles };
  const { fields, entities } = placementsOf(join);
  return {
    supergraph: {
      federation: 1,
      schema: federation2.schema,
      sdl: federation2.sdl,
      subgraphs: federation2.subgraphs,
      fields,
      entities,
    },
  };
}

function placementsOf(join: JoinSupergraph): Pick<Supergraph, 'fields' | 'entities'> {
  const nameOf = (graph: string) => join.graphNames.get(graph)!;
  const fields: Supergraph['fields'] = {};
  const entities: Supergraph['entities'] = {};
  for (const type of join.types.values()) {
    if (type.kind !== 'object' && type.kind !== 'interface') continue;
    const placements: Record<string, FieldPlacement> = {};
    for (const field of type.fields) {
      const placement: FieldPlacement = { resolvedBy: ownersOf(type, field).map(nameOf), requires: {}, provides: {} };
      for (const entry of field.entries) {
        if (entry.graph === undefined) continue;
        if (entry.requires !== undefined) placement.requires[nameOf(entry.graph)] = entry.requires;
        if (entry.provides !== undefined) placement.provides[nameOf(entry.graph)] = entry.provides;
      }
      placements[field.name] = placement;
    }
    fields[type.name] = placements;
    const keys: EntityPlacement['keys'] = {};
    for (const graph of graphsOf(type)) {
      const resolvable = resolvableKeys(type, graph);
      if (resolvable.length > 0) keys[nameOf(graph)] = resolvable;
    }
    if (Object.keys(keys).length > 0) entities[type.name] = { keys };
  }
  return { fields, entities };
}
