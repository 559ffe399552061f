import type { ApiDefinition } from '../../../contracts/apis/api-definition';

/** A change to one store definition: an `apis.changed` event, or a write this node just made. */
export type DefinitionChange =
  { action: 'created' | 'updated'; definition: ApiDefinition } | { action: 'deleted'; id: string; api_id?: string };

/**
 * The definitions a gateway node knows: those of the `apis` store (kept fresh by
 * `apis.changed`) and those of its own GW_APPS_DIR. A definition in the store wins over a
 * file with the same api_id.
 */
export class DefinitionRegistry {
  private fromStore = new Map<string, ApiDefinition>();
  private fromFiles: ApiDefinition[] = [];

  all(): ApiDefinition[] {
    const storeIds = new Set([...this.fromStore.values()].map((def) => def.api_id));
    return [...this.fromStore.values(), ...this.fromFiles.filter((def) => !storeIds.has(def.api_id))];
  }

  /**
   * A definition that did not change keeps its object, so the gateway reuses its compiled chain
   * (a re-sync does not recompile every API).
   */
  replaceStore(definitions: ApiDefinition[]): void {
    const previous = this.fromStore;
    this.fromStore = new Map(
      definitions.map((def) => {
        const known = previous.get(def.id);
        return [def.id, known && JSON.stringify(known) === JSON.stringify(def) ? known : def];
      }),
    );
  }

  replaceFiles(definitions: ApiDefinition[]): void {
    this.fromFiles = definitions;
  }

  upsert(definition: ApiDefinition): void {
    this.fromStore.set(definition.id, definition);
  }

  remove(id: string): boolean {
    return this.fromStore.delete(id);
  }

  /** Applies a change from the bus; one of the wrong shape is ignored (false), not thrown. */
  apply(event: DefinitionChange): boolean {
    if (!isApisChange(event)) return false;
    if (event.action === 'deleted') this.remove(event.id);
    else this.upsert(event.definition);
    return true;
  }
}

function isApisChange(event: unknown): event is DefinitionChange {
  if (!event || typeof event !== 'object') return false;
  const change = event as { action?: unknown; id?: unknown; definition?: { id?: unknown; api_id?: unknown } };
  if (change.action === 'deleted') return typeof change.id === 'string';
  if (change.action !== 'created' && change.action !== 'updated') return false;
  return (
    typeof change.definition === 'object' &&
    change.definition !== null &&
    typeof change.definition.id === 'string' &&
    typeof change.definition.api_id === 'string'
  );
}
