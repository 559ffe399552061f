import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GraphqlCompileContext } from '../../../../contracts/graphql-engine/hand-off';
import { composeSupergraph } from '../../../../lib/graphql/federation/compose-supergraph';
import { entryReference, subgraphSourcesOf, type SupergraphEntry } from '../../../../lib/graphql/federation/federated-definitions';
import type { Supergraph } from './supergraph';

/**
 * The supergraph of a supergraph API, composed on this node from the subgraph entries the
 * management server stored (it refused any set that does not compose, so a failure here means
 * a definition written by hand: the API is then not served, with every error in the log).
 * A `gw://` subgraph (a subgraph API of this node) is fetched at that API's target URL.
 */
export function supergraphOfDefinition(definition: ApiDefinition, context: GraphqlCompileContext | undefined): Supergraph {
  const result = composeSupergraph(subgraphSourcesOf(definition, (entry) => urlOf(entry, context)));
  if (!result.ok) throw new Error(`its subgraphs do not compose: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.supergraph;
}

function urlOf(entry: SupergraphEntry, context: GraphqlCompileContext | undefined): string {
  if (/^https?:\/\//i.test(entry.url ?? '')) return entry.url!;
  const ref = entryReference(entry);
  const subgraph = ref ? context?.definitionOf(ref) : undefined;
  const target = subgraph?.proxy?.target_url;
  if (!target) throw new Error(`subgraph '${entry.name ?? ref}': the subgraph API '${ref ?? entry.url}' is not known on this node`);
  return target;
}
