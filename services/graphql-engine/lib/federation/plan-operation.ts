import { isAbstractType, isNonNullType, isObjectType, type DirectiveNode, type GraphQLSchema } from 'graphql';
import { PlanningError, type ClientField, type ClientOperation, type ClientSelection } from './client-operation';
import { asClientField, flattenRoot, mergeLevel } from './selection-levels';
import { mergeFieldSets, parseFieldSet, type FieldSetNode } from './field-set';
import type { EntityTarget, PlannedFetch, QueryPlan } from './query-plan';
import {
  addFieldSet,
  addPlainField,
  addTypename,
  fragmentOn,
  printSelections,
  printVariableDefinitions,
  variablesUsed,
  type SubgraphField,
  type SubgraphSelection,
} from './subgraph-selection';
import type { Supergraph } from './supergraph';

/** Where an entity fetch starts from: the fetch, the entity type and path, and what it answers there. */
interface EntityLevel {
  fetch: DraftFetch;
  typeName: string;
  path: string[];
  /** key and provided fields the fetch's subgraph answers here */
  here: FieldSetNode[];
  /** the fetch's selection at this level */
  out: SubgraphSelection[];
}

interface DraftFetch {
  id: number;
  subgraph: string;
  selections: SubgraphSelection[];
  dependsOn: Set<number>;
  ownedKeys: string[];
  rootConditions?: Array<readonly DirectiveNode[]>;
  entity?: EntityTarget;
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/**
 * Splits a client operation by subgraph ownership (`Supergraph.fields[type][field].resolvedBy`):
 * root fields go to the subgraph resolving them (one fetch per subgraph, in order for a
 * mutation); a field the current subgraph can not answer becomes an `_entities` fetch to one
 * that can, keyed by a `@key` the current subgraph can select (added to its query). Fields a
 * `@requires` needs are selected (or fetched) first and sent in the representation; fields a
 * `@provides` covers stay with the providing subgraph. All entities of one type at one path go
 * into one `_entities` call.
 */
export function planOperation(supergraph: Supergraph, operation: ClientOperation): QueryPlan {
  return new Planner(supergraph).plan(operation);
}

class Planner {
  private readonly fetches: DraftFetch[] = [];
  /** `Type@subgraph` entity fetches being planned whose key fields come from another fetch first */
  private readonly awaitingKeys = new Set<string>();
  /** per entity fetch whose inputs are being placed: the entity fetches planned or joined meanwhile, which it waits for */
  private readonly inputCollectors: Array<Set<number>> = [];
  private readonly schema: GraphQLSchema;

  constructor(private readonly supergraph: Supergraph) {
    this.schema = supergraph.schema;
  }

  plan(operation: ClientOperation): QueryPlan {
    const rootFields = flattenRoot(operation.selections);
    const introspection = rootFields.some((f) => INTROSPECTION_ROOTS.has(f.name));
    let previous: DraftFetch | undefined;
    const byOwner = new Map<string, DraftFetch>();
    for (const field of rootFields) {
      if (field.name === '__typename' || INTROSPECTION_ROOTS.has(field.name)) continue;
      const owners = this.supergraph.fields[operation.rootType]?.[field.name]?.resolvedBy ?? [];
      if (owners.length === 0) throw new PlanningError(`No subgraph resolves ${operation.rootType}.${field.name}.`);
      // a mutation's root fields run one after another: a fetch only ever groups neighbours
      let fetch =
        operation.operation === 'mutation'
          ? previous?.subgraph === owners[0]
            ? previous
            : undefined
          : owners.map((o) => byOwner.get(o)).find(Boolean);
      if (!fetch) {
        fetch = this.newFetch(owners[0], previous && operation.operation === 'mutation' ? [previous.id] : []);
        byOwner.set(fetch.subgraph, fetch);
      }
      previous = fetch;
      fetch.ownedKeys.push(field.responseKey);
      (fetch.rootConditions ??= []).push(field.directives);
      this.planLevel(fetch, operation.rootType, [field], fetch.selections, [], undefined);
    }
    return { operation, introspection, fetches: this.fetches.map((draft) => this.finish(draft, operation)) };
  }

