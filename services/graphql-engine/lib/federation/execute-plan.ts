import { isIncluded } from './conditions';
import { addedAlias, pickFieldSet } from './field-set';
import { deepMerge, locatedObjectsAt, objectsAt } from './merge-results';
import type { PlannedFetch, QueryPlan } from './query-plan';
import { fetchTraced, type GraphqlError, type SubgraphFetcher, type SubgraphResponse } from './subgraph-client';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';
import type { SubgraphEndpoint } from './supergraph';

export interface ExecutionInput {
  plan: QueryPlan;
  subgraphs: Map<string, SubgraphEndpoint>;
  variables: Record<string, unknown>;
  /** the supergraph's global headers for this request, sent to every subgraph it touches */
  headers: Record<string, string>;
  fetcher: SubgraphFetcher;
  /** the request's trace, when traced: each subgraph fetch is a span of it */
  trace?: OutboundTrace;
  /** false (`disable_query_batching`): one `_entities` call per entity instead of one per type and level */
  batching?: boolean;
  /** a subscription event: the answer of fetch 0 (the stream), the rest is fetched per event */
  rootResult?: SubgraphResponse;
}

export interface RawResult {
  data: Record<string, unknown>;
  errors: GraphqlError[];
}

/**
 * Runs a plan: each fetch starts as soon as the fetches it depends on are done, so independent
 * fetches run in parallel. Answers are merged into one tree (client's response keys, plus the
 * key fields the plan added); subgraph errors keep their meaning with paths rewritten from
 * `_entities` to where the entity sits in the client's response. A fetch that fails nulls only
 * the fields it owns.
 */
export async function executePlan(input: ExecutionInput): Promise<RawResult> {
  const result: RawResult = { data: {}, errors: [] };
  const finished: Array<Promise<void>> = [];
  for (const fetch of input.plan.fetches) {
    const before = fetch.dependsOn.map((id) => finished[id]);
    finished[fetch.id] = (before.length > 0 ? Promise.all(before) : Promise.resolve()).then(() =>
      runFetch(input, fetch, result),
    );
  }
  await Promise.all(finished);
  return result;
}

async function runFetch(input: ExecutionInput, fetch: PlannedFetch, result: RawResult): Promise<void> {
  if (fetch.id === 0 && input.rootResult) return mergeRoot(fetch, input.rootResult, result);
  const endpoint = input.subgraphs.get(fetch.subgraph)!;
  const variables: Record<string, unknown> = {};
  for (const name of fetch.variables) if (input.variables[name] !== undefined) variables[name] = input.variables[name];
  if (!fetch.entity) {
    if (
      fetch.rootConditions &&
      !fetch.rootConditions.some((directives) => directives.length === 0 || isIncluded(directives, input.variables))
    )
      return;
    const response = await send(input, endpoint, fetch, variables, result);
    if (response) mergeRoot(fetch, response, result);
    else for (const key of fetch.ownedKeys) result.data[key] ??= null;
    return;
  }
  const targets = objectsAt(result.data, fetch.entity.path, fetch.entity.typeName);
  if (targets.length === 0) return;
  // one representation per distinct entity; every object of that entity gets the answer
  const indexOf = new Map<string, number>();
  const representations: Array<Record<string, unknown>> = [];
  const slots: number[] = [];
  for (const target of targets) {
    // an entity whose non-null key or required field did not come back from its fetch is not sent
    if (fetch.entity.nonNull.some((key) => target[key] == null && target[addedAlias(key)] == null)) {
      slots.push(-1);
      continue;
    }
    const representation: Record<string, unknown> = { __typename: fetch.entity.typeName };
    pickFieldSet(target, fetch.entity.representation, representation);
    const text = JSON.stringify(representation);
    let slot = indexOf.get(text);
    if (slot === undefined) {
      slot = representations.push(representation) - 1;
      indexOf.set(text, slot);
    }
    slots.push(slot);
  }
  if (representations.length === 0) {
    for (const target of targets) for (const key of fetch.ownedKeys) target[key] ??= null;
    return;
  }
  const firstPath = () => locatedObjectsAt(result.data, fetch.entity!.path, fetch.entity!.typeName)[0]?.path ?? [];
  const response =
    input.batching === false && representations.length > 1
      ? await sendOneByOne(input, endpoint, fetch, variables, representations, result, firstPath)
      : await send(input, endpoint, fetch, { ...variables, representations }, result, firstPath);
  const entities = response?.data?._entities;
  targets.forEach((target, i) => {
    const entity = Array.isArray(entities) ? entities[slots[i]] : undefined;
    if (entity && typeof entity === 'object') deepMerge(target, entity as Record<string, unknown>);
    else for (const key of fetch.ownedKeys) target[key] ??= null;
  });
  if (response?.errors?.length) {
    const paths = locatedObjectsAt(result.data, fetch.entity.path, fetch.entity.typeName).map((t) => t.path);
    for (const error of response.errors) result.errors.push(relocate(error, slots, paths));
  }
}

