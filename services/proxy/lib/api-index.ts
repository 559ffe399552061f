import type { ApiDefinition } from '../../../contracts/apis/api-definition';

/**
 * The definitions of a node by organisation and internal id, api_id or name, for APIs that
 * name others (a supergraph's `gw://` subgraphs). Ids win over names; of two APIs with one
 * name, the first listed wins.
 */
export class ApiIndex {
  private readonly byRef = new Map<string, ApiDefinition>();

  constructor(definitions: readonly ApiDefinition[]) {
    for (const definition of definitions) {
      this.byRef.set(key(definition.org_id, definition.id), definition);
      this.byRef.set(key(definition.org_id, definition.api_id), definition);
    }
    for (const definition of definitions) {
      const byName = key(definition.org_id, definition.name);
      if (!this.byRef.has(byName)) this.byRef.set(byName, definition);
    }
  }

  find(ref: string, orgId: string): ApiDefinition | undefined {
    return this.byRef.get(key(orgId, ref));
  }
}

function key(orgId: string | undefined, ref: string): string {
  return `${orgId ?? ''}\u0000${ref}`;
}