  private newFetch(subgraph: string, dependsOn: number[]): DraftFetch {
    const fetch: DraftFetch = {
      id: this.fetches.length,
      subgraph,
      selections: [],
      dependsOn: new Set(dependsOn),
      ownedKeys: [],
    };
    this.fetches.push(fetch);
    return fetch;
  }

  /**
   * Places `selections` (on `typeName`, at `path`) in `fetch`'s query at `out`; `available` is
   * what the subgraph can answer there besides the fields it resolves (provided, key fields).
   * `requirementsSent`: the level is an `_entities` fetch whose representation carries what its
   * fields `@requires`; anywhere else such a field is fetched through `_entities` with them.
   */
  private planLevel(
    fetch: DraftFetch,
    typeName: string,
    selections: ClientSelection[],
    out: SubgraphSelection[],
    path: string[],
    available: FieldSetNode[] | undefined,
    requirementsSent = false,
  ): void {
    const here = mergeFieldSets(available, this.keysOf(fetch.subgraph, typeName));
    const pending = new Map<string, ClientField[]>();
    for (const selection of mergeLevel(selections, typeName)) {
      if (selection.kind === 'fragment') {
        const condition = selection.typeCondition ?? typeName;
        const fragment: SubgraphSelection = {
          kind: 'fragment',
          typeCondition: condition,
          directives: selection.directives,
          selections: [],
        };
        out.push(fragment);
        this.planLevel(fetch, condition, selection.selections, fragment.selections, path, available);
        continue;
      }
      if (
        selection.name === '__typename' ||
        this.selectable(fetch.subgraph, typeName, selection.name, here, requirementsSent)
      ) {
        this.placeField(fetch, typeName, selection, out, path, here);
        continue;
      }
      for (const concrete of this.concreteTypes(typeName)) {
        if (!pending.has(concrete)) pending.set(concrete, []);
        pending.get(concrete)!.push(selection);
      }
    }
    for (const [concrete, fields] of pending) {
      addTypename(out);
      this.jump(fetch, concrete, fields, concrete === typeName ? out : fragmentOn(out, concrete), path, here);
    }
  }

  private placeField(
    fetch: DraftFetch,
    typeName: string,
    field: ClientField,
    out: SubgraphSelection[],
    path: string[],
    here: FieldSetNode[],
  ): void {
    const placed: SubgraphSelection = {
      kind: 'field',
      responseKey: field.responseKey,
      name: field.name,
      arguments: field.arguments,
      directives: field.directives,
      selections: field.selections ? [] : undefined,
    };
    out.push(placed);
    if (!field.selections) return;
    addTypename(placed.selections!);
    this.planBelow(fetch, typeName, field, placed, path, here);
  }

  /** Plans `field`'s selections inside `placed`, its selection in `fetch`'s query. */
  private planBelow(
    fetch: DraftFetch,
    typeName: string,
    field: ClientField,
    placed: SubgraphField,
    path: string[],
    here: FieldSetNode[],
  ): void {
    const provided = this.supergraph.fields[typeName]?.[field.name]?.provides[fetch.subgraph];
    const available = mergeFieldSets(
      provided ? parseFieldSet(provided) : undefined,
      here.find((n) => n.name === field.name)?.children,
    );
    this.planLevel(
      fetch,
      field.namedType!,
      field.selections!,
      placed.selections!,
      [...path, placed.responseKey],
      available,
    );
  }

