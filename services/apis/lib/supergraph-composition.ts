import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { composeSupergraph } from '../../../lib/graphql/federation/compose-supergraph';
import {
  entryReference,
  internalReference,
  internalUrl,
  isSubgraphApi,
  isSupergraphApi,
  subgraphSdlOf,
  subgraphSourcesOf,
  supergraphSettingsOf,
  type SupergraphEntry,
} from '../../../lib/graphql/federation/federated-definitions';
import { federation2SubgraphErrors } from '../../../lib/graphql/federation/compose-federation2';
import type { CompositionError } from '../../../lib/graphql/federation/composition-errors';
import { ownDirectiveErrors } from '../../../lib/graphql/federation/directive-rules';
import { federationVersionOf } from '../../../lib/graphql/federation/federation-version';
import { parseSubgraph } from '../../../lib/graphql/federation/subgraph-sdl';
import { ApisErrors } from '../errors';

/** The APIs of one organisation whose internal id, api_id or name is `ref`. */
export type FindInOrg = (ref: string, orgId: string) => Promise<ApiDefinition[]>;

/**
 * Resolves a supergraph's entries against the subgraph APIs of its own organisation (by
 * `api_id`, or the name or id in a `gw://` URL), copies each subgraph's SDL into its entry,
 * composes, and returns the definition with `merged_sdl` (and `graphql.schema`, which clients
 * are validated against) and the composition's hints (`composition_hints`) set. Throws a 400 listing every error; nothing is changed then.
 */
export async function composedSupergraph(definition: ApiDefinition, find: FindInOrg): Promise<ApiDefinition> {
  const settings = supergraphSettingsOf(definition);
  if (!Array.isArray(settings.subgraphs))
    throw ApisErrors.federationFailed(definition.name, ['graphql.supergraph.subgraphs must be a list of subgraphs']);
  const problems: string[] = [];
  const entries: SupergraphEntry[] = [];
  for (const [index, entry] of settings.subgraphs.entries()) {
    const resolved = await resolveEntry(entry ?? {}, index, definition.org_id, find);
    if (typeof resolved === 'string') problems.push(resolved);
    else entries.push(resolved);
  }
  if (problems.length > 0) throw ApisErrors.federationFailed(definition.name, problems);
  const graphql = definition.graphql as Record<string, unknown>;
  const candidate = { ...definition, graphql: { ...graphql, supergraph: { ...settings, subgraphs: entries } } };
  const result = composeSupergraph(subgraphSourcesOf(candidate), { hints: true });
  if (!result.ok)
    throw ApisErrors.federationFailed(
      definition.name,
      result.errors.map((error) => error.message),
    );
  return {
    ...candidate,
    graphql: {
      ...candidate.graphql,
      schema: result.supergraph.sdl,
      supergraph: {
        ...candidate.graphql.supergraph,
        merged_sdl: result.supergraph.sdl,
        composition_hints: result.hints,
      },
    },
  };
}

/** The entry with its subgraph API's id and SDL, or why it can not be used. */
async function resolveEntry(
  entry: SupergraphEntry,
  index: number,
  orgId: string,
  find: FindInOrg,
): Promise<SupergraphEntry | string> {
  const ref = entryReference(entry);
  const label = `Subgraph '${entry.name || ref || `#${index + 1}`}'`;
  if (!ref) {
    if (!/^https?:\/\//i.test(entry.url ?? ''))
      return `${label}: url '${entry.url ?? ''}' is neither http(s)://… nor gw://<API name or id>, and no api_id names a subgraph API`;
    if (!entry.sdl?.trim())
      return `${label}: a subgraph outside gw needs its SDL in graphql.supergraph.subgraphs[].sdl`;
    if (!entry.name) return `${label}: every subgraph needs a name`;
    return entry;
  }
  const found = await find(ref, orgId);
  if (found.length === 0) return `${label}: there is no API '${ref}' in your organisation`;
  if (found.length > 1)
    return `${label}: several APIs of your organisation are named '${ref}'; refer to the subgraph by its api_id`;
  const [api] = found;
  if (!isSubgraphApi(api))
    return `${label}: API '${api.name}' is not a subgraph (its graphql.execution_mode is not "subgraph")`;
  const sdl = subgraphSdlOf(api);
  if (!sdl) return `${label}: subgraph API '${api.name}' has no SDL (graphql.subgraph.sdl)`;
  return {
    ...entry,
    api_id: api.api_id,
    name: entry.name || api.name,
    url: entry.url || internalUrl(api.api_id),
    sdl,
    headers: entry.headers ?? {},
    subscription_type: entry.subscription_type ?? 'graphql-ws',
  };
}

/**
 * A subgraph API's SDL must parse, be valid on its own and use its federation directives rightly
 * (the rules of the federation version it links); `internal` defaults to true.
 */
export function preparedSubgraph(definition: ApiDefinition): ApiDefinition {
  const sdl = subgraphSdlOf(definition);
  if (!sdl) throw ApisErrors.invalid('A subgraph API needs its SDL in graphql.subgraph.sdl (or graphql.schema)');
  const errors = subgraphSdlErrors(definition.name, sdl);
  if (errors.length > 0) throw ApisErrors.invalidSchema(errors.map((error) => error.message));
  return definition.internal === undefined ? { ...definition, internal: true } : definition;
}

function subgraphSdlErrors(name: string, sdl: string): CompositionError[] {
  if (federationVersionOf(sdl) === 2) return federation2SubgraphErrors(name, sdl);
  const parsed = parseSubgraph(name, sdl);
  return parsed.errors ?? ownDirectiveErrors(parsed.subgraph);
}

/** Whether a supergraph's entry stands for this subgraph API. */
export function usesSubgraph(
  supergraph: ApiDefinition,
  subgraph: Pick<ApiDefinition, 'id' | 'api_id' | 'name'>,
): boolean {
  if (!isSupergraphApi(supergraph)) return false;
  return (supergraphSettingsOf(supergraph).subgraphs ?? []).some((entry) => {
    if (entry?.api_id) return entry.api_id === subgraph.api_id || entry.api_id === subgraph.id;
    const ref = internalReference(entry?.url);
    return ref !== undefined && [subgraph.api_id, subgraph.id, subgraph.name].includes(ref);
  });
}
