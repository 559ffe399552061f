import { isAbstractType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import type { JoinField, JoinSupergraph, JoinType } from './join-directives';
import { graphsOf, ownersOf, resolvableKeys } from './join-ownership';

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/** Specs a supergraph may `@link` and still be planned by gw's own planner (`@tag` changes no plan). */
const PLANNABLE_LINKS = [/\/link\/v/, /\/join\/v/, /\/tag\/v/];

/**
 * Why gw's own (v1) planner can not plan a Federation 2 supergraph, or nothing when it can.
 * That planner knows one owner set per field and leaves a subgraph only through an entity key,
 * so every Federation 2 feature that makes ownership depend on the path or the subgraph is an
 * obstacle: interface objects, overrides, per-subgraph field types, abstract types whose
 * members differ per subgraph, inaccessible parts, field sets with fragments or arguments
 * (its field-set reader keeps plain fields only), and a field several subgraphs resolve whose
 * value (a non-entity object) one of them can not complete, since the planner would stay in
 * whichever owner it reached where the Federation 2 planner would pick the one that can.
 */
export function v1PlanObstacles(join: JoinSupergraph, schema: GraphQLSchema, subgraphs: string[]): string[] {
  const obstacles: string[] = [];
  for (const url of join.links) if (!PLANNABLE_LINKS.some((spec) => spec.test(url))) obstacles.push(`it links ${url}`);
  if (join.otherDirectives.has('inaccessible')) obstacles.push('it has @inaccessible parts');
  for (const [graph, name] of join.graphNames)
    if (!subgraphs.includes(name)) obstacles.push(`join__Graph ${graph} names no subgraph entry`);
  for (const type of join.types.values()) obstacles.push(...typeObstacles(join, schema, type));
  return obstacles;
}

function typeObstacles(join: JoinSupergraph, schema: GraphQLSchema, type: JoinType): string[] {
  const obstacles: string[] = [];
  const publicType = schema.getType(type.name);
  if (!publicType) return [`${type.name} is not in the client schema`];
  if (type.entries.some((entry) => entry.isInterfaceObject)) obstacles.push(`${type.name} is an @interfaceObject`);
  if (type.entries.length === 0 && type.fields.length > 0) obstacles.push(`${type.name} is in no subgraph`);
  for (const entry of type.entries)
    if (entry.key !== undefined && !isPlainFieldSet(entry.key))
      obstacles.push(`${type.name}'s key "${entry.key}" has fragments or arguments`);
  if (isAbstractType(publicType)) {
    const members = schema.getPossibleTypes(publicType).map((member) => member.name);
    for (const graph of graphsOf(type)) {
      const there = isInterfaceType(publicType)
        ? implementorsIn(join, type.name, graph)
        : type.membersIn.size > 0
          ? type.membersIn.get(graph)
          : members;
      if (!sameSet(members, there)) obstacles.push(`${type.name} has other members in ${graph}`);
    }
  }
  if (type.kind === 'enum' && type.enumValuesIn.size > 0) {
    const graphs = graphsOf(type);
    for (const [value, declaredIn] of type.enumValuesIn)
      if (!sameSet(graphs, declaredIn)) obstacles.push(`${type.name}.${value} is not in every subgraph`);
  }
  const fields = isObjectType(publicType) || isInterfaceType(publicType) ? publicType.getFields() : {};
  for (const field of type.fields) {
    const where = `${type.name}.${field.name}`;
    if (!fields[field.name]) obstacles.push(`${where} is not in the client schema`);
    obstacles.push(...fieldObstacles(join, type, field, where));
  }
  return obstacles;
}

function fieldObstacles(join: JoinSupergraph, type: JoinType, field: JoinField, where: string): string[] {
  const obstacles: string[] = [];
  for (const entry of field.entries) {
    if (entry.graph === undefined) obstacles.push(`${where} has a @join__field without a subgraph`);
    if (entry.override !== undefined || entry.usedOverridden) obstacles.push(`${where} is overridden`);
    if (entry.type !== undefined && entry.type !== field.type)
      obstacles.push(`${where} has another type in a subgraph`);
    for (const set of [entry.requires, entry.provides])
      if (set !== undefined && !isPlainFieldSet(set)) obstacles.push(`${where}'s "${set}" has fragments or arguments`);
  }
  obstacles.push(...requiresObstacles(type, field, where));
  const owners = ownersOf(type, field);
  if (owners.length > 1) {
    const returned = join.types.get(field.namedType);
    for (const owner of returned ? owners : [])
      if (!completes(join, owner, returned!, new Set()))
        obstacles.push(`${where} is resolved by several subgraphs and ${owner} can not complete its ${returned!.name}`);
  }
  return obstacles;
}

/**
 * The planner fetches a field with `@requires` through `_entities`, with what it requires (nested
 * selections and required fields that require something themselves included) fetched first and
 * sent in the representation; a root type has no representation to send.
 */
function requiresObstacles(type: JoinType, field: JoinField, where: string): string[] {
  const requiring = field.entries.some((entry) => entry.requires !== undefined && entry.graph !== undefined);
  return requiring && ROOT_TYPES.has(type.name) ? [`${where} on a root type has @requires`] : [];
}

/**
 * Whether `graph`, having resolved a field returning `type`, can answer every field below it
 * without the planner having to pick another owner of the field: it resolves the field itself
 * (and completes what that returns), or the field's type is an entity `graph` can send a
 * resolvable key of to another owner.
 */
function completes(join: JoinSupergraph, graph: string, type: JoinType, seen: Set<string>): boolean {
  if (seen.has(type.name)) return true;
  seen.add(type.name);
  const declaring = type.kind === 'union' ? [...(type.membersIn.get(graph) ?? [])] : [type.name];
  const candidates = type.kind === 'interface' ? [type.name, ...implementorsIn(join, type.name, graph)] : declaring;
  for (const name of candidates) {
    const candidate = join.types.get(name);
    if (!candidate || !graphsOf(candidate).includes(graph)) continue;
    for (const field of candidate.fields) {
      const owners = ownersOf(candidate, field);
      if (owners.includes(graph)) {
        const returned = join.types.get(field.namedType);
        if (returned && !completes(join, graph, returned, seen)) return false;
      } else if (!owners.some((owner) => canJump(candidate, graph, owner, field))) return false;
    }
  }
  return true;
}

/** An `_entities` fetch from `graph` to `owner` for `field`: `owner` has a resolvable key whose fields `graph` resolves. */
function canJump(type: JoinType, graph: string, owner: string, field: JoinField): boolean {
  if (field.entries.some((entry) => entry.graph === owner && entry.requires !== undefined)) return false;
  const resolvedHere = new Set(type.fields.filter((f) => ownersOf(type, f).includes(graph)).map((f) => f.name));
  return resolvableKeys(type, owner).some((key) => topLevelFields(key).every((name) => resolvedHere.has(name)));
}

function implementorsIn(join: JoinSupergraph, interfaceName: string, graph: string): string[] {
  return [...join.types.values()]
    .filter((candidate) => candidate.implementsIn.get(graph)?.has(interfaceName))
    .map((candidate) => candidate.name);
}

/** A field set gw's field-set reader takes whole: fields and sub-selections, no fragments, arguments or directives. */
function isPlainFieldSet(set: string): boolean {
  return !/[.(@$]/.test(set);
}

function topLevelFields(set: string): string[] {
  let depth = 0;
  const names: string[] = [];
  for (const token of set.match(/[_A-Za-z][_0-9A-Za-z]*|[{}]/g) ?? []) {
    if (token === '{') depth++;
    else if (token === '}') depth--;
    else if (depth === 0) names.push(token);
  }
  return names;
}

function sameSet(expected: readonly string[], actual: Iterable<string> | undefined): boolean {
  const set = new Set(actual ?? []);
  return set.size === new Set(expected).size && expected.every((value) => set.has(value));
}