  /**
   * Fields of entity `typeName` that `fetch`'s subgraph can not answer: `_entities` fetches from
   * those that can (never from one waiting for them as its key), preferring one whose key `fetch`
   * can send as it is.
   */
  private jump(
    fetch: DraftFetch,
    typeName: string,
    fields: ClientField[],
    out: SubgraphSelection[],
    path: string[],
    here: FieldSetNode[],
  ): void {
    const groups = new Map<string, ClientField[]>();
    const sendsKeyOf = (owner: string) => this.directKey(fetch, typeName, owner, here) !== undefined;
    for (const field of fields) {
      const owners = this.ownersOf(typeName, field.name).filter((o) => !this.awaitsKey(typeName, o));
      if (owners.length === 0) throw new PlanningError(`No subgraph resolves ${typeName}.${field.name}.`);
      const target = owners.find((o) => groups.has(o)) ?? owners.find(sendsKeyOf) ?? owners[0];
      if (!groups.has(target)) groups.set(target, []);
      groups.get(target)!.push(field);
    }
    // groups that need nothing fetched first go first, so required or key fields can join a sibling fetch
    const waits = (target: string, group: ClientField[]) =>
      Number(this.hasRequires(typeName, target, group) || !sendsKeyOf(target));
    const ordered = [...groups].sort(([a, fa], [b, fb]) => waits(a, fa) - waits(b, fb));
    for (const [target, group] of ordered) this.entityFetch(fetch, typeName, target, group, out, path, here);
  }

  private entityFetch(
    fetch: DraftFetch,
    typeName: string,
    target: string,
    group: ClientField[],
    out: SubgraphSelection[],
    path: string[],
    here: FieldSetNode[],
  ): void {
    const key = this.directKey(fetch, typeName, target, here) ?? this.keyFetchedFirst(typeName, target);
    const dependsOn = new Set([fetch.id]);
    const required = mergeFieldSets(...group.map((f) => requiredBy(this.supergraph, typeName, f.name, target)));
    const missing: ClientField[] = [];
    const missingKey: ClientField[] = [];
    const level: EntityLevel = { fetch, typeName, path, here, out };
    // every entity fetch planned or joined from here on serves the representation (also those
    // nested in a required selection, or fetching what a required field requires in turn)
    const inputFetches = new Set<number>();
    this.inputCollectors.push(inputFetches);
    for (const node of key) {
      if (this.placeInput(level, node, dependsOn, target)) continue;
      missingKey.push(asClientField(this.schema, typeName, node));
    }
    for (const node of required) {
      if (!this.placeInput(level, node, dependsOn)) missing.push(asClientField(this.schema, typeName, node));
    }
    if (missing.length > 0) this.jump(fetch, typeName, missing, out, path, here);
    if (missingKey.length > 0) this.fetchKeyFirst(level, target, missingKey);
    this.inputCollectors.pop();
    for (const id of inputFetches) dependsOn.add(id);
    const representation = mergeFieldSets(key, required);
    const entity =
      this.sameEntityFetch(target, typeName, path, representation, dependsOn) ?? this.newFetch(target, [...dependsOn]);
    if (!entity.entity) {
      const nonNull = nonNullFields(this.schema, typeName, representation);
      entity.entity = { typeName, path, representation, nonNull };
    }
    for (const collector of this.inputCollectors) collector.add(entity.id);
    entity.ownedKeys.push(...group.map((f) => f.responseKey));
    const selections = fragmentOn(entity.selections, typeName);
    this.planLevel(entity, typeName, group, selections, path, undefined, true);
  }

  /**
   * An entity fetch already planned to `target` for the same entities with the same
   * representation, waiting for the same fetches: a group joins it rather than sending the
   * subgraph the same representations twice (a field the client selects and another requires).
   */
  private sameEntityFetch(
    target: string,
    typeName: string,
    path: string[],
    representation: FieldSetNode[],
    dependsOn: Set<number>,
  ): DraftFetch | undefined {
    const at = path.join('.');
    return this.fetches.find(
      (f) =>
        f.subgraph === target &&
        f.entity?.typeName === typeName &&
        f.entity.path.join('.') === at &&
        covers(f.entity.representation, representation) &&
        covers(representation, f.entity.representation) &&
        f.dependsOn.size === dependsOn.size &&
        [...dependsOn].every((id) => f.dependsOn.has(id)),
    );
  }