async function send(
  input: ExecutionInput,
  endpoint: SubgraphEndpoint,
  fetch: PlannedFetch,
  variables: Record<string, unknown>,
  result: RawResult,
  at: () => Array<string | number> = () => [],
): Promise<SubgraphResponse | undefined> {
  try {
    return await fetchTraced(
      input.fetcher,
      input.trace,
      endpoint.name,
      endpoint.url,
      { ...input.headers, ...endpoint.headers },
      { query: fetch.query, variables },
    );
  } catch (err) {
    result.errors.push({
      message: `Subgraph "${endpoint.name}" could not be reached: ${(err as Error).message}`,
      path: [...at(), ...(fetch.ownedKeys.length > 0 ? [fetch.ownedKeys[0]] : [])],
      extensions: { code: 'SUBGRAPH_UNREACHABLE', serviceName: endpoint.name },
    });
    return undefined;
  }
}

/** Batching disabled: an `_entities` call per representation, put together as if it were one. */
async function sendOneByOne(
  input: ExecutionInput,
  endpoint: SubgraphEndpoint,
  fetch: PlannedFetch,
  variables: Record<string, unknown>,
  representations: unknown[],
  result: RawResult,
  at: () => Array<string | number>,
): Promise<SubgraphResponse | undefined> {
  const answers = await Promise.all(
    representations.map((representation) =>
      send(input, endpoint, fetch, { ...variables, representations: [representation] }, result, at),
    ),
  );
  if (answers.every((answer) => answer === undefined)) return undefined;
  const entities: unknown[] = [];
  const errors: GraphqlError[] = [];
  answers.forEach((answer, index) => {
    entities.push((answer?.data?._entities as unknown[] | undefined)?.[0] ?? null);
    for (const error of answer?.errors ?? [])
      errors.push(
        Array.isArray(error.path) && error.path[0] === '_entities'
          ? { ...error, path: ['_entities', index, ...error.path.slice(2)] }
          : error,
      );
  });
  return { data: { _entities: entities }, errors };
}

function mergeRoot(fetch: PlannedFetch, response: SubgraphResponse, result: RawResult): void {
  if (response.data) deepMerge(result.data, response.data);
  else for (const key of fetch.ownedKeys) result.data[key] ??= null;
  for (const error of response.errors ?? []) result.errors.push(withoutLocations(error));
}

/** `["_entities", 3, "reviews", 0]` becomes the path of the object answered by representation 3, plus the rest. */
function relocate(subgraphError: GraphqlError, slots: number[], paths: Array<Array<string | number>>): GraphqlError {
  const error = withoutLocations(subgraphError);
  const path = error.path;
  if (!Array.isArray(path) || path[0] !== '_entities' || typeof path[1] !== 'number') {
    const { path: _dropped, ...rest } = error;
    return paths.length > 0 ? { ...rest, path: paths[0] } : rest;
  }
  const target = slots.indexOf(path[1]);
  return { ...error, path: [...(target >= 0 ? paths[target] : []), ...path.slice(2)] };
}

/** Locations point into the query gw sent the subgraph, not the client's: they are dropped. */
function withoutLocations(error: GraphqlError): GraphqlError {
  if (!('locations' in error)) return error;
  const { locations: _subgraphOnly, ...rest } = error;
  return rest;
}
