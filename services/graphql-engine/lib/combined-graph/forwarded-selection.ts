import {
  Kind,
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
  print,
  visit,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type InlineFragmentNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

/** What a GraphQL data source is asked for one field: `name(args) { selection }`, printed once per query text. */
export interface ForwardedField {
  /** the field as the upstream sees it, without alias: equal texts are one upstream field */
  text: string;
  /** the operation's variables it uses */
  variables: string[];
}

/**
 * Turns the client's selection of a field resolved by a GraphQL data source into what that
 * upstream is asked: fragments inlined, fields that other data sources resolve left out (with
 * the fields of the parent that those sources' templates read added instead), and `__typename`
 * on abstract types so the gateway can tell their members apart. Documents are cached by query
 * text, so their nodes are stable: the result is cached per node.
 */
export class SelectionForwarder {
  private readonly cache = new WeakMap<FieldNode, ForwardedField>();

  constructor(
    private readonly schema: GraphQLSchema,
    /** `Type.field` → what that field's own data source reads of its parent (`{{.object.x}}`) */
    private readonly resolvedElsewhere: Map<string, string[]>,
  ) {}

  forward(info: GraphQLResolveInfo): ForwardedField {
    const first = info.fieldNodes[0];
    const cached = info.fieldNodes.length === 1 ? this.cache.get(first) : undefined;
    if (cached) return cached;
    const selections = info.fieldNodes.flatMap((node) => node.selectionSet?.selections ?? []);
    const fieldType = getNamedType(info.returnType);
    const selectionSet =
      selections.length > 0
        ? this.selectionSet({ kind: Kind.SELECTION_SET, selections }, fieldType, info.fragments)
        : undefined;
    const node: FieldNode = {
      kind: Kind.FIELD,
      name: first.name,
      arguments: first.arguments,
      directives: [],
      selectionSet,
    };
    const forwarded = { text: print(node), variables: variablesOf(node) };
    if (info.fieldNodes.length === 1) this.cache.set(first, forwarded);
    return forwarded;
  }

  private selectionSet(
    set: SelectionSetNode,
    parent: GraphQLNamedType,
    fragments: Record<string, FragmentDefinitionNode>,
  ): SelectionSetNode {
    const selections: SelectionNode[] = [];
    const needed = new Set<string>();
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const kept = this.field(selection, parent, fragments, needed);
        if (kept) selections.push(kept);
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
        if (!fragment) continue;
        const condition = fragment.typeCondition
          ? (this.schema.getType(fragment.typeCondition.name.value) ?? parent)
          : parent;
        const inline: InlineFragmentNode = {
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: fragment.typeCondition,
          directives: fragment.directives,
          selectionSet: this.selectionSet(fragment.selectionSet, condition, fragments),
        };
        selections.push(inline);
      }
    }
    for (const name of needed) selections.push({ kind: Kind.FIELD, name: { kind: Kind.NAME, value: name } });
    if (isAbstractType(parent)) selections.push({ kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } });
    return { kind: Kind.SELECTION_SET, selections };
  }

  private field(
    node: FieldNode,
    parent: GraphQLNamedType,
    fragments: Record<string, FragmentDefinitionNode>,
    needed: Set<string>,
  ): FieldNode | undefined {
    if (node.name.value.startsWith('__') || !isObjectType(parent))
      return node.selectionSet
        ? { ...node, selectionSet: this.selectionSet(node.selectionSet, parent, fragments) }
        : node;
    const reads = this.resolvedElsewhere.get(`${parent.name}.${node.name.value}`);
    if (reads) {
      const fields = parent.getFields();
      for (const name of reads)
        if (
          fields[name] &&
          isLeafType(getNamedType(fields[name].type)) &&
          !this.resolvedElsewhere.has(`${parent.name}.${name}`)
        )
          needed.add(name);
      return undefined;
    }
    const definition = parent.getFields()[node.name.value];
    if (!definition || !node.selectionSet) return node;
    return { ...node, selectionSet: this.selectionSet(node.selectionSet, getNamedType(definition.type), fragments) };
  }
}

function variablesOf(node: FieldNode): string[] {
  const names = new Set<string>();
  visit(node, { Variable: (variable) => void names.add(variable.name.value) });
  return [...names];
}

/** The variable definitions of the client's operation that a batch uses, printed. */
export function variableDefinitions(info: GraphQLResolveInfo, used: Set<string>): string {
  if (used.size === 0) return '';
  const definitions = (info.operation.variableDefinitions ?? []).filter((d) => used.has(d.variable.name.value));
  return definitions.length > 0 ? `(${definitions.map((d) => print(d)).join(', ')})` : '';
}
