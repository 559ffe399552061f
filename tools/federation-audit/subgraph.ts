import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLSchema } from 'graphql';

/** What the vendored suites' `createSubgraph` gives the runner: a name, its SDL and a schema to execute. */
export interface AuditSubgraph {
  name: string;
  typeDefs: string;
  schema(): GraphQLSchema;
}

/**
 * gw's stand-in for the audit's `src/subgraph.ts`: the same signature, but served by the runner over
 * node:http with graphql-js instead of graphql-yoga. The schema is built on first use, as in the audit.
 */
export function createSubgraph(name: string, parameters: { typeDefs: string; resolvers: unknown }): AuditSubgraph {
  let schema: GraphQLSchema | undefined;
  return {
    name,
    typeDefs: parameters.typeDefs,
    schema: () =>
      (schema ??= buildSubgraphSchema([
        { typeDefs: parse(parameters.typeDefs), resolvers: parameters.resolvers as never },
      ])),
  };
}
