import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { ApiLookup } from '../../../../contracts/graphql-engine/hand-off';
import { composeSupergraph } from '../../../../lib/graphql/federation/compose-supergraph';
import {
  entryReference,
  internalReference,
  isSubgraphApi,
  subgraphSdlOf,
  subgraphSourcesOf,
  supergraphSettingsOf,
  type SupergraphEntry,
} from '../../../../lib/graphql/federation/federated-definitions';
import type { ComposedSupergraph } from './supergraph';

/**
 * The supergraph of each supergraph API on this node, composed from the subgraph SDLs its
 * definition carries (the apis service copied them in on save; an entry without one, in a
 * definition file, takes its subgraph API's). A definition is composed once:
 * the result is kept per API with the inputs it came from and reused while they are the same.
 * When a new version does not compose (a definition that reached the node without the
 * management checks, from GW_APPS_DIR), the API keeps serving its last good composition.
 */
/** At most this many supergraph APIs' compositions kept per node (far more than one node serves). */
const MAX_SUPERGRAPHS = 10_000;

export class SupergraphCompiler {
  /** api_id → the last good composition and its inputs, oldest first */
  private readonly lastGood = new Map<string, { inputs: string; supergraph: ComposedSupergraph }>();

  constructor(private readonly warn: (message: string) => void = () => {}) {}

  supergraphOf(definition: ApiDefinition, lookup: ApiLookup | undefined): ComposedSupergraph {
    const entries = supergraphSettingsOf(definition).subgraphs ?? [];
    const sources = subgraphSourcesOf(definition, (entry) => subgraphUrl(entry, definition.org_id, lookup)).map(
      (source, index) =>
        source.sdl.trim() === ''
          ? { ...source, sdl: sdlOfSubgraphApi(entries[index], definition.org_id, lookup) ?? '' }
          : source,
    );
    const inputs = JSON.stringify(sources);
    const known = this.lastGood.get(definition.api_id);
    if (known?.inputs === inputs) return known.supergraph;
    const result = composeSupergraph(sources);
    if (result.ok) {
      // deleted supergraphs are never announced here: the oldest entries go once the map is full
      this.lastGood.delete(definition.api_id);
      this.lastGood.set(definition.api_id, { inputs, supergraph: result.supergraph });
      if (this.lastGood.size > MAX_SUPERGRAPHS) this.lastGood.delete(this.lastGood.keys().next().value!);
      return result.supergraph;
    }
    const problems = result.errors.map((error) => error.message).join('; ');
    if (!known) throw new Error(`its subgraphs do not compose: ${problems}`);
    this.warn(
      `API ${definition.api_id}: the new version of supergraph '${definition.name}' does not compose (${problems}); it keeps serving its last good composition`,
    );
    return known.supergraph;
  }
}

/** The SDL of the subgraph API an entry names, for an entry that carries none (a definition file written by hand). */
function sdlOfSubgraphApi(
  entry: SupergraphEntry | undefined,
  orgId: string,
  lookup: ApiLookup | undefined,
): string | undefined {
  const ref = entry && entryReference(entry);
  const api = ref ? lookup?.(ref, orgId) : undefined;
  return api && isSubgraphApi(api) ? subgraphSdlOf(api) : undefined;
}

/**
 * Where the gateway fetches a subgraph: an http(s) URL as written; `gw://<name or id>` is the
 * subgraph API of the same organisation, reached at its target (subgraphs are internal).
 */
function subgraphUrl(entry: SupergraphEntry, orgId: string, lookup: ApiLookup | undefined): string {
  const ref = internalReference(entry.url) ?? (entry.url ? undefined : entry.api_id);
  if (ref === undefined) return entry.url ?? '';
  const api = (entry.api_id ? lookup?.(entry.api_id, orgId) : undefined) ?? lookup?.(ref, orgId);
  if (!api)
    throw new Error(`subgraph '${entry.name ?? ref}' names API '${ref}', which this gateway does not know (yet)`);
  return api.proxy.target_url;
}
