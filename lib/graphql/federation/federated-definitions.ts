import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { SubgraphSource } from './compose-supergraph';
import type { CompositionHint } from './composition-hints';
import type { SubscriptionTransport } from './supergraph';

/**
 * How federation lives in an API definition, as the reference gateway stores it:
 * - a subgraph API: `graphql.execution_mode: "subgraph"`, `graphql.schema` and
 *   `graphql.subgraph.sdl` (the SDL with federation directives);
 * - a supergraph API: `graphql.execution_mode: "supergraph"`, `graphql.supergraph.subgraphs[]`
 *   of `{api_id, name, url, sdl, headers, subscription_type}`, `merged_sdl` and
 *   `composition_hints` (computed on save), `global_headers` and `disable_query_batching`.
 */
export interface SupergraphEntry {
  /** the subgraph API this entry stands for; empty for a subgraph outside gw */
  api_id?: string;
  name?: string;
  /** `http(s)://…`, or `gw://<api name or id>` for a subgraph API of the same organisation */
  url?: string;
  sdl?: string;
  headers?: Record<string, string>;
  subscription_type?: string;
}

export interface SupergraphSettings {
  subgraphs?: SupergraphEntry[];
  merged_sdl?: string;
  /** the hints of the last composition (gw's own field; the reference gateway has no hints) */
  composition_hints?: CompositionHint[];
  global_headers?: Record<string, string>;
  disable_query_batching?: boolean;
  [field: string]: unknown;
}

const INTERNAL_SCHEME = 'gw://';

export function executionModeOf(definition: ApiDefinition): string | undefined {
  const graphql = definition.graphql as { execution_mode?: unknown } | undefined;
  return typeof graphql?.execution_mode === 'string' ? graphql.execution_mode : undefined;
}

export function isSubgraphApi(definition: ApiDefinition): boolean {
  return executionModeOf(definition) === 'subgraph';
}

export function isSupergraphApi(definition: ApiDefinition): boolean {
  return executionModeOf(definition) === 'supergraph';
}

/** A supergraph API's hints from its last composition; undefined for any other API. */
export function compositionHintsOf(definition: ApiDefinition): CompositionHint[] | undefined {
  if (!isSupergraphApi(definition)) return undefined;
  const hints = supergraphSettingsOf(definition).composition_hints;
  return Array.isArray(hints) ? hints : [];
}

/**
 * An internal API is not served on its listen path; other APIs reach it by reference
 * (`internal`, as in the reference gateway). Subgraphs are internal unless they say
 * `internal: false` (the reference gateway's default from 4.0).
 */
export function isInternalApi(definition: ApiDefinition): boolean {
  return definition.internal === true || (isSubgraphApi(definition) && definition.internal !== false);
}

/** A subgraph API's federation SDL: `graphql.subgraph.sdl`, else `graphql.schema`. */
export function subgraphSdlOf(definition: ApiDefinition): string | undefined {
  const graphql = (definition.graphql ?? {}) as { schema?: unknown; subgraph?: { sdl?: unknown } };
  const sdl = graphql.subgraph?.sdl;
  if (typeof sdl === 'string' && sdl.trim() !== '') return sdl;
  return typeof graphql.schema === 'string' && graphql.schema.trim() !== '' ? graphql.schema : undefined;
}

export function supergraphSettingsOf(definition: ApiDefinition): SupergraphSettings {
  const settings = (definition.graphql as { supergraph?: unknown } | undefined)?.supergraph;
  return settings && typeof settings === 'object' ? (settings as SupergraphSettings) : {};
}

/** `gw://products` → `products`; undefined for any other URL. */
export function internalReference(url: string | undefined): string | undefined {
  if (!url || !url.toLowerCase().startsWith(INTERNAL_SCHEME)) return undefined;
  const ref = url.slice(INTERNAL_SCHEME.length).replace(/\/+$/, '');
  return ref === '' ? undefined : decodeURIComponent(ref);
}

export function internalUrl(apiId: string): string {
  return `${INTERNAL_SCHEME}${apiId}`;
}

/** The subgraph API an entry stands for: its `api_id`, else the name or id in its `gw://` URL. */
export function entryReference(entry: SupergraphEntry): string | undefined {
  return entry.api_id || internalReference(entry.url);
}

export function subscriptionTransportOf(value: unknown): SubscriptionTransport {
  return value === 'graphql-transport-ws' || value === 'sse' ? value : 'graphql-ws';
}

/**
 * The composition input of a supergraph definition, its entries as stored (the SDL of each
 * copied from its subgraph API on save). `urlOf` turns an entry's URL into the one to fetch.
 */
export function subgraphSourcesOf(
  definition: ApiDefinition,
  urlOf: (entry: SupergraphEntry) => string = (entry) => entry.url ?? '',
): SubgraphSource[] {
  return (supergraphSettingsOf(definition).subgraphs ?? []).map((entry) => ({
    name: entry.name ?? '',
    sdl: entry.sdl ?? '',
    url: urlOf(entry),
    headers: { ...(entry.headers ?? {}) },
    subscriptionType: subscriptionTransportOf(entry.subscription_type),
  }));
}