  /**
   * Puts a key or required field in `level.fetch`'s query (what it selects below the field and
   * can not answer is fetched from there), or a leaf in a sibling fetch's (never one from
   * `excluded`) that the entity fetch then waits for. False when neither can answer it.
   */
  private placeInput(level: EntityLevel, node: FieldSetNode, dependsOn: Set<number>, excluded?: string) {
    const { fetch, typeName } = level;
    if (this.selectable(fetch.subgraph, typeName, node.name, level.here)) {
      const nested = node.children.length > 0;
      const placed = addPlainField(level.out, node.name, nested);
      if (nested)
        this.planBelow(fetch, typeName, asClientField(this.schema, typeName, node), placed, level.path, level.here);
      return true;
    }
    if (node.children.length > 0) return false;
    const sibling = this.siblingFetch(fetch, typeName, level.path, node.name, excluded);
    if (!sibling) return false;
    addFieldSet(fragmentOn(sibling.selections, typeName), [node]);
    dependsOn.add(sibling.id);
    return true;
  }

  /** A key of `target` for `typeName` that `fetch`'s subgraph answers. */
  private directKey(fetch: DraftFetch, typeName: string, target: string, here: FieldSetNode[]) {
    const answered = (node: FieldSetNode) => this.answers(fetch.subgraph, typeName, node.name, here);
    return this.keysAt(typeName, target).find((key) => key.every(answered));
  }

  /** A key of `target` whose fields another subgraph resolves, fetched before the representation is sent. */
  private keyFetchedFirst(typeName: string, target: string): FieldSetNode[] {
    const keys = this.keysAt(typeName, target);
    if (keys.length === 0) {
      const why = `${typeName} is not an entity of subgraph "${target}": its fields there can not be fetched.`;
      throw new PlanningError(why);
    }
    const elsewhere = (node: FieldSetNode) => this.ownersOf(typeName, node.name).some((o) => o !== target);
    return keys.find((key) => key.every(elsewhere)) ?? keys[0];
  }

  /**
   * Key fields of `target` the current subgraph lacks (an extension's key on a field only
   * extensions resolve): fetched first from a subgraph that is not itself waiting for its key.
   */
  private fetchKeyFirst(level: EntityLevel, target: string, fields: ClientField[]): void {
    const waiting = `${level.typeName}@${target}`;
    this.awaitingKeys.add(waiting);
    try {
      this.jump(level.fetch, level.typeName, fields, level.out, level.path, level.here);
    } finally {
      this.awaitingKeys.delete(waiting);
    }
  }

  private awaitsKey(typeName: string, subgraph: string): boolean {
    return this.awaitingKeys.has(`${typeName}@${subgraph}`);
  }

  private ownersOf(typeName: string, field: string, excluded?: string): string[] {
    return (this.supergraph.fields[typeName]?.[field]?.resolvedBy ?? []).filter((o) => o !== excluded);
  }

  private keysAt(typeName: string, subgraph: string): FieldSetNode[][] {
    return (this.supergraph.entities[typeName]?.keys[subgraph] ?? []).map(parseFieldSet);
  }

  private hasRequires(typeName: string, subgraph: string, fields: ClientField[]): boolean {
    return fields.some((f) => requiredBy(this.supergraph, typeName, f.name, subgraph) !== undefined);
  }

