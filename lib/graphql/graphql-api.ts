import type { ApiDefinition } from '../../contracts/apis/api-definition';

/**
 * Whether a definition is a GraphQL API (`graphql.enabled`, or an execution mode set without
 * `enabled: false`). proxy asks it to know an API needs graphql-engine; the engine to compile it.
 */
export function isGraphqlApi(definition: ApiDefinition): boolean {
  const graphql = definition.graphql as { enabled?: boolean; execution_mode?: string } | undefined;
  return (
    Boolean(graphql) && graphql!.enabled !== false && (graphql!.enabled === true || Boolean(graphql!.execution_mode))
  );
}
