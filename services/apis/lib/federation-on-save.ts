import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { isSubgraphApi, isSupergraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { ApisErrors } from '../errors';
import type { ApiStore, StoredApi } from './api-store';
import { composedSupergraph, preparedSubgraph, usesSubgraph } from './supergraph-composition';

/**
 * Federation in the apis service: what a save of a subgraph or supergraph API checks and
 * computes, and which supergraphs a subgraph change (or deletion) affects.
 */
export class FederationOnSave {
  constructor(
    private readonly store: ApiStore,
    private readonly now: () => number,
  ) {}

  /**
   * Federation on save: a subgraph's SDL must be valid on its own; a supergraph is composed from
   * its subgraphs (merged_sdl), or refused with every composition error.
   */
  async prepared(definition: ApiDefinition): Promise<ApiDefinition> {
    if (isSubgraphApi(definition)) return preparedSubgraph(definition);
    if (isSupergraphApi(definition))
      return composedSupergraph(definition, (ref, orgId) => this.store.findInOrg(ref, orgId));
    return definition;
  }

  /** The supergraphs of the subgraph's organisation that name it. */
  async supergraphsUsing(subgraph: ApiDefinition): Promise<StoredApi[]> {
    const { items } = await this.store.list({ orgScope: subgraph.org_id }, { offset: 0 });
    return items.filter((api) => api.definition.id !== subgraph.id && usesSubgraph(api.definition, subgraph));
  }

  /**
   * A subgraph changed: every supergraph that uses it is composed again with the new version,
   * to be stored with it. One that no longer composes refuses the change, listing its errors.
   */
  async recomposedDependents(previous: ApiDefinition, next: ApiDefinition): Promise<StoredApi[]> {
    if (!isSubgraphApi(previous) && !isSubgraphApi(next)) return [];
    const find = async (ref: string, orgId: string) =>
      (await this.store.findInOrg(ref, orgId))
        .filter((api) => api.id !== next.id)
        .concat([next].filter((api) => api.org_id === orgId && [api.id, api.api_id, api.name].includes(ref)));
    const problems: string[] = [];
    const failed: string[] = [];
    const updated: StoredApi[] = [];
    for (const dependent of await this.supergraphsUsing(previous)) {
      try {
        const definition = await composedSupergraph(dependent.definition, find);
        if (JSON.stringify(definition) !== JSON.stringify(dependent.definition))
          updated.push({ ...dependent, definition, updated_at: this.now() });
      } catch (err) {
        const errors = ((err as { data?: { errors?: string[] } }).data?.errors ?? [(err as Error).message]).map(
          (problem) => `Supergraph '${dependent.definition.name}': ${problem}`,
        );
        problems.push(...errors);
        failed.push(dependent.definition.name);
      }
    }
    if (problems.length > 0) throw ApisErrors.federationFailed(failed.join("', '"), problems);
    return updated;
  }
}