  /**
   * An `_entities` fetch already planned for the same entities (same parent, type and path) from
   * a subgraph resolving `field`, whose representation carries what `field` requires there (it
   * is settled), that waits for nothing but the parent (so joining it makes no cycle).
   */
  private siblingFetch(
    parent: DraftFetch,
    typeName: string,
    path: string[],
    field: string,
    excluded?: string,
  ): DraftFetch | undefined {
    const owners = this.ownersOf(typeName, field, excluded);
    const at = path.join('.');
    return this.fetches.find(
      (f) =>
        f.entity?.typeName === typeName &&
        f.dependsOn.has(parent.id) &&
        f.entity.path.join('.') === at &&
        owners.includes(f.subgraph) &&
        f.dependsOn.size === 1 &&
        covers(f.entity.representation, requiredBy(this.supergraph, typeName, field, f.subgraph)),
    );
  }

  /**
   * Whether `subgraph`'s query can select `field` here: it answers it, and the field `@requires`
   * nothing there unless the representation carries it (`requirementsSent`) or it is available
   * here anyway (provided). A subgraph is never asked a field without what it requires, even
   * where it returns the entity itself: the field is then fetched through `_entities`.
   */
  private selectable(
    subgraph: string,
    typeName: string,
    field: string,
    here: FieldSetNode[],
    requirementsSent = false,
  ): boolean {
    if (here.some((n) => n.name === field)) return true;
    if (!this.answers(subgraph, typeName, field, here)) return false;
    return requirementsSent || requiredBy(this.supergraph, typeName, field, subgraph) === undefined;
  }

  private answers(subgraph: string, typeName: string, field: string, here: FieldSetNode[]): boolean {
    if (here.some((n) => n.name === field)) return true;
    return this.supergraph.fields[typeName]?.[field]?.resolvedBy.includes(subgraph) ?? false;
  }

  private keysOf(subgraph: string, typeName: string): FieldSetNode[] | undefined {
    const keys = this.supergraph.entities[typeName]?.keys[subgraph];
    return keys && keys.length > 0 ? mergeFieldSets(...keys.map(parseFieldSet)) : undefined;
  }

  private concreteTypes(typeName: string): string[] {
    const type = this.schema.getType(typeName);
    return type && isAbstractType(type) ? this.schema.getPossibleTypes(type).map((t) => t.name) : [typeName];
  }

  private finish(draft: DraftFetch, operation: ClientOperation): PlannedFetch {
    const used = variablesUsed(draft.selections);
    let query: string;
    if (draft.entity) {
      const variables = printVariableDefinitions(operation.variableDefinitions, used, ['$representations: [_Any!]!']);
      query = `query${variables} { _entities(representations: $representations) ${printSelections(draft.selections)} }`;
    } else {
      query = `${operation.operation}${printVariableDefinitions(operation.variableDefinitions, used)} ${printSelections(draft.selections)}`;
    }
    return {
      id: draft.id,
      subgraph: draft.subgraph,
      query,
      variables: [...used],
      dependsOn: [...draft.dependsOn],
      ownedKeys: draft.ownedKeys,
      rootConditions: draft.rootConditions,
      entity: draft.entity,
    };
  }
}

/** The fields of a representation the schema declares non-null. */
function nonNullFields(schema: GraphQLSchema, typeName: string, set: FieldSetNode[]): string[] {
  const type = schema.getType(typeName);
  const fields = type && isObjectType(type) ? type.getFields() : {};
  const nonNull = set.filter((node) => fields[node.name] && isNonNullType(fields[node.name].type));
  return nonNull.map((node) => node.name);
}

/** Whether field set `set` holds every field of `required` (nothing required: it does). */
function covers(set: FieldSetNode[], required: FieldSetNode[] | undefined): boolean {
  return (required ?? []).every((node) => {
    const there = set.find((candidate) => candidate.name === node.name);
    return there !== undefined && covers(there.children, node.children);
  });
}

function requiredBy(
  supergraph: Supergraph,
  typeName: string,
  field: string,
  subgraph: string,
): FieldSetNode[] | undefined {
  const requires = supergraph.fields[typeName]?.[field]?.requires[subgraph];
  return requires ? parseFieldSet(requires) : undefined;
}
