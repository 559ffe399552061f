import { Kind, parse, type EnumTypeDefinitionNode } from 'graphql';
import type { SubgraphEndpoint } from '../supergraph';

/**
 * The supergraph's subgraph endpoints keyed by their `join__Graph` enum value, the name the
 * Federation 2 planner gives each subgraph (`PRODUCTS`, `STOCK_ROOM_2` for "stock-room.2"):
 * the value's `@join__graph(name:)` is the entry's own name, which its endpoint is found by.
 */
export function endpointsByGraph(
  supergraphSdl: string,
  endpoints: readonly SubgraphEndpoint[],
): Map<string, SubgraphEndpoint> {
  const byName = new Map(endpoints.map((endpoint) => [endpoint.name, endpoint]));
  const graphs = parse(supergraphSdl).definitions.find(
    (definition): definition is EnumTypeDefinitionNode =>
      definition.kind === Kind.ENUM_TYPE_DEFINITION && definition.name.value === 'join__Graph',
  );
  const byGraph = new Map<string, SubgraphEndpoint>();
  for (const value of graphs?.values ?? []) {
    const name = value.directives
      ?.find((directive) => directive.name.value === 'join__graph')
      ?.arguments?.find((argument) => argument.name.value === 'name')?.value;
    const endpoint = name?.kind === Kind.STRING ? byName.get(name.value) : undefined;
    if (endpoint) byGraph.set(value.name.value, endpoint);
  }
  return byGraph;
}
